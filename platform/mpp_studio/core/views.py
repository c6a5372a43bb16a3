"""Views with no feature area: the health check and the server-error handler."""

import sys

from django.db import Error, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from mpp_studio.core.database_outage import RETRY_AFTER_S, is_database_down, unavailable_response


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Return 200 and {"status": "ok", "db": "ok"} when the database answers, else 503 with
    the reason in "db" ("error: <the driver's message on one line>") and Retry-After."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Error as exc:  # OperationalError, and InterfaceError for a connection already closed
        response = JsonResponse({"status": "error", "db": f"error: {' '.join(str(exc).split())}"}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_S)
        return response
    return JsonResponse({"status": "ok", "db": "ok"})


def server_error(request: HttpRequest) -> HttpResponse:
    """Return the answer to an unhandled error (the project's handler500): the database-outage
    503 when the database could not be reached, else Django's plain 500 page."""
    exc = sys.exc_info()[1]  # handler500 runs inside the `except` that caught the error
    if exc is not None and is_database_down(exc):
        return unavailable_response(request, exc)
    return defaults.server_error(request)
