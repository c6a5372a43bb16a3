"""API: import a BLiMP vocabulary.csv or a ZhoBLiMP vocabulary TSV as a project vocabulary."""

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from mpp_studio.core.api import errors_response
from mpp_studio.core.uploads import NamedUploadField, file_display_name
from mpp_studio.lexicon.api import ERRORS, ProjectApi, VocabularyOutputSerializer, language_field
from mpp_studio.lexicon.services import Upload, size_problem
from mpp_studio.lexicon.services.converted_imports import (
    SOURCE_FORMATS,
    ImportRejected,
    vocabulary_import_converted,
)


class ImportNoteSerializer(serializers.Serializer):
    file = serializers.CharField()
    where = serializers.CharField(help_text="Line, row and column, or the part of the file.")
    level = serializers.ChoiceField(choices=["skipped", "changed", "info"])
    message = serializers.CharField()


class ConvertedImportOutputSerializer(serializers.Serializer):
    vocabulary = VocabularyOutputSerializer()
    report = ImportNoteSerializer(many=True)


class VocabularyConvertedImportApi(ProjectApi):
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema_serializer(component_name="VocabularyConvertedImportInput")
    class InputSerializer(serializers.Serializer):
        file = NamedUploadField(help_text="BLiMP vocabulary.csv or a ZhoBLiMP vocabulary TSV (UTF-8).")
        format = serializers.ChoiceField(choices=list(SOURCE_FORMATS), help_text="blimp or zhoblimp.")
        name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
        language = language_field(default="")
        description = serializers.CharField(required=False, allow_blank=True, default="")

        def validate_file(self, file: object) -> Upload:
            problem = size_problem(
                getattr(file, "size", 0) or 0, file_display_name(getattr(file, "name", ""))
            )
            if problem is not None:
                raise serializers.ValidationError(problem)
            return Upload(name=getattr(file, "name", "") or "upload", data=file.read())  # type: ignore[attr-defined]

    @extend_schema(
        operation_id="vocabulary_import_converted",
        description="Convert a BLiMP or ZhoBLiMP vocabulary file and store it as a vocabulary. Answers "
        "201 with the vocabulary and the report (every row or column not kept exactly as written: file, "
        "where, level, message); a file that cannot be used stores nothing and answers 400 with every "
        "problem by line and column.",
        request={"multipart/form-data": InputSerializer},
        responses={201: ConvertedImportOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, project_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        try:
            result = vocabulary_import_converted(
                project=self.project,
                table=fields["file"],
                source_format=fields["format"],
                name=fields["name"],
                language=fields["language"],
                description=fields["description"],
            )
        except ImportRejected as exc:
            rows: list[dict[str, object]] = [
                {"field": exc.field, "file": e.file, "line": e.line, "column": e.column, "message": e.message}
                for e in exc.errors
            ]
            return errors_response(rows, status.HTTP_400_BAD_REQUEST)
        body = {
            "vocabulary": VocabularyOutputSerializer(result.vocabulary).data,
            "report": [note.to_dict() for note in result.notes],
        }
        return Response(body, status=status.HTTP_201_CREATED)
