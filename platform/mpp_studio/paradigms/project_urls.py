"""URLs of the paradigms app (project_urls)."""

from django.urls import path  # noqa: F401

app_name = "project_paradigms"

urlpatterns: list = []
