"""API: import a ZhoBLiMP project (template JSONs, vocabulary TSV, phrase JSON) into a project."""

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.core.api import errors_response
from mpp_studio.core.uploads import NamedUploadField
from mpp_studio.lexicon.api_converted import ImportNoteSerializer
from mpp_studio.paradigms.services.template_upload import Upload, upload_size_limit
from mpp_studio.paradigms.services.zhoblimp_import import ZhoblimpUploadRejected, zhoblimp_project_import


class ImportedTemplateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    uid = serializers.CharField()
    phenomenon = serializers.CharField()


class ZhoblimpImportOutputSerializer(serializers.Serializer):
    vocabulary = serializers.DictField(help_text="{id, name}")
    phrases = serializers.ListField(child=serializers.CharField())
    templates = ImportedTemplateSerializer(many=True)
    report = ImportNoteSerializer(many=True)


class ZhoblimpImportApi(APIView):
    """`self.project` is set by ProjectRolePermission (POST needs the editor role)."""

    project: Project
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema_serializer(component_name="ZhoblimpImportInput")
    class InputSerializer(serializers.Serializer):
        files = serializers.ListField(
            child=NamedUploadField(),
            allow_empty=False,
            help_text="Template .json files, one vocabulary .tsv, an optional phrase .json, or a .zip.",
        )
        vocabulary_name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")

    @extend_schema(
        operation_id="zhoblimp_import",
        description="Convert a ZhoBLiMP project and store it as a vocabulary, phrases and templates. "
        "Answers 201 with what was stored and the report (file, where, level, message, item by item); "
        "an upload that cannot be used stores nothing and answers 400 with the reason (field `files`) "
        "followed by the report.",
        request={"multipart/form-data": InputSerializer},
        responses={201: ZhoblimpImportOutputSerializer},
    )
    def post(self, request: Request, project_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        uploads = [
            Upload(f.name, f.size, f.read() if f.size <= upload_size_limit(f.name) else None)
            for f in data.validated_data["files"]
        ]
        try:
            outcome = zhoblimp_project_import(
                project=self.project,
                uploads=uploads,
                user=request.user,
                vocabulary_name=data.validated_data["vocabulary_name"],
            )
        except ZhoblimpUploadRejected as exc:
            rows: list[dict[str, object]] = [{"field": "files", "message": exc.message}]
            rows += [{"field": "report", **note.to_dict()} for note in exc.notes]
            return errors_response(rows, status.HTTP_400_BAD_REQUEST)
        body = {
            "vocabulary": {"id": outcome.vocabulary.pk, "name": outcome.vocabulary.name},
            "phrases": outcome.phrases,
            "templates": [
                {"id": v.template.pk, "uid": v.template.uid, "phenomenon": v.template.phenomenon}
                for v in outcome.versions
            ],
            "report": [note.to_dict() for note in outcome.notes],
        }
        return Response(body, status=status.HTTP_201_CREATED)
