"""API: a vocabulary updated from an edited file (`services.updates`).

`vocabularies/<id>/updates/` takes the edited table (and schema file) and answers 202 with the
update, whose read job compares it with the vocabulary; `updates/<id>/` shows what it would add,
change and remove (or every problem of a refused file); `apply/` queues the job that makes it the
vocabulary's next version, `discard/` drops it.
"""

from django.core.exceptions import ValidationError
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from mpp_studio.core import api_input
from mpp_studio.core.api_errors import errors_response
from mpp_studio.core.uploads import NamedUploadField
from mpp_studio.jobs.serializers import JobOutputSerializer
from mpp_studio.lexicon.apis import ERRORS, ProjectApi, VocabularyErrorSerializer, VocabularyErrorsSerializer
from mpp_studio.lexicon.apis_imports import rejected_response, upload_size_checked
from mpp_studio.lexicon.models import VocabularySnapshot, VocabularyUpdate
from mpp_studio.lexicon.selectors_updates import vocabulary_update_get
from mpp_studio.lexicon.services import ImportRejected
from mpp_studio.lexicon.services.updates import (
    vocabulary_update_apply_start,
    vocabulary_update_discard,
    vocabulary_update_start,
)

# An update in a state that refuses the request (still read, applied, another being applied).
CONFLICT = {409: VocabularyErrorsSerializer}


def conflict_response(error: ValidationError) -> Response:
    """Return 409 naming the field and saying why the update's state refuses the request."""
    rows = [
        {"field": field, "message": message}
        for field, messages in error.message_dict.items()
        for message in messages
    ]
    return errors_response(rows, status.HTTP_409_CONFLICT)


class VersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = VocabularySnapshot
        fields = ("id", "content_hash", "created_at")
        read_only_fields = fields


class VocabularyUpdateOutputSerializer(serializers.ModelSerializer):
    read_job = JobOutputSerializer(read_only=True, allow_null=True)
    apply_job = JobOutputSerializer(read_only=True, allow_null=True)
    summary = serializers.JSONField(
        help_text="Once read: the counts `added`, `changed`, `removed`, `unchanged`; `features` "
        "([name, added|removed|changed]); and the first 200 items of each kind (`added_items`, "
        "`removed_items`; `changed_items` with [column, was, becomes] cells)."
    )
    problems = VocabularyErrorSerializer(
        many=True, help_text="A refused file: every problem, with its field, file, line and column."
    )
    before = VersionSerializer(
        read_only=True, allow_null=True, help_text="Once applied: the vocabulary as it was, kept."
    )
    after = VersionSerializer(read_only=True, allow_null=True, help_text="Once applied: the new version.")

    class Meta:
        model = VocabularyUpdate
        fields = (
            "id",
            "vocabulary",
            "status",
            "file_name",
            "schema_file_name",
            "read_job",
            "apply_job",
            "summary",
            "problems",
            "before",
            "after",
            "created_at",
        )
        read_only_fields = fields


class VocabularyUpdateListApi(ProjectApi):
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema_serializer(component_name="VocabularyUpdateInput")
    class InputSerializer(api_input.InputSerializer):
        file = NamedUploadField(help_text="The vocabulary's table as exported and edited (UTF-8 CSV/TSV).")
        schema_file = NamedUploadField(
            required=False,
            help_text="Only if the features changed: without one the table is read with the features "
            "declared now.",
        )

        def validate_file(self, file: object) -> object:
            return upload_size_checked(file)

        def validate_schema_file(self, file: object) -> object:
            return upload_size_checked(file)

    @extend_schema(
        operation_id="vocabulary_update_create",
        description="Keep an edited table of the vocabulary and answer 202 with the update, whose "
        "`read_job` compares it with the vocabulary by item id. Poll `updates/<id>/`: `ready` shows "
        "in `summary` what applying would add, change and remove (nothing has changed yet); "
        "`refused` lists every problem in `problems`. 400 for a file over the size limit; 409 while "
        "another update of the vocabulary is being applied.",
        request={"multipart/form-data": InputSerializer},
        responses={202: VocabularyUpdateOutputSerializer, **ERRORS, **CONFLICT},
    )
    def post(self, request: Request, project_id: int, vocabulary_id: int) -> Response:
        vocabulary = self.vocabulary(vocabulary_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            update = vocabulary_update_start(
                vocabulary=vocabulary,
                table=data.validated_data["file"],
                schema_file=data.validated_data.get("schema_file"),
                created_by=request.user,
            )
        except ImportRejected as exc:
            return rejected_response(exc)
        except ValidationError as exc:
            return conflict_response(exc)
        return Response(VocabularyUpdateOutputSerializer(update).data, status=status.HTTP_202_ACCEPTED)


class VocabularyUpdateDetailApi(ProjectApi):
    @extend_schema(
        operation_id="vocabulary_update_detail",
        description="One update: `reading`, then `ready` (with `summary`) or `refused` (with "
        "`problems`); `applying`, `applied` (with the `before` and `after` versions) or `discarded`.",
        responses={200: VocabularyUpdateOutputSerializer, **ERRORS},
    )
    def get(self, request: Request, project_id: int, vocabulary_id: int, update_id: int) -> Response:
        update = vocabulary_update_get(vocabulary=self.vocabulary(vocabulary_id), update_id=update_id)
        return Response(VocabularyUpdateOutputSerializer(update).data)


class VocabularyUpdateApplyApi(ProjectApi):
    @extend_schema(
        operation_id="vocabulary_update_apply",
        description="Queue the job that applies a `ready` update as the vocabulary's next version "
        "(202; follow `apply_job`). The vocabulary as it is is kept as `before`. If the vocabulary "
        "was edited after the file was read, nothing changes: the job fails saying so and the "
        "update is `ready` again with a fresh `summary`. 409 if the update is not `ready` or "
        "changes nothing.",
        request=None,
        responses={202: VocabularyUpdateOutputSerializer, **ERRORS, **CONFLICT},
    )
    def post(self, request: Request, project_id: int, vocabulary_id: int, update_id: int) -> Response:
        update = vocabulary_update_get(vocabulary=self.vocabulary(vocabulary_id), update_id=update_id)
        try:
            vocabulary_update_apply_start(update=update, created_by=request.user)
        except ValidationError as exc:
            return conflict_response(exc)
        update.refresh_from_db()
        return Response(VocabularyUpdateOutputSerializer(update).data, status=status.HTTP_202_ACCEPTED)


class VocabularyUpdateDiscardApi(ProjectApi):
    @extend_schema(
        operation_id="vocabulary_update_discard",
        description="Drop an update that was not applied (`ready` or `refused`); the vocabulary stays "
        "as it is. 409 if it is being applied or was applied.",
        request=None,
        responses={200: VocabularyUpdateOutputSerializer, **ERRORS, **CONFLICT},
    )
    def post(self, request: Request, project_id: int, vocabulary_id: int, update_id: int) -> Response:
        update = vocabulary_update_get(vocabulary=self.vocabulary(vocabulary_id), update_id=update_id)
        try:
            vocabulary_update_discard(update=update)
        except ValidationError as exc:
            return conflict_response(exc)
        update.refresh_from_db()
        return Response(VocabularyUpdateOutputSerializer(update).data)
