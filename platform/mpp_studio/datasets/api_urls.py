"""URLs of the datasets app (api_urls)."""

from django.urls import path  # noqa: F401

app_name = "datasets_api"

urlpatterns: list = []
