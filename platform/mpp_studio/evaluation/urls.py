"""Scoring pages, mounted at /projects/<project_id>/scoring/ (namespace `evaluation`), and the
job status partial their run pages poll."""

from django.urls import include, path

from mpp_studio.evaluation import views, views_plausibility, views_results

app_name = "evaluation"

urlpatterns = [
    path("", views.run_list_view, name="run_list"),
    path("models/", views.model_list_view, name="model_list"),
    path("models/series/", views.series_register_view, name="series_register"),
    path("models/<id:model_id>/delete/", views.model_delete_view, name="model_delete"),
    path("models/frequencies/", views.frequencies_create_view, name="frequencies_create"),
    path(
        "models/frequencies/<id:table_id>/delete/", views.frequencies_delete_view, name="frequencies_delete"
    ),
    path("runs/new/", views.run_new_view, name="run_new"),
    path("runs/<id:run_id>/", views.run_detail_view, name="run_detail"),
    path("runs/<id:run_id>/status/", views.run_status_partial, name="run_status"),
    path("runs/<id:run_id>/cancel/", views.run_cancel_view, name="run_cancel"),
    path("runs/<id:run_id>/delete/", views.run_delete_view, name="run_delete"),
    path("results/<id:dataset_id>/", views_results.results_view, name="results"),
    path("results/<id:dataset_id>/compare/", views_results.compare_view, name="compare"),
    path("results/<id:dataset_id>/learning-curve/", views_results.curve_view, name="curve"),
    path("results/<id:dataset_id>/export/", views_results.export_view, name="export"),
    path("results/<id:dataset_id>/configs/<id:config_id>/", views_results.config_report_view, name="config"),
    path("results/<id:dataset_id>/configs/<id:config_id>/items/", views_results.items_view, name="items"),
    path(
        "results/<id:dataset_id>/plausibility/<str:uid>/",
        views_plausibility.plausibility_view,
        name="plausibility",
    ),
    # The jobs app's status partial (`evaluation:job_status`): the jobs app has no URL mount of its own.
    path("", include("mpp_studio.jobs.urls")),
]
