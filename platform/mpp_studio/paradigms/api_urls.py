"""URLs of the paradigms app (api_urls)."""

from django.urls import path  # noqa: F401

app_name = "paradigms_api"

urlpatterns: list = []
