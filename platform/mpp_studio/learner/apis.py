"""The learner-triplet API, under /api/projects/<project_id>/learner/: corpora (list, detail
with the read report), their runs (list, create = queue), a run with its yield report, and its
triplets (filtered by `type`, `l1`, `cefr`, paginated).

Permissions come from `ProjectRolePermission` (the default): reading needs the viewer role,
creating a run the editor role; non-members get 404.
"""

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import Pair
from mpp_studio.learner import serializers as s
from mpp_studio.learner.models import LearnerCorpus, TripletRun
from mpp_studio.learner.selectors import (
    corpus_get,
    corpus_list,
    run_get,
    run_list,
    triplet_filter,
    triplet_list,
    triplet_pages,
)
from mpp_studio.learner.services import run_create

TAG = "Learner triplets"
FILTERS = [
    OpenApiParameter("type", str, description="An ERRANT error type, e.g. R:VERB:SVA."),
    OpenApiParameter("l1", str, description="The learners' first language, as in the metadata."),
    OpenApiParameter("cefr", str, description="A CEFR level, e.g. B1."),
]


def _project(view: APIView) -> Project:
    return view.project  # type: ignore[attr-defined]  # set by ProjectRolePermission


class CorpusListApi(GenericAPIView):
    """The project's learner corpora, newest first (upload them on the Learner corpora page)."""

    serializer_class = s.LearnerCorpusOutputSerializer

    def get_queryset(self) -> QuerySet[LearnerCorpus]:
        return corpus_list(project=_project(self))

    @extend_schema(tags=[TAG], responses=s.LearnerCorpusOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(s.LearnerCorpusOutputSerializer(page, many=True).data)


class CorpusDetailApi(APIView):
    """One corpus, with every issue the readers reported."""

    @extend_schema(tags=[TAG], responses=s.LearnerCorpusDetailOutputSerializer)
    def get(self, request: Request, project_id: int, corpus_id: int) -> Response:
        corpus = corpus_get(project=_project(self), corpus_id=corpus_id)
        return Response(s.LearnerCorpusDetailOutputSerializer(corpus).data)


class CorpusRunListApi(GenericAPIView):
    """A corpus's triplet runs, newest first; creating one queues its chunks (202)."""

    serializer_class = s.TripletRunOutputSerializer

    def get_queryset(self) -> QuerySet[TripletRun]:
        corpus = corpus_get(project=_project(self), corpus_id=int(self.kwargs["corpus_id"]))
        return run_list(corpus=corpus)

    @extend_schema(tags=[TAG], responses=s.TripletRunOutputSerializer(many=True))
    def get(self, request: Request, project_id: int, corpus_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(s.TripletRunOutputSerializer(page, many=True).data)

    @extend_schema(
        tags=[TAG],
        request=s.TripletRunCreateInputSerializer,
        responses={202: s.TripletRunDetailOutputSerializer},
        description="Makes triplets from the corpus in tasks of `chunk_size` pairs on the cpu queue; "
        "the triplets are stored as a read-only dataset (`dataset`). Follow `job` for progress.",
    )
    def post(self, request: Request, project_id: int, corpus_id: int) -> Response:
        corpus = corpus_get(project=_project(self), corpus_id=corpus_id)
        data = s.TripletRunCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        run = run_create(corpus=corpus, created_by=request.user, **data.validated_data)
        return Response(s.TripletRunDetailOutputSerializer(run).data, status=status.HTTP_202_ACCEPTED)


class RunDetailApi(APIView):
    """One triplet run, with its job and merged yield report."""

    @extend_schema(tags=[TAG], responses=s.TripletRunDetailOutputSerializer)
    def get(self, request: Request, project_id: int, run_id: int) -> Response:
        run = run_get(project=_project(self), run_id=run_id)
        return Response(s.TripletRunDetailOutputSerializer(run).data)


class TripletListApi(GenericAPIView):
    """A run's triplets in corpus order, filtered by ERRANT type, L1 and CEFR level."""

    serializer_class = s.TripletOutputSerializer

    def get_queryset(self) -> QuerySet[Pair]:
        run = run_get(project=_project(self), run_id=int(self.kwargs["run_id"]))
        return triplet_list(run=run, chosen=triplet_filter(self.request.query_params))

    @extend_schema(tags=[TAG], parameters=FILTERS, responses=s.TripletOutputSerializer(many=True))
    def get(self, request: Request, project_id: int, run_id: int) -> Response:
        run = run_get(project=_project(self), run_id=run_id)
        triplets = triplet_pages(run=run, chosen=triplet_filter(request.query_params))
        page = self.paginate_queryset(triplets)  # type: ignore[arg-type]  # counted from the paradigms
        return self.get_paginated_response(s.TripletOutputSerializer(page, many=True).data)
