"""The vocabulary API, mounted at /api/projects/<project_id>/."""

from django.urls import path

from mpp_studio.lexicon import apis, apis_converted, apis_imports

app_name = "lexicon_api"

urlpatterns = [
    path("vocabularies/", apis.VocabularyListApi.as_view(), name="vocabulary_list"),
    path("vocabularies/import/", apis_imports.VocabularyImportApi.as_view(), name="vocabulary_import"),
    path(
        "vocabularies/import/converted/",
        apis_converted.VocabularyConvertedImportApi.as_view(),
        name="vocabulary_import_converted",
    ),
    path(
        "vocabularies/imports/<id:import_id>/",
        apis_imports.VocabularyImportDetailApi.as_view(),
        name="vocabulary_import_detail",
    ),
    path("vocabularies/<id:vocabulary_id>/", apis.VocabularyDetailApi.as_view(), name="vocabulary_detail"),
    path("vocabularies/<id:vocabulary_id>/items/", apis.ItemListApi.as_view(), name="item_list"),
    path(
        "vocabularies/<id:vocabulary_id>/items/<id:item_pk>/",
        apis.ItemDetailApi.as_view(),
        name="item_detail",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/export/",
        apis.VocabularyExportApi.as_view(),
        name="vocabulary_export",
    ),
]
