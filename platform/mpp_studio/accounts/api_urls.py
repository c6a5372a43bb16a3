"""URLs of the accounts app (api_urls)."""

from django.urls import path  # noqa: F401

app_name = "accounts_api"

urlpatterns: list = []
