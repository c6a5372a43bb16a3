"""Answers for requests refused before a view reads them: over the project's cap on a request
(MPP_UPLOAD_MAX_REQUEST_BYTES, checked by `RequestSizeLimitMiddleware` from the Content-Length
header), or over Django's own limits (handler400 gets RequestDataTooBig, TooManyFieldsSent,
TooManyFilesSent). Each says which limit, as a page or, for the API, as the API's JSON errors.
An API address that no route takes (handler404) is the API's JSON 404, not a page.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults

from mpp_studio.core.uploads import max_request_bytes, request_limit_problem, request_too_large_message

TITLES = {400: "The request cannot be read", 413: "The request is too large"}


def wants_json(request: HttpRequest) -> bool:
    """Return whether the client should get JSON: the API, a JSON body, or a client asking for JSON."""
    accept = request.headers.get("Accept", "")
    return (
        request.path.startswith("/api/")
        or request.content_type == "application/json"
        or ("application/json" in accept and "text/html" not in accept)
    )


def request_problem_response(request: HttpRequest, status: int, message: str) -> HttpResponse:
    """Return the refusal as the API's JSON errors or as a page, with `status`."""
    if wants_json(request):
        return JsonResponse({"errors": [{"field": "", "message": message}]}, status=status)
    context = {"title": TITLES.get(status, TITLES[400]), "message": message}
    return render(request, "core/request_problem.html", context, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: name the limit a request went over; any other bad request gets a plain 400."""
    problem = request_limit_problem(exception) if exception is not None else None
    if problem is None:
        problem = (400, "The server could not read this request. Reload the page and try again.")
    return request_problem_response(request, *problem)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: under /api/, the API's JSON 404 (an address no endpoint has, or an id the
    route does not take, such as /api/projects/abc/); elsewhere Django's page."""
    if request.path.startswith("/api/"):
        message = "No such address in the API: see /api/schema/ for its endpoints."
        return JsonResponse({"errors": [{"field": "", "message": message}]}, status=404)
    return defaults.page_not_found(request, exception)


class RequestSizeLimitMiddleware:
    """Refuses a request whose Content-Length is over MPP_UPLOAD_MAX_REQUEST_BYTES with a 413,
    before anything reads (and spools to disk) its body."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = max_request_bytes()
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit and length > limit:
            return request_problem_response(request, 413, request_too_large_message(length, limit))
        return self.get_response(request)
