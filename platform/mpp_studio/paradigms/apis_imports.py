"""API: a library import into a project, which a background job runs (`services.library_into_project`).

`POST /api/library/import/` (in `api.py`) answers 202 with the import; this module's endpoint,
`/api/projects/<id>/templates/import/library/<import id>/`, shows it: its job and what happened
to each chosen paradigm so far.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.jobs.serializers import JobOutputSerializer
from mpp_studio.paradigms.selectors_imports import library_import_view
from mpp_studio.paradigms.serializers import LibraryImportOutputSerializer


class LibraryImportJobOutputSerializer(LibraryImportOutputSerializer):
    id = serializers.IntegerField(source="row.pk")
    job = JobOutputSerializer(source="row.job", read_only=True, allow_null=True)


class LibraryImportDetailApi(APIView):
    """One library import: its job and each paradigm's outcome so far. `self.project` is set by
    ProjectRolePermission (GET needs the viewer role)."""

    project: Project

    @extend_schema(
        operation_id="library_import_detail",
        description="An import started by `POST /api/library/import/`. `results` grows as the job "
        "imports one paradigm after another (each whole or not at all, with the reason); poll until "
        "`job.finished`.",
        responses={200: LibraryImportJobOutputSerializer},
    )
    def get(self, request: Request, project_id: int, import_id: int) -> Response:
        report = library_import_view(project=self.project, import_id=import_id)
        return Response(LibraryImportJobOutputSerializer(report).data)
