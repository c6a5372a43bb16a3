"""Tells the user when a job they just started could not reach the task queue (Redis down)."""

import json
from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse

from mpp_studio.jobs.queueing import QUEUE_UNREACHABLE_MESSAGE, collecting_unsent

QUEUE_HEADER = "X-MPP-Queue"


class QueueUnreachableMiddleware:
    """When a request's task messages were kept unsent (see jobs.queueing), adds the message
    QUEUE_UNREACHABLE_MESSAGE: to a JSON object answer as `queue_warning`, to a page as a
    warning shown on the next page; and the header `X-MPP-Queue: unreachable` to both.

    Sits after MessageMiddleware, so that its message is stored with the others."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Return the view's answer, with the queue warning when a message was kept."""
        with collecting_unsent() as unsent:
            response = self.get_response(request)
        if not unsent:
            return response
        response[QUEUE_HEADER] = "unreachable"
        if response.get("Content-Type", "").startswith("application/json") and not response.streaming:
            try:
                body = json.loads(response.content or b"null")
            except ValueError:
                body = None
            if isinstance(body, dict):
                body["queue_warning"] = QUEUE_UNREACHABLE_MESSAGE
                response.content = json.dumps(body).encode("utf-8")
        else:
            messages.warning(request, QUEUE_UNREACHABLE_MESSAGE, fail_silently=True)
        return response
