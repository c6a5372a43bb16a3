"""The studies API, mounted at /api/projects/<project_id>/studies/ (namespace `studies_api`)."""

from django.urls import path

from mpp_studio.studies import apis, views_analysis

app_name = "studies_api"

urlpatterns = [
    path("", apis.StudyListApi.as_view(), name="study_list"),
    path("<id:study_id>/", apis.StudyDetailApi.as_view(), name="study_detail"),
    path("<id:study_id>/open/", apis.StudyOpenApi.as_view(), name="study_open"),
    path("<id:study_id>/close/", apis.StudyCloseApi.as_view(), name="study_close"),
    path("<id:study_id>/preview/", apis.StudyPreviewApi.as_view(), name="study_preview"),
    path("<id:study_id>/prolific/", apis.StudyProlificApi.as_view(), name="study_prolific"),
    path("<id:study_id>/analysis/", views_analysis.StudyAnalysisApi.as_view(), name="study_analysis"),
    path("<id:study_id>/analysis/rules/", apis.StudyAnalysisRulesApi.as_view(), name="study_analysis_rules"),
    path(
        "<id:study_id>/analysis/export/<str:what>/",
        apis.StudyAnalysisExportApi.as_view(),
        name="study_analysis_export",
    ),
    path(
        "<id:study_id>/analysis/publish/",
        apis.StudyAnalysisPublishApi.as_view(),
        name="study_analysis_publish",
    ),
    path("<id:study_id>/analysis/revalidate/", apis.StudyRevalidateApi.as_view(), name="study_revalidate"),
]
