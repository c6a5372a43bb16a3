"""URLs of the paradigm pages (the library home page is mounted at the site root)."""

from django.urls import path

from mpp_studio.paradigms.views import template_detail

app_name = "paradigms"

urlpatterns = [
    path("<int:template_id>/", template_detail, name="detail"),
]
