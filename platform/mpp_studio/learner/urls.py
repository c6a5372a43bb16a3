"""Learner-triplet pages, mounted at /projects/<project_id>/learner/ (namespace `learner`), and
the job status partial their run pages poll."""

from django.urls import include, path

from mpp_studio.learner import views

app_name = "learner"

urlpatterns = [
    path("", views.corpus_list_view, name="corpus_list"),
    path("upload/", views.corpus_upload_view, name="corpus_upload"),
    path("corpora/<id:corpus_id>/", views.corpus_detail_view, name="corpus_detail"),
    path("corpora/<id:corpus_id>/runs/new/", views.run_new_view, name="run_new"),
    path("runs/<id:run_id>/", views.run_detail_view, name="run_detail"),
    path("runs/<id:run_id>/status/", views.run_status_partial, name="run_status"),
    path("runs/<id:run_id>/triplets/", views.triplet_list_view, name="triplets"),
    path("runs/<id:run_id>/dropped/", views.dropped_pairs_view, name="dropped"),
    path("runs/<id:run_id>/export/", views.run_export_view, name="export"),
    path("runs/<id:run_id>/report.json", views.run_report_view, name="report"),
    # The jobs app's status partial (`learner:job_status`): the jobs app has no URL mount of its own.
    path("", include("mpp_studio.jobs.urls")),
]
