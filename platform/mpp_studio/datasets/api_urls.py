"""The datasets API, mounted at /api/projects/<project_id>/ (namespace `datasets_api`)."""

from django.urls import path

from mpp_studio.datasets import apis

app_name = "datasets_api"

urlpatterns = [
    path("datasets/", apis.DatasetListApi.as_view(), name="dataset_list"),
    path("datasets/import/", apis.DatasetImportApi.as_view(), name="dataset_import"),
    path("datasets/<id:dataset_id>/", apis.DatasetDetailApi.as_view(), name="dataset_detail"),
    path("datasets/<id:dataset_id>/pairs/", apis.DatasetPairListApi.as_view(), name="dataset_pairs"),
    path(
        "datasets/<id:dataset_id>/pairs/<id:pair_id>/review/",
        apis.PairReviewApi.as_view(),
        name="pair_review",
    ),
    path("datasets/<id:dataset_id>/export/", apis.DatasetExportApi.as_view(), name="dataset_export"),
    path(
        "datasets/<id:dataset_id>/paradigms/<str:uid>/quality/",
        apis.ParadigmQualityApi.as_view(),
        name="paradigm_quality",
    ),
    path("jobs/<id:job_id>/", apis.JobDetailApi.as_view(), name="job_detail"),
    path("jobs/<id:job_id>/cancel/", apis.JobCancelApi.as_view(), name="job_cancel"),
]
