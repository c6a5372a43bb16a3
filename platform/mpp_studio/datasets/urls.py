"""URLs of the datasets app (urls)."""

from django.urls import path  # noqa: F401

app_name = "datasets"

urlpatterns: list = []
