"""URLs of the paradigms app (project_urls)."""

from django.urls import include, path

from mpp_studio.paradigms.views import editor, files, library, phrases, zhoblimp

app_name = "project_paradigms"

urlpatterns: list = [
    # Templates: the list, a template and its versions, the editor (editor helper).
    path("templates/", editor.template_list, name="template_list"),
    path("templates/new/", editor.template_new, name="template_new"),
    path("templates/editor/table/", editor.editor_table, name="template_editor_table"),
    path("templates/editor/preview/", editor.editor_preview_view, name="template_editor_preview"),
    path("templates/editor/draft/", editor.editor_draft, name="template_editor_draft"),
    path(
        "templates/editor/draft/discard/", editor.editor_draft_discard, name="template_editor_draft_discard"
    ),
    path("templates/<id:template_id>/", editor.template_detail, name="template_detail"),
    path("templates/<id:template_id>/edit/", editor.template_edit, name="template_edit"),
    path("templates/<id:template_id>/duplicate/", editor.template_duplicate_view, name="template_duplicate"),
    path("templates/<id:template_id>/compare/", editor.template_compare, name="template_compare"),
    path(
        "templates/<id:template_id>/versions/<id:number>/",
        editor.template_version_detail,
        name="template_version",
    ),
    path(
        "templates/<id:template_id>/versions/<id:number>/restore/",
        editor.template_version_restore_view,
        name="template_version_restore",
    ),
    # Template files in and out (library helper).
    path("templates/upload/", files.template_upload, name="template_upload"),
    path("templates/import/zhoblimp/", zhoblimp.zhoblimp_import, name="zhoblimp_import"),
    # Imports run as jobs: their pages, and the jobs app's status partial (`project_paradigms:job_status`).
    path(
        "templates/import/zhoblimp/<id:import_id>/",
        zhoblimp.zhoblimp_import_detail,
        name="zhoblimp_import_detail",
    ),
    path(
        "templates/import/library/<id:import_id>/",
        library.library_import_detail,
        name="library_import_detail",
    ),
    path("templates/import/", include("mpp_studio.jobs.urls")),
    path("templates/<id:template_id>/download/", files.template_download, name="template_download"),
    # Phrases (library helper).
    path("phrases/", phrases.phrase_list, name="phrase_list"),
    path("phrases/new/", phrases.phrase_new, name="phrase_new"),
    path("phrases/<id:phrase_id>/", phrases.phrase_detail, name="phrase_detail"),
    path("phrases/<id:phrase_id>/delete/", phrases.phrase_remove, name="phrase_delete"),
]
