"""Pages of a project's vocabularies, mounted at /projects/<project_id>/."""

from django.urls import include, path

from mpp_studio.lexicon import cell_views, schema_views, update_views, views

app_name = "lexicon"

urlpatterns = [
    path("vocabularies/", views.vocabulary_list, name="vocabulary_list"),
    path("vocabularies/new/", views.vocabulary_new, name="vocabulary_new"),
    path("vocabularies/import/", views.vocabulary_import, name="vocabulary_import"),
    path(
        "vocabularies/imports/<id:import_id>/",
        views.vocabulary_import_detail,
        name="vocabulary_import_detail",
    ),
    # The jobs app's status partial (`lexicon:job_status`): the jobs app has no URL mount of its own.
    path("vocabularies/imports/", include("mpp_studio.jobs.urls")),
    path("vocabularies/<id:vocabulary_id>/", views.vocabulary_detail, name="vocabulary_detail"),
    path(
        "vocabularies/<id:vocabulary_id>/export/<str:fmt>/",
        views.vocabulary_export_view,
        name="vocabulary_export",
    ),
    path("vocabularies/<id:vocabulary_id>/settings/", views.vocabulary_settings, name="vocabulary_settings"),
    path("vocabularies/<id:vocabulary_id>/delete/", views.vocabulary_remove, name="vocabulary_delete"),
    path("vocabularies/<id:vocabulary_id>/items/new/", views.item_new, name="item_new"),
    path("vocabularies/<id:vocabulary_id>/items/<id:item_pk>/edit/", views.item_edit, name="item_edit"),
    path("vocabularies/<id:vocabulary_id>/items/<id:item_pk>/cell/", cell_views.item_cell, name="item_cell"),
    path("vocabularies/<id:vocabulary_id>/items/<id:item_pk>/delete/", views.item_delete, name="item_delete"),
    path(
        "vocabularies/<id:vocabulary_id>/update/",
        update_views.vocabulary_update_new,
        name="vocabulary_update_new",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/updates/<id:update_id>/",
        update_views.vocabulary_update_detail,
        name="vocabulary_update",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/updates/<id:update_id>/apply/",
        update_views.vocabulary_update_apply,
        name="vocabulary_update_apply",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/updates/<id:update_id>/discard/",
        update_views.vocabulary_update_discard_view,
        name="vocabulary_update_discard",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/versions/<id:snapshot_id>/<str:fmt>/",
        update_views.vocabulary_version_download,
        name="vocabulary_version_download",
    ),
    path("vocabularies/<id:vocabulary_id>/schema/", schema_views.schema, name="schema"),
    path("vocabularies/<id:vocabulary_id>/schema/yaml/", schema_views.schema_yaml, name="schema_yaml"),
    path("vocabularies/<id:vocabulary_id>/schema/new/", schema_views.feature_new, name="feature_new"),
    # Feature names come from table headers and may hold any character, '/' included: last in the path.
    path(
        "vocabularies/<id:vocabulary_id>/schema/edit/<path:feature>",
        schema_views.feature_edit,
        name="feature_edit",
    ),
    path(
        "vocabularies/<id:vocabulary_id>/schema/delete/<path:feature>",
        schema_views.feature_delete,
        name="feature_delete",
    ),
]
