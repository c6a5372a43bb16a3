"""The studies API, under /api/projects/<project_id>/studies/: the project's studies and one
study with its design and participants per list (read-only).

Permissions come from `ProjectRolePermission` (the default): reading needs the viewer role;
non-members get 404.
"""

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.studies import serializers as s
from mpp_studio.studies.models import Study
from mpp_studio.studies.selectors import list_status, study_get, study_list
from study.design import StudyDesign

TAG = "Validation studies"


def _project(view: APIView) -> Project:
    return view.project  # type: ignore[attr-defined]  # set by ProjectRolePermission


class StudyListApi(GenericAPIView):
    """The project's validation studies, newest first."""

    serializer_class = s.StudyOutputSerializer

    def get_queryset(self) -> QuerySet[Study]:
        return study_list(project=_project(self)).prefetch_related("datasets")

    @extend_schema(tags=[TAG], responses=s.StudyOutputSerializer(many=True))
    def get(self, request: Request, project_id: int) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(s.StudyOutputSerializer(page, many=True).data)


class StudyDetailApi(APIView):
    """One study: its settings, its design and its participants per list by status."""

    @extend_schema(tags=[TAG], responses=s.StudyDetailOutputSerializer)
    def get(self, request: Request, project_id: int, study_id: int) -> Response:
        study = study_get(project=_project(self), study_id=study_id)
        needed = StudyDesign.from_dict(study.design).participants_per_list() if study.design else 0
        study.list_rows = list_status(study=study, needed_per_list=needed)  # type: ignore[attr-defined]  # for the serializer
        return Response(s.StudyDetailOutputSerializer(study).data)
