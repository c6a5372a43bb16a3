"""URLs of the lexicon app (api_urls)."""

from django.urls import path  # noqa: F401

app_name = "lexicon_api"

urlpatterns: list = []
