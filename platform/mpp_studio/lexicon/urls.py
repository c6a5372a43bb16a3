"""URLs of the lexicon app (urls)."""

from django.urls import path  # noqa: F401

app_name = "lexicon"

urlpatterns: list = []
