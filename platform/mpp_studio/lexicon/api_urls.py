"""The vocabulary API, mounted at /api/projects/<project_id>/."""

from django.urls import path

from mpp_studio.lexicon import api, api_converted, api_imports

app_name = "lexicon_api"

urlpatterns = [
    path("vocabularies/", api.VocabularyListApi.as_view(), name="vocabulary_list"),
    path("vocabularies/import/", api_imports.VocabularyImportApi.as_view(), name="vocabulary_import"),
    path(
        "vocabularies/import/converted/",
        api_converted.VocabularyConvertedImportApi.as_view(),
        name="vocabulary_import_converted",
    ),
    path(
        "vocabularies/imports/<id:import_id>/",
        api_imports.VocabularyImportDetailApi.as_view(),
        name="vocabulary_import_detail",
    ),
    path("vocabularies/<id:vocabulary_id>/", api.VocabularyDetailApi.as_view(), name="vocabulary_detail"),
    path("vocabularies/<id:vocabulary_id>/items/", api.ItemListApi.as_view(), name="item_list"),
    path(
        "vocabularies/<id:vocabulary_id>/items/<id:item_pk>/",
        api.ItemDetailApi.as_view(),
        name="item_detail",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/export/",
        api.VocabularyExportApi.as_view(),
        name="vocabulary_export",
    ),
]
