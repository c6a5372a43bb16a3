"""The vocabulary API under /api/projects/<project_id>/: vocabularies, their items and export
(imports, which jobs read: `apis_imports.py`, `apis_converted.py`).

Viewers read; editors write (the default `ProjectRolePermission` loads `self.project`). Every
lookup is scoped to the project. Errors are `{"errors": [{"field": ..., "message": ...}]}`.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.http import HttpResponse
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.core import api_input
from mpp_studio.core.api_errors import errors_response
from mpp_studio.core.pagination import StrictPageNumberPagination
from mpp_studio.lexicon.engine import schema_from_json
from mpp_studio.lexicon.models import Vocabulary, VocabularyItem
from mpp_studio.lexicon.selectors import (
    EXPORT_FORMATS,
    item_filter_clean,
    vocabulary_export,
    vocabulary_get,
    vocabulary_item_get,
    vocabulary_items_filter,
    vocabulary_list_for_project,
)
from mpp_studio.lexicon.services import (
    schema_from_input,
    vocabulary_create,
    vocabulary_delete,
    vocabulary_item_create,
    vocabulary_item_delete,
    vocabulary_item_update,
    vocabulary_update,
)
from mpp_studio.lexicon.validation import (
    LANGUAGE_PATTERN,
    ONE_LINE_NON_BLANK_PATTERN,
    ONE_LINE_PATTERN,
    VOCABULARY_NAME_PATTERN,
)
from vocab.errors import VocabularyError

# Query parameters of the item list that are not feature filters.
ITEM_LIST_PARAMS = ("search", "pos", "page", "format")
FEATURE_PARAM_PREFIX = "feature."


class VocabularyErrorSerializer(serializers.Serializer):
    field = serializers.CharField(
        help_text="The input the problem concerns: a field, `file`, `features.<name>`."
    )
    message = serializers.CharField()
    file = serializers.CharField(required=False)
    line = serializers.IntegerField(required=False, allow_null=True)
    column = serializers.CharField(required=False, allow_null=True)


class VocabularyErrorsSerializer(serializers.Serializer):
    errors = VocabularyErrorSerializer(  # type: ignore[assignment]  # a declared field, not Serializer.errors
        many=True
    )


PAGE_PARAMETER = OpenApiParameter("page", int, description="A page number (50 results a page).")
ERRORS = {
    400: VocabularyErrorsSerializer,
    403: VocabularyErrorsSerializer,
    404: VocabularyErrorsSerializer,
}


class VocabularyOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    language = serializers.CharField()
    description = serializers.CharField()
    schema = serializers.JSONField(help_text="The feature schema: {multi_separator, features: {name: spec}}.")
    features = serializers.SerializerMethodField()
    item_count = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_features(self, vocabulary: Vocabulary) -> list[str]:
        return list(schema_from_json(vocabulary.schema).features)

    def get_item_count(self, vocabulary: Vocabulary) -> int:
        count = getattr(vocabulary, "item_count", None)
        return count if count is not None else vocabulary.items.count()


class VocabularyItemOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    item_id = serializers.CharField()
    form = serializers.CharField()
    lemma = serializers.CharField()
    pos = serializers.CharField()
    features = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))


class PaginatedVocabulariesSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = VocabularyOutputSerializer(many=True)


class PaginatedVocabularyItemsSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = VocabularyItemOutputSerializer(many=True)


class ProjectApi(APIView):
    """An API view of one project; `self.project` is set by ProjectRolePermission."""

    project: Project

    def vocabulary(self, vocabulary_id: int) -> Vocabulary:
        return vocabulary_get(project=self.project, vocabulary_id=vocabulary_id)


def _text(pattern: str, **kwargs: Any) -> serializers.CharField:
    """Return a text field whose pattern (lexicon.validation's, of what the services store) the
    schema shows and the field checks."""
    message = "Keep it on one line, without control characters" + (" or '/'." if "/" in pattern else ".")
    if pattern == LANGUAGE_PATTERN:  # language_check's words
        message = "'%(value)s' is not a language code; use a code such as en, zh or zh-Hans"
    return serializers.CharField(validators=[RegexValidator(pattern, message=message)], **kwargs)


def language_field(**kwargs: Any) -> serializers.CharField:
    """Return the field of a vocabulary's language code (blank: not given), as the services'
    language_check reads it; the vocabulary imports take it too."""
    return _text(LANGUAGE_PATTERN, max_length=35, required=False, allow_blank=True, **kwargs)


def _features_field() -> serializers.DictField:
    return serializers.DictField(
        child=serializers.JSONField(allow_null=True),
        required=False,
        help_text="Feature name -> a value, several values joined by the schema's separator, a list of "
        "values, or null/blank for 'not applicable'.",
    )


class VocabularyListApi(ProjectApi):
    @extend_schema_serializer(component_name="VocabularyCreateInput")
    class InputSerializer(api_input.InputSerializer):
        name = _text(VOCABULARY_NAME_PATTERN, max_length=100)
        language = language_field(default="")
        description = serializers.CharField(required=False, allow_blank=True, default="")
        schema = serializers.DictField(
            required=False,
            help_text="{multi_separator, features: {name: {type, values, multi, description}}}",
        )

    @extend_schema(
        operation_id="vocabulary_list",
        parameters=[PAGE_PARAMETER],
        responses={200: PaginatedVocabulariesSerializer, **ERRORS},
    )
    def get(self, request: Request, project_id: int) -> Response:
        paginator = StrictPageNumberPagination()
        page = paginator.paginate_queryset(
            vocabulary_list_for_project(project=self.project), request, view=self
        )
        return paginator.get_paginated_response(VocabularyOutputSerializer(page, many=True).data)

    @extend_schema(
        operation_id="vocabulary_create",
        request=InputSerializer,
        responses={201: VocabularyOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, project_id: int) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        if "schema" in fields:
            fields["schema"] = schema_from_input(fields["schema"])
        vocabulary = vocabulary_create(project=self.project, **fields)
        return Response(VocabularyOutputSerializer(vocabulary).data, status=status.HTTP_201_CREATED)


class VocabularyDetailApi(ProjectApi):
    @extend_schema_serializer(component_name="VocabularyUpdateInput")
    class InputSerializer(api_input.InputSerializer):
        name = _text(VOCABULARY_NAME_PATTERN, max_length=100, required=False)
        language = language_field()
        description = serializers.CharField(required=False, allow_blank=True)
        schema = serializers.DictField(
            required=False, help_text="A new schema; refused while items hold values it does not allow."
        )

    @extend_schema(operation_id="vocabulary_get", responses={200: VocabularyOutputSerializer, **ERRORS})
    def get(self, request: Request, project_id: int, vocabulary_id: int) -> Response:
        return Response(VocabularyOutputSerializer(self.vocabulary(vocabulary_id)).data)

    @extend_schema(
        operation_id="vocabulary_update",
        request=InputSerializer,
        responses={200: VocabularyOutputSerializer, **ERRORS},
    )
    def patch(self, request: Request, project_id: int, vocabulary_id: int) -> Response:
        vocabulary = self.vocabulary(vocabulary_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        if "schema" in fields:
            fields["schema"] = schema_from_input(fields["schema"])
        vocabulary_update(vocabulary=vocabulary, **fields)
        return Response(VocabularyOutputSerializer(self.vocabulary(vocabulary_id)).data)

    @extend_schema(operation_id="vocabulary_delete", responses={204: None, **ERRORS})
    def delete(self, request: Request, project_id: int, vocabulary_id: int) -> Response:
        vocabulary_delete(vocabulary=self.vocabulary(vocabulary_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


def _feature_filters(query: Mapping[str, str]) -> dict[str, str]:
    """Return feature -> value from the query: `?number=pl` or `?feature.number=pl`."""
    return {
        key.removeprefix(FEATURE_PARAM_PREFIX): value
        for key, value in query.items()
        if key not in ITEM_LIST_PARAMS or key.startswith(FEATURE_PARAM_PREFIX)
    }


class ItemListApi(ProjectApi):
    @extend_schema_serializer(component_name="VocabularyItemCreateInput")
    class InputSerializer(api_input.InputSerializer):
        form = _text(ONE_LINE_NON_BLANK_PATTERN, max_length=200)
        lemma = _text(ONE_LINE_PATTERN, max_length=200, required=False, allow_blank=True, default="")
        pos = _text(ONE_LINE_PATTERN, max_length=50, required=False, allow_blank=True, default="")
        item_id = _text(
            ONE_LINE_PATTERN,
            max_length=200,
            required=False,
            allow_blank=True,
            default="",
            help_text="Blank: the form (or form#2, …).",
        )
        features = _features_field()

    @extend_schema(
        operation_id="vocabulary_item_list",
        description="The items, 50 a page. Filter by any feature with `?<feature>=<value>`, e.g. "
        "`?number=pl` (or `?feature.number=pl` for a feature named like another parameter); "
        "all filters apply together.",
        parameters=[
            OpenApiParameter("search", str, description="Part of the form, lemma or id."),
            OpenApiParameter("pos", str, description="Exactly this part of speech."),
            PAGE_PARAMETER,
        ],
        responses={200: PaginatedVocabularyItemsSerializer, **ERRORS},
    )
    def get(self, request: Request, project_id: int, vocabulary_id: int) -> Response:
        vocabulary = self.vocabulary(vocabulary_id)
        item_filter = item_filter_clean(
            schema=schema_from_json(vocabulary.schema),
            search=request.query_params.get("search", ""),
            pos=request.query_params.get("pos", ""),
            features=_feature_filters(request.query_params),
        )
        items = vocabulary_items_filter(vocabulary=vocabulary, item_filter=item_filter)
        paginator = StrictPageNumberPagination()
        page = paginator.paginate_queryset(
            items, request, view=self  # type: ignore[arg-type]  # DRF pages lists too
        )
        return paginator.get_paginated_response(VocabularyItemOutputSerializer(page, many=True).data)

    @extend_schema(
        operation_id="vocabulary_item_create",
        request=InputSerializer,
        responses={201: VocabularyItemOutputSerializer, **ERRORS},
    )
    def post(self, request: Request, project_id: int, vocabulary_id: int) -> Response:
        vocabulary = self.vocabulary(vocabulary_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        item = vocabulary_item_create(vocabulary=vocabulary, **data.validated_data)
        return Response(VocabularyItemOutputSerializer(item).data, status=status.HTTP_201_CREATED)


class ItemDetailApi(ProjectApi):
    @extend_schema_serializer(component_name="VocabularyItemUpdateInput")
    class InputSerializer(api_input.InputSerializer):
        form = _text(ONE_LINE_NON_BLANK_PATTERN, max_length=200, required=False)
        lemma = _text(ONE_LINE_PATTERN, max_length=200, required=False, allow_blank=True)
        pos = _text(ONE_LINE_PATTERN, max_length=50, required=False, allow_blank=True)
        item_id = _text(ONE_LINE_PATTERN, max_length=200, required=False, allow_blank=True)
        features = _features_field()

    def item(self, vocabulary_id: int, item_pk: int) -> VocabularyItem:
        return vocabulary_item_get(vocabulary=self.vocabulary(vocabulary_id), item_pk=item_pk)

    @extend_schema(
        operation_id="vocabulary_item_get", responses={200: VocabularyItemOutputSerializer, **ERRORS}
    )
    def get(self, request: Request, project_id: int, vocabulary_id: int, item_pk: int) -> Response:
        return Response(VocabularyItemOutputSerializer(self.item(vocabulary_id, item_pk)).data)

    @extend_schema(
        operation_id="vocabulary_item_update",
        description="Change the fields given. `features` changes only the features it names "
        "(null or blank removes a value).",
        request=InputSerializer,
        responses={200: VocabularyItemOutputSerializer, **ERRORS},
    )
    def patch(self, request: Request, project_id: int, vocabulary_id: int, item_pk: int) -> Response:
        item = self.item(vocabulary_id, item_pk)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        item = vocabulary_item_update(item=item, replace_features=False, **data.validated_data)
        return Response(VocabularyItemOutputSerializer(item).data)

    @extend_schema(operation_id="vocabulary_item_delete", responses={204: None, **ERRORS})
    def delete(self, request: Request, project_id: int, vocabulary_id: int, item_pk: int) -> Response:
        vocabulary_item_delete(item=self.item(vocabulary_id, item_pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class _FormatIgnoringNegotiation(DefaultContentNegotiation):
    """Answers in JSON whatever `?format=` says: here the parameter picks the file, not a renderer."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))  # a view has at least one renderer
        return renderer, renderer.media_type


class VocabularyExportApi(ProjectApi):
    content_negotiation_class = _FormatIgnoringNegotiation

    @extend_schema(
        operation_id="vocabulary_export",
        description="The vocabulary as a CSV or TSV table, or its .schema.yaml, written by the engine "
        "(importing the table with the schema gives the same vocabulary version).",
        parameters=[OpenApiParameter("format", str, enum=list(EXPORT_FORMATS), default="csv")],
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR),
            (200, "text/tab-separated-values"): OpenApiResponse(OpenApiTypes.STR),
            # A YAML document is described by what it parses to: a mapping (language, features).
            (200, "application/yaml"): OpenApiResponse(OpenApiTypes.OBJECT),
            **ERRORS,
        },
    )
    def get(self, request: Request, project_id: int, vocabulary_id: int) -> HttpResponse | Response:
        vocabulary = self.vocabulary(vocabulary_id)
        fmt = request.query_params.get("format", "csv")
        if fmt not in EXPORT_FORMATS:
            raise ValidationError(
                {"format": f"'{fmt}' is not an export format; use one of: {', '.join(EXPORT_FORMATS)}"}
            )
        try:
            export = vocabulary_export(vocabulary=vocabulary, fmt=fmt)
        except VocabularyError as exc:
            rows: list[dict[str, object]] = [
                {"field": "", "line": e.line, "column": e.column, "message": e.message} for e in exc.errors
            ]
            return errors_response(rows, status.HTTP_400_BAD_REQUEST)
        response = HttpResponse(export.text, content_type=export.content_type)
        disposition = content_disposition_header(as_attachment=True, filename=export.file_name)
        assert disposition is not None  # None only for an inline response without a file name
        response["Content-Disposition"] = disposition
        return response
