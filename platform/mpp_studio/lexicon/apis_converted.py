"""API: import a BLiMP vocabulary.csv or a ZhoBLiMP vocabulary TSV as a project vocabulary (a job)."""

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from mpp_studio.core import api_input
from mpp_studio.core.uploads import NamedUploadField
from mpp_studio.lexicon.apis import ERRORS, language_field
from mpp_studio.lexicon.apis_imports import (
    VocabularyImportOutputSerializer,
    VocabularyUploadApi,
    upload_size_checked,
)
from mpp_studio.lexicon.services.converted_imports import SOURCE_FORMATS


class VocabularyConvertedImportApi(VocabularyUploadApi):
    @extend_schema_serializer(component_name="VocabularyConvertedImportInput")
    class InputSerializer(api_input.InputSerializer):
        file = NamedUploadField(help_text="BLiMP vocabulary.csv or a ZhoBLiMP vocabulary TSV (UTF-8).")
        format = serializers.ChoiceField(choices=list(SOURCE_FORMATS), help_text="blimp or zhoblimp.")
        name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
        language = language_field(default="")
        description = serializers.CharField(required=False, allow_blank=True, default="")

        def validate_file(self, file: object) -> object:
            return upload_size_checked(file)

    @extend_schema(
        operation_id="vocabulary_import_converted",
        description="Keep a BLiMP or ZhoBLiMP vocabulary file and answer 202 with the import, whose "
        "`job` converts and stores it in the background: poll `vocabularies/imports/<id>/` until "
        "the job has finished. Done: the `vocabulary` and the `report` (every row or column not kept "
        "exactly as written: file, where, level, message). Failed: a file that cannot be used "
        "stores nothing, and `problems` lists each problem by line and column. The size, a typed "
        "name (or the file's stem) and the language are checked at once: 400 naming the field.",
        request={"multipart/form-data": InputSerializer},
        responses={202: VocabularyImportOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, project_id: int) -> Response:
        return self.import_start(request)
