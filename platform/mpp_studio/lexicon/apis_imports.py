"""API: vocabulary imports, which a background job reads and stores (`services.import_jobs`).

The upload endpoints (`vocabularies/import/` here, `vocabularies/import/converted/` in
`apis_converted.py`) answer 202 with the import; `vocabularies/imports/<id>/` shows it: its job,
then the vocabulary and the converter's report, or every problem that refused the file.
"""

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from mpp_studio.core import api_input
from mpp_studio.core.api_errors import errors_response
from mpp_studio.core.uploads import NamedUploadField, file_display_name
from mpp_studio.jobs.serializers import JobOutputSerializer
from mpp_studio.lexicon.apis import (
    ERRORS,
    ProjectApi,
    VocabularyErrorSerializer,
    VocabularyOutputSerializer,
    language_field,
)
from mpp_studio.lexicon.models import VocabularyImport
from mpp_studio.lexicon.selectors_imports import vocabulary_import_get
from mpp_studio.lexicon.services import ImportRejected, size_problem
from mpp_studio.lexicon.services.import_jobs import vocabulary_import_start


class ImportNoteSerializer(serializers.Serializer):
    file = serializers.CharField()
    where = serializers.CharField(help_text="Line, row and column, or the part of the file.")
    level = serializers.ChoiceField(choices=["skipped", "changed", "info"])
    message = serializers.CharField()


class VocabularyImportOutputSerializer(serializers.ModelSerializer):
    job = JobOutputSerializer(read_only=True, allow_null=True)
    vocabulary = serializers.SerializerMethodField(
        help_text="The vocabulary made, once the job is done (null before, and for a refused file)."
    )
    report = ImportNoteSerializer(
        many=True, help_text="BLiMP and ZhoBLiMP: every row or column not kept exactly as written."
    )
    problems = VocabularyErrorSerializer(
        many=True, help_text="A refused file: every problem, with its field, file, line and column."
    )

    class Meta:
        model = VocabularyImport
        fields = (
            "id",
            "source_format",
            "file_name",
            "schema_file_name",
            "name",
            "language",
            "description",
            "job",
            "vocabulary",
            "report",
            "problems",
            "created_at",
        )
        read_only_fields = fields

    @extend_schema_field(VocabularyOutputSerializer(allow_null=True))
    def get_vocabulary(self, row: VocabularyImport) -> object:
        done = row.job is not None and row.job.status == row.job.Status.DONE
        return VocabularyOutputSerializer(row.vocabulary).data if done and row.vocabulary else None


def rejected_response(exc: ImportRejected) -> Response:
    """Return 400 listing every problem of a refused file with its field, file, line and column."""
    rows = [
        {"field": exc.field, "file": e.file, "line": e.line, "column": e.column, "message": e.message}
        for e in exc.errors
    ]
    return errors_response(rows, status.HTTP_400_BAD_REQUEST)


def upload_size_checked(file: object) -> object:
    """Return an uploaded vocabulary file unread (the import job reads it) if its size is allowed.

    Raises:
        serializers.ValidationError: the file is over MPP_VOCABULARY_UPLOAD_MAX_BYTES.
    """
    problem = size_problem(getattr(file, "size", 0) or 0, file_display_name(getattr(file, "name", "")))
    if problem is not None:
        raise serializers.ValidationError(problem)
    return file


class VocabularyUploadApi(ProjectApi):
    """Base of the APIs that start a vocabulary import from an upload (`vocabularies/import/`,
    `vocabularies/import/converted/`): a subclass gives its form (`InputSerializer`, whose
    `format` field, if any, is the source format) and its documented `post`, which calls
    `import_start`."""

    parser_classes = (MultiPartParser, FormParser)
    InputSerializer: type[api_input.InputSerializer]

    def import_start(self, request: Request) -> Response:
        """Read the form and start the import (`vocabulary_import_start`); return 202 with the
        import, or 400 with every problem of a file refused before it is read (its size), each
        with its field, file, line and column.

        Raises:
            serializers.ValidationError: a field of the form is invalid (DRF answers 400 naming it).
        """
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        try:
            row = vocabulary_import_start(
                project=self.project,
                table=fields["file"],
                schema_file=fields.get("schema_file"),
                source_format=fields.get("format", VocabularyImport.Format.OURS),
                name=fields["name"],
                language=fields["language"],
                description=fields["description"],
                created_by=request.user,
            )
        except ImportRejected as exc:
            return rejected_response(exc)
        return Response(VocabularyImportOutputSerializer(row).data, status=status.HTTP_202_ACCEPTED)


class VocabularyImportApi(VocabularyUploadApi):
    @extend_schema_serializer(component_name="VocabularyImportInput")
    class InputSerializer(api_input.InputSerializer):
        file = NamedUploadField(help_text="The CSV/TSV table (UTF-8).")
        schema_file = NamedUploadField(required=False, help_text="An optional .schema.yaml.")
        name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
        language = language_field(default="")
        description = serializers.CharField(required=False, allow_blank=True, default="")

        def validate_file(self, file: object) -> object:
            return upload_size_checked(file)

        def validate_schema_file(self, file: object) -> object:
            return upload_size_checked(file)

    @extend_schema(
        operation_id="vocabulary_import",
        description="Keep a table and optional schema file and answer 202 with the import, whose `job` "
        "reads and stores them in the background: poll `vocabularies/imports/<id>/` until the job "
        "has finished. Done: the `vocabulary`. Failed: a file with any problem stores nothing, and "
        "`problems` lists every one (field file or schema_file, file, line, column, message). The "
        "sizes, a typed name and the language are checked at once: 400 naming the field.",
        request={"multipart/form-data": InputSerializer},
        responses={202: VocabularyImportOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, project_id: int) -> Response:
        return self.import_start(request)


class VocabularyImportDetailApi(ProjectApi):
    """One vocabulary import: its job, then the vocabulary and report, or the problems."""

    @extend_schema(
        operation_id="vocabulary_import_detail",
        description="An import started by `vocabularies/import/` or `vocabularies/import/converted/`. "
        "Poll it until `job.finished`: a `done` job names the `vocabulary` (and, for converted "
        "files, the `report`); a `failed` one says why in `job.message`, lists every problem of "
        "the file in `problems`, and nothing was stored.",
        responses={200: VocabularyImportOutputSerializer, **ERRORS},
    )
    def get(self, request: Request, project_id: int, import_id: int) -> Response:
        row = vocabulary_import_get(project=self.project, import_id=import_id)
        return Response(VocabularyImportOutputSerializer(row).data)
