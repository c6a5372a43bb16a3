"""Dataset pages, mounted at /projects/<project_id>/ (namespace `datasets`), and the job status partial."""

from django.urls import include, path

from mpp_studio.datasets import views, views_import
from mpp_studio.datasets.views_quality import paradigm_quality_view

app_name = "datasets"

urlpatterns = [
    path("datasets/", views.dataset_list_view, name="dataset_list"),
    path("datasets/new/", views.dataset_new, name="dataset_new"),
    path("datasets/import/", views_import.dataset_import_view, name="dataset_import"),
    path("datasets/<id:dataset_id>/", views.dataset_detail, name="dataset_detail"),
    path("datasets/<id:dataset_id>/status/", views.dataset_status_partial, name="dataset_status"),
    path("datasets/<id:dataset_id>/pairs/", views.dataset_pairs, name="dataset_pairs"),
    path("datasets/<id:dataset_id>/quality/<str:uid>/", paradigm_quality_view, name="paradigm_quality"),
    path("datasets/<id:dataset_id>/pairs/<id:pair_id>/", views.pair_detail, name="pair_detail"),
    path("datasets/<id:dataset_id>/pairs/<id:pair_id>/review/", views.pair_review_view, name="pair_review"),
    path("datasets/<id:dataset_id>/pairs/write/", views.pair_write_view, name="pair_write"),
    path("datasets/<id:dataset_id>/export/", views.dataset_export, name="dataset_export"),
    path("datasets/<id:dataset_id>/cancel/", views.dataset_cancel_view, name="dataset_cancel"),
    path(
        "datasets/<id:dataset_id>/paradigms/<id:paradigm_id>/retry/",
        views.paradigm_retry_view,
        name="paradigm_retry",
    ),
    path("datasets/<id:dataset_id>/delete/", views.dataset_delete_view, name="dataset_delete"),
    # The jobs app's status partial (`datasets:job_status`): the jobs app has no URL mount of its own.
    path("", include("mpp_studio.jobs.urls")),
]
