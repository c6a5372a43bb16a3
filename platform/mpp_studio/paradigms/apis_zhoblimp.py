"""API: import a ZhoBLiMP project (template JSONs, vocabulary TSV, phrase JSON) into a project.

The upload answers 202 with the import, whose job converts and stores the files in the
background (`services.zhoblimp_import`); `templates/import/zhoblimp/<id>/` shows it until then.
"""

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.core import api_input
from mpp_studio.core.uploads import NamedUploadField
from mpp_studio.jobs.serializers import JobOutputSerializer
from mpp_studio.lexicon.apis_imports import ImportNoteSerializer
from mpp_studio.paradigms.models import ZhoblimpImport
from mpp_studio.paradigms.selectors_imports import zhoblimp_import_get
from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_start


class ImportedTemplateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    uid = serializers.CharField()
    phenomenon = serializers.CharField()


class ImportedVocabularySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    reused = serializers.BooleanField(help_text="Already in the project with the same content.")


class ZhoblimpImportOutputSerializer(serializers.ModelSerializer):
    job = JobOutputSerializer(read_only=True, allow_null=True)
    files = serializers.ListField(child=serializers.CharField(), source="file_names")
    vocabulary = serializers.SerializerMethodField(help_text="Once the job is done: the vocabulary stored.")
    phrases = serializers.ListField(child=serializers.CharField())
    templates = ImportedTemplateSerializer(many=True, help_text="Once the job is done: the templates stored.")
    report = ImportNoteSerializer(many=True, help_text="Item by item: what was skipped or changed.")

    class Meta:
        model = ZhoblimpImport
        fields = (
            "id",
            "vocabulary_name",
            "files",
            "job",
            "vocabulary",
            "phrases",
            "templates",
            "report",
            "created_at",
        )
        read_only_fields = fields

    @extend_schema_field(ImportedVocabularySerializer(allow_null=True))
    def get_vocabulary(self, row: ZhoblimpImport) -> dict[str, object] | None:
        done = row.job is not None and row.job.status == row.job.Status.DONE
        if not done or row.vocabulary is None:
            return None
        return {"id": row.vocabulary.pk, "name": row.vocabulary.name, "reused": not row.vocabulary_created}


class ZhoblimpImportApi(APIView):
    """`self.project` is set by ProjectRolePermission (POST needs the editor role)."""

    project: Project
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema_serializer(component_name="ZhoblimpImportInput")
    class InputSerializer(api_input.InputSerializer):
        files = serializers.ListField(
            child=NamedUploadField(),
            allow_empty=False,
            help_text="Template .json files, one vocabulary .tsv, an optional phrase .json, or a .zip.",
        )
        vocabulary_name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")

    @extend_schema(
        operation_id="zhoblimp_import",
        description="Keep the files of a ZhoBLiMP project and answer 202 with the import, whose `job` "
        "converts and stores them in the background as a vocabulary, phrases and templates: poll "
        "`templates/import/zhoblimp/<id>/` until the job has finished. Done: what was stored and "
        "the `report` (file, where, level, message, item by item). Failed: an upload that cannot be "
        "used stores nothing; `job.message` says why and the `report` lists every item so far. The "
        "vocabulary name and each file's size are checked at once: 400 naming the field.",
        request={"multipart/form-data": InputSerializer},
        responses={202: ZhoblimpImportOutputSerializer},
    )
    def post(self, request: Request, project_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = zhoblimp_import_start(
            project=self.project,
            files=data.validated_data["files"],
            vocabulary_name=data.validated_data["vocabulary_name"],
            created_by=request.user,
        )
        return Response(ZhoblimpImportOutputSerializer(row).data, status=status.HTTP_202_ACCEPTED)


class ZhoblimpImportDetailApi(APIView):
    """One ZhoBLiMP import: its job, then what was stored and the report. `self.project` is set
    by ProjectRolePermission (GET needs the viewer role)."""

    project: Project

    @extend_schema(
        operation_id="zhoblimp_import_detail",
        description="An import started by `templates/import/zhoblimp/`. Poll it until `job.finished`.",
        responses={200: ZhoblimpImportOutputSerializer},
    )
    def get(self, request: Request, project_id: int, import_id: int) -> Response:
        row = zhoblimp_import_get(project=self.project, import_id=import_id)
        return Response(ZhoblimpImportOutputSerializer(row).data)
