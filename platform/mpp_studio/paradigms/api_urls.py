"""URLs of the paradigms API (at /api/projects/<project_id>/): templates, versions, previews, phrases."""

from django.urls import path

from mpp_studio.paradigms import apis, apis_imports, apis_zhoblimp

app_name = "paradigms_api"

urlpatterns = [
    path("templates/", apis.TemplateListApi.as_view(), name="template_list"),
    path("templates/preview/", apis.TemplatePreviewApi.as_view(), name="template_preview"),
    path("templates/import/zhoblimp/", apis_zhoblimp.ZhoblimpImportApi.as_view(), name="zhoblimp_import"),
    path(
        "templates/import/zhoblimp/<id:import_id>/",
        apis_zhoblimp.ZhoblimpImportDetailApi.as_view(),
        name="zhoblimp_import_detail",
    ),
    path(
        "templates/import/library/<id:import_id>/",
        apis_imports.LibraryImportDetailApi.as_view(),
        name="library_import_detail",
    ),
    path("templates/<id:template_id>/", apis.TemplateDetailApi.as_view(), name="template_detail"),
    path("templates/<id:template_id>/versions/", apis.TemplateVersionListApi.as_view(), name="version_list"),
    path(
        "templates/<id:template_id>/versions/<id:number>/",
        apis.TemplateVersionDetailApi.as_view(),
        name="version_detail",
    ),
    path("phrases/", apis.PhraseListApi.as_view(), name="phrase_list"),
    path("phrases/<id:phrase_id>/", apis.PhraseDetailApi.as_view(), name="phrase_detail"),
]
