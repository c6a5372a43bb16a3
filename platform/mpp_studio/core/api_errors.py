"""API error format: every error is JSON that names the field, position or line it concerns.

Layout: {"errors": [{"field": "seed", "message": "..."}, ...]}; engine problems add "code",
"line", "grammar" and "position". Unexpected exceptions are logged and answered with a 500 JSON
body that says so, never an HTML page or a traceback.
"""

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler

from generator.errors import TemplateError
from mpp_studio.core.database_outage import api_error_body, is_database_down, outage_answer
from mpp_studio.core.uploads import request_limit_problem
from vocab.errors import VocabularyError

logger = logging.getLogger(__name__)


def _flatten(detail: object, field: str = "") -> list[dict[str, object]]:
    if isinstance(detail, Mapping):
        out: list[dict[str, object]] = []
        for key, value in detail.items():
            name = str(key) if key != "non_field_errors" else ""
            out += _flatten(value, f"{field}.{name}" if field and name else name or field)
        return out
    if isinstance(detail, Sequence) and not isinstance(detail, str):
        out = []
        for index, value in enumerate(detail):
            nested = isinstance(value, Mapping)
            out += _flatten(value, f"{field}[{index}]" if nested else field)
        return out
    return [{"field": field, "message": str(detail)}]


def errors_response(errors: Sequence[Mapping[str, object]], status_code: int) -> Response:
    """Return the API's error body with the given status."""
    return Response({"errors": errors}, status=status_code)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Return every API error in the project's JSON layout (DRF's EXCEPTION_HANDLER); a database
    that cannot be reached is a 503 that says so (core.database_outage)."""
    if is_database_down(exc):
        answer = outage_answer(exc)
        logger.warning("database %s in an API view: %s", answer.code, " ".join(str(exc).split()))
        response = Response(api_error_body(answer), status=status.HTTP_503_SERVICE_UNAVAILABLE)
        response["Retry-After"] = str(answer.retry_after_s)
        return response
    over_limit = request_limit_problem(exc)  # a request over Django's upload limits: 413/400
    if over_limit is not None:
        return errors_response([{"field": "", "message": over_limit[1]}], over_limit[0])
    if isinstance(exc, TemplateError):
        return errors_response([{"field": "source_text", **p.to_dict()} for p in exc.problems], 400)
    if isinstance(exc, VocabularyError):
        rows = [
            {"field": "file", "file": e.file, "line": e.line, "column": e.column, "message": e.message}
            for e in exc.errors
        ]
        return errors_response(rows, 400)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
        return errors_response(_flatten(detail), 400)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    handled = exception_handler(exc, context)
    if handled is not None:
        handled.data = {
            "errors": _flatten(
                handled.data.get("detail", handled.data)
                if isinstance(handled.data, dict) and "detail" in handled.data
                else handled.data
            )
        }
        return handled
    logger.exception("unexpected API error")
    return errors_response(
        [{"field": "", "message": "Something went wrong on the server; the error was logged."}],
        status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


class QueryFormatNegotiation(BaseContentNegotiation):
    """Answers in JSON whatever `?format=` says: on export endpoints it names the file's
    format, not a renderer (DRF would otherwise answer 404 for an unknown renderer)."""

    def select_parser(self, request: Request, parsers: Iterable[BaseParser]) -> BaseParser | None:
        return next(iter(parsers), None)

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))  # a view has at least one renderer
        return renderer, str(renderer.media_type)

