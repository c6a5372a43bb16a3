"""What a request gets when the database cannot be reached: a 503 that says so in words.

A lost database connection (server restarting, network cut) raises Django's `OperationalError`
or `InterfaceError` wherever the request next touches the database: in a view, in DRF's
authentication, in a middleware or while a template renders. Every such place answers the same
way, never with a traceback:

- pages: a plain 503 page (`core/database_unavailable.html`) saying the database is unreachable,
  that nothing already saved is lost, and to try again in a minute;
- the API (`/api/...`): 503 in the API's error layout, `{"errors": [{"field": "", "message": ...,
  "code": "database_unavailable"}]}` (DRF views through `core.api_errors.api_exception_handler`);
- other JSON callers (`request_errors.wants_json`: a JSON body or an Accept asking for JSON, as
  the participant pages' scripts send): 503 `{"error": ...}`;
- all of them with `Retry-After`.

A busy database is told apart from a lost one: SQLite (the embedded default) answers "database
is locked" when a write waited longer than its busy timeout for another's. That answer is a 503
too, but it says the server is busy and to try again in a few seconds (`Retry-After` 2, code
`database_busy`), never that the database cannot be reached: it is there, and the next try
succeeds. Participant pages' scripts resend on it without the participant noticing.

Nothing is retried here: the request's transaction (if any) is rolled back by the database when
the connection dies, so the user's retry is what saves. Django drops the broken connection at the
end of the request (`close_old_connections`, CONN_HEALTH_CHECKS), so the next request after the
database is back succeeds without restarting the server.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

from mpp_studio.core.request_errors import wants_json

logger = logging.getLogger(__name__)

# The errors of a database that cannot be reached (or is too busy to answer in time).
DATABASE_DOWN_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
# Seconds a client is asked to wait before trying again.
RETRY_AFTER_S = 30
MESSAGE = (
    "The database cannot be reached right now. Nothing you saved before is lost; what you just sent "
    "was not saved. Please try again in a minute."
)
CODE = "database_unavailable"
BUSY_RETRY_AFTER_S = 2
BUSY_MESSAGE = (
    "The server is busy saving other work. Nothing you saved before is lost; what you just sent was "
    "not saved. Please try again in a few seconds."
)
BUSY_CODE = "database_busy"
# SQLite's words for a lock it waited on for longer than its busy timeout (SQLITE_BUSY,
# SQLITE_LOCKED); the driver gives no error code through Django.
_BUSY_WORDS = ("database is locked", "database table is locked", "database is busy")


@dataclass(frozen=True)
class OutageAnswer:
    """What a client is told: the message, its code and when to try again."""

    title: str
    message: str
    code: str
    retry_after_s: int


def is_database_down(exc: BaseException | None) -> bool:
    """Return whether `exc` means the database could not be reached, or was too busy to answer."""
    return isinstance(exc, DATABASE_DOWN_ERRORS)


def is_database_busy(exc: BaseException | None) -> bool:
    """Return whether `exc` is a lock wait that ran out (SQLite's "database is locked"): the
    database is there and the same request succeeds a moment later."""
    return isinstance(exc, OperationalError) and any(words in str(exc).lower() for words in _BUSY_WORDS)


def outage_answer(exc: BaseException | None) -> OutageAnswer:
    """Return what to tell a client whose request failed with `exc` (see `is_database_down`)."""
    if is_database_busy(exc):
        return OutageAnswer("The server is busy", BUSY_MESSAGE, BUSY_CODE, BUSY_RETRY_AFTER_S)
    return OutageAnswer("The database is unreachable", MESSAGE, CODE, RETRY_AFTER_S)


def api_error_body(answer: OutageAnswer) -> dict[str, list[dict[str, object]]]:
    """Return the API error body of a database outage."""
    return {"errors": [{"field": "", "message": answer.message, "code": answer.code}]}


def unavailable_response(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """Return the 503 answer to a request that failed because the database is unreachable or busy."""
    answer = outage_answer(exc)
    logger.warning(
        "database %s during %s %s: %s: %s",
        "busy" if answer.code == BUSY_CODE else "unreachable",
        request.method,
        request.path,
        type(exc).__name__,
        " ".join(str(exc).split()),
    )
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(api_error_body(answer), status=503)
    elif wants_json(request):
        response = JsonResponse({"error": answer.message, "code": answer.code}, status=503)
    else:
        # Rendered without the request: the context processors would read the user, and so the
        # session, from the database that is down.
        response = HttpResponse(
            render_to_string(
                "core/database_unavailable.html",
                {"message": answer.message, "title": answer.title, "busy": answer.code == BUSY_CODE},
            ),
            status=503,
        )
    response["Retry-After"] = str(answer.retry_after_s)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """Answers a view's database-outage exception with the 503 of `unavailable_response`.

    Errors raised outside views (another middleware, a template rendered late) reach
    `core.views.server_error`, the project's handler500, which answers the same way."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """Return the 503 answer for a database outage; None lets any other error through."""
        if is_database_down(exception):
            return unavailable_response(request, exception)
        return None
