"""The studies API, mounted at /api/projects/<project_id>/studies/ (namespace `studies_api`)."""

from django.urls import path

from mpp_studio.studies import apis, views_analysis

app_name = "studies_api"

urlpatterns = [
    path("", apis.StudyListApi.as_view(), name="study_list"),
    path("<id:study_id>/", apis.StudyDetailApi.as_view(), name="study_detail"),
    path("<id:study_id>/analysis/", views_analysis.StudyAnalysisApi.as_view(), name="study_analysis"),
]
