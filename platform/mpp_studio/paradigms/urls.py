"""URLs of the paradigm pages (the library home page is mounted at the site root)."""

from django.urls import path

from mpp_studio.paradigms.views.catalogue import template_detail
from mpp_studio.paradigms.views.library import library_import, library_template_download

app_name = "paradigms"

urlpatterns = [
    path("<id:template_id>/", template_detail, name="detail"),
    path("<id:template_id>/download/", library_template_download, name="download"),
    path("import/", library_import, name="import"),
]
