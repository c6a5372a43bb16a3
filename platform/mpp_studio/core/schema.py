"""The OpenAPI schema class: every operation documents the error answers every endpoint can give.

Each API view may answer 400 (a parameter or body it cannot use), 401 (no or a wrong token), 403
(a role too low) and 404 (no such object, or a project the user is not a member of), all in the
layout of `core.api` ({"errors": [{"field", "message", ...}]}); drf-spectacular documents only the
success answer unless told, so clients (and contract tests) would meet undocumented statuses.
"""

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers

ERROR_STATUSES = {
    "400": "The request cannot be used: each error names its field (or line and position).",
    "401": "No token, or one that is not valid.",
    "403": "Your role in the project does not allow this.",
    "404": "No such object, or a project you are not a member of.",
}


class ApiErrorSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """One problem: the field it concerns and a message; engine problems add line and position."""

    field = serializers.CharField(help_text="The input the problem concerns; empty for the whole request.")
    message = serializers.CharField()


class ApiErrorsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    errors = ApiErrorSerializer(many=True)


class ProjectAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, plus the error answers of ERROR_STATUSES on every operation
    that does not document its own."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        """Return the operation's responses with the common error answers added."""
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for code, description in ERROR_STATUSES.items():
            if code not in responses:
                response = self._get_response_for_code(ApiErrorsSerializer, code, direction=direction)
                responses[code] = {**response, "description": description}
        return responses
