"""URLs of the library API, mounted at /api/library/: the shipped catalogue and its import into a project."""

from django.urls import path

from mpp_studio.paradigms import apis

app_name = "library_api"

urlpatterns = [
    path("", apis.LibraryListApi.as_view(), name="library_list"),
    path("<id:template_id>/", apis.LibraryDetailApi.as_view(), name="library_detail"),
    path("import/", apis.LibraryImportApi.as_view(), name="library_import"),
]
