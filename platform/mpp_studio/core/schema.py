"""The OpenAPI schema class: every operation documents the answers every endpoint can give, and
every request field says what the server takes.

Each API view may answer 400 (a parameter or body it cannot use), 401 (no or a wrong token), 403
(a role too low), 404 (no such object, or a project the user is not a member of) and 503 (the
database cannot be reached, with Retry-After: `core.database_outage`), all in the layout of
`core.api_errors` ({"errors": [{"field", "message", ...}]}); one that reads a body may also answer 413 (a
request over the server's cap: `core.request_errors`). drf-spectacular documents only the success
answer unless told, so clients (and contract tests) would meet undocumented statuses.

Request fields say what the server takes (`core.api_input` takes nothing else): DRF refuses a NUL
character in any text and, unless blank is allowed, text that is empty once its spaces are
trimmed, which the field's pattern says (where it has none of its own); a field's own pattern
takes the spaces DRF trims before checking it; a list that may not be empty has minItems 1.
"""

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers

ERROR_STATUSES = {
    "400": "The request cannot be used: each error names its field (or line and position).",
    "401": "No token, or one that is not valid.",
    "403": "Your role in the project does not allow this.",
    "404": "No such object, or a project you are not a member of.",
    "503": "The database cannot be reached or is busy: try again after Retry-After seconds.",
}
BODY_ERROR_STATUSES = {
    "413": "The request is larger than the server reads (its text, or its files).",
}
BODY_METHODS = ("POST", "PUT", "PATCH")
RETRY_AFTER = {
    "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait before trying again."}
}
# Text with no NUL character; and, where blank is refused, with one that is not a space.
TEXT_PATTERN = r"^[^\x00]*$"
NON_BLANK_TEXT_PATTERN = r"^[^\x00]*[^\x00\s][^\x00]*$"
BLANK_ALTERNATIVE = {"type": "string", "maxLength": 0}  # drf-spectacular's, for blank-allowed text


class ApiErrorSerializer(serializers.Serializer):
    """One problem: the field it concerns and a message; engine problems add line and position."""

    field = serializers.CharField(help_text="The input the problem concerns; empty for the whole request.")
    message = serializers.CharField()


class ApiErrorsSerializer(serializers.Serializer):
    errors = ApiErrorSerializer(  # type: ignore[assignment]  # a declared field, not Serializer.errors
        many=True
    )


def error_response(schema: AutoSchema, code: str, description: str, direction: Any) -> dict[str, Any]:
    """Return the documented error answer `code` in the API's error layout (Retry-After on 429
    and 503, which carry it)."""
    response = schema._get_response_for_code(ApiErrorsSerializer, code, direction=direction)
    response = {**response, "description": description}
    if code in ("429", "503"):
        response["headers"] = {**response.get("headers", {}), **RETRY_AFTER}
    return response


def _around_spaces(schema: dict[str, Any]) -> None:
    """Let a text field's own anchored pattern (a validator's) take spaces around the text: DRF
    trims them before the validator sees it."""
    pattern = schema.get("pattern", "")
    anchored = pattern.startswith("^") and pattern.endswith("$") and not pattern.startswith(r"^\s*(?:")
    if anchored and pattern not in (TEXT_PATTERN, NON_BLANK_TEXT_PATTERN):
        schema["pattern"] = rf"^\s*(?:{pattern[1:-1]})\s*$"


class ProjectAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, plus the error answers of ERROR_STATUSES (and, with a body,
    BODY_ERROR_STATUSES) on every operation that does not document its own, and the text
    patterns of request fields."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        """Return the operation's responses with the common error answers added."""
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        statuses = dict(ERROR_STATUSES)
        if self.method in BODY_METHODS:
            statuses.update(BODY_ERROR_STATUSES)
        for code, description in statuses.items():
            if code not in responses:
                responses[code] = error_response(self, code, description, direction)
            elif code in ("429", "503"):
                responses[code]["headers"] = {**responses[code].get("headers", {}), **RETRY_AFTER}
        return responses

    def _map_serializer_field(self, field: Any, direction: Any, bypass_extensions: bool = False) -> Any:
        """Return drf-spectacular's schema of a field; request text gets the pattern DRF applies."""
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        text = isinstance(field, serializers.CharField) and not field.read_only and direction == "request"
        plain = isinstance(schema, dict) and schema.get("type") == "string"
        own = any(isinstance(validator, RegexValidator) for validator in getattr(field, "validators", []))
        if text and plain and not own and not {"pattern", "enum", "format"} & set(schema):
            blank_ok = field.allow_blank or not field.trim_whitespace
            schema["pattern"] = TEXT_PATTERN if blank_ok else NON_BLANK_TEXT_PATTERN
        listed = isinstance(schema, dict) and schema.get("type") == "array"
        if direction == "request" and listed and getattr(field, "allow_empty", True) is False:
            schema.setdefault("minItems", 1)
        return schema

    def _insert_field_validators(self, field: Any, schema: dict[str, Any]) -> None:
        """Add the field's validators as drf-spectacular does. For text that may be blank it
        offers blank as a `oneOf` alternative, which "" fails when the pattern takes blank too:
        TEXT_PATTERN (which does) needs no alternative, and any other is an `anyOf`."""
        ours = schema.get("pattern") == TEXT_PATTERN
        if ours:
            del schema["pattern"]
        super()._insert_field_validators(field, schema)
        if ours and "pattern" not in schema and "oneOf" not in schema:
            schema["pattern"] = TEXT_PATTERN
        elif getattr(field, "trim_whitespace", False):
            _around_spaces(schema.get("oneOf", [schema])[0])
        if schema.get("oneOf", [None])[-1] == BLANK_ALTERNATIVE:
            schema["anyOf"] = schema.pop("oneOf")
