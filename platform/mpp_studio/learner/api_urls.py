"""The learner-triplet API, mounted at /api/projects/<project_id>/learner/ (namespace `learner_api`)."""

from django.urls import path

from mpp_studio.learner import apis

app_name = "learner_api"

urlpatterns = [
    path("corpora/", apis.CorpusListApi.as_view(), name="corpus_list"),
    path("corpora/<id:corpus_id>/", apis.CorpusDetailApi.as_view(), name="corpus_detail"),
    path("corpora/<id:corpus_id>/runs/", apis.CorpusRunListApi.as_view(), name="run_list"),
    path("runs/<id:run_id>/", apis.RunDetailApi.as_view(), name="run_detail"),
    path("runs/<id:run_id>/triplets/", apis.TripletListApi.as_view(), name="triplets"),
]
