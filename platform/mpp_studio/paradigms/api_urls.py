"""URLs of the paradigms API (at /api/projects/<project_id>/): templates, versions, previews, phrases."""

from django.urls import path

from mpp_studio.paradigms import api, api_imports, api_zhoblimp

app_name = "paradigms_api"

urlpatterns = [
    path("templates/", api.TemplateListApi.as_view(), name="template_list"),
    path("templates/preview/", api.TemplatePreviewApi.as_view(), name="template_preview"),
    path("templates/import/zhoblimp/", api_zhoblimp.ZhoblimpImportApi.as_view(), name="zhoblimp_import"),
    path(
        "templates/import/zhoblimp/<id:import_id>/",
        api_zhoblimp.ZhoblimpImportDetailApi.as_view(),
        name="zhoblimp_import_detail",
    ),
    path(
        "templates/import/library/<id:import_id>/",
        api_imports.LibraryImportDetailApi.as_view(),
        name="library_import_detail",
    ),
    path("templates/<id:template_id>/", api.TemplateDetailApi.as_view(), name="template_detail"),
    path("templates/<id:template_id>/versions/", api.TemplateVersionListApi.as_view(), name="version_list"),
    path(
        "templates/<id:template_id>/versions/<id:number>/",
        api.TemplateVersionDetailApi.as_view(),
        name="version_detail",
    ),
    path("phrases/", api.PhraseListApi.as_view(), name="phrase_list"),
    path("phrases/<id:phrase_id>/", api.PhraseDetailApi.as_view(), name="phrase_detail"),
]
