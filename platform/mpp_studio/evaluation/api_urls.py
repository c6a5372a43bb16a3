"""The model-evaluation API, mounted at /api/projects/<project_id>/ (namespace `evaluation_api`)."""

from django.urls import path

from mpp_studio.evaluation import apis

app_name = "evaluation_api"

urlpatterns = [
    path("language-models/", apis.LanguageModelListApi.as_view(), name="model_list"),
    path("language-models/series/", apis.LanguageModelSeriesApi.as_view(), name="model_series"),
    path("language-models/<id:model_id>/", apis.LanguageModelDetailApi.as_view(), name="model_detail"),
    path("token-frequencies/", apis.TokenFrequenciesListApi.as_view(), name="frequencies_list"),
    path(
        "token-frequencies/<id:table_id>/",
        apis.TokenFrequenciesDetailApi.as_view(),
        name="frequencies_detail",
    ),
    path("scoring-runs/", apis.RunListApi.as_view(), name="run_list"),
    path("scoring-runs/<id:run_id>/", apis.RunDetailApi.as_view(), name="run_detail"),
    path("scoring-runs/<id:run_id>/cancel/", apis.RunCancelApi.as_view(), name="run_cancel"),
    path("results/<id:dataset_id>/leaderboard/", apis.LeaderboardApi.as_view(), name="leaderboard"),
    path("results/<id:dataset_id>/compare/", apis.CompareApi.as_view(), name="compare"),
    path("results/<id:dataset_id>/learning-curve/", apis.LearningCurveApi.as_view(), name="learning_curve"),
    path("results/<id:dataset_id>/export/", apis.ExportApi.as_view(), name="export"),
    path("results/<id:dataset_id>/triplets/", apis.TripletReportApi.as_view(), name="triplets"),
    path(
        "results/<id:dataset_id>/configs/<id:config_id>/paradigms/",
        apis.ParadigmTableApi.as_view(),
        name="paradigm_table",
    ),
    path("results/<id:dataset_id>/configs/<id:config_id>/report/", apis.ReportApi.as_view(), name="report"),
    path("results/<id:dataset_id>/configs/<id:config_id>/items/", apis.ItemListApi.as_view(), name="items"),
]
