"""The vocabulary API, mounted at /api/projects/<project_id>/."""

from django.urls import path

from mpp_studio.lexicon import apis, apis_converted, apis_imports, apis_updates

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
        "vocabularies/<id:vocabulary_id>/updates/",
        apis_updates.VocabularyUpdateListApi.as_view(),
        name="vocabulary_update_list",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/updates/<id:update_id>/",
        apis_updates.VocabularyUpdateDetailApi.as_view(),
        name="vocabulary_update_detail",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/updates/<id:update_id>/apply/",
        apis_updates.VocabularyUpdateApplyApi.as_view(),
        name="vocabulary_update_apply",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/updates/<id:update_id>/discard/",
        apis_updates.VocabularyUpdateDiscardApi.as_view(),
        name="vocabulary_update_discard",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/export/",
        apis.VocabularyExportApi.as_view(),
        name="vocabulary_export",
    ),
]
