"""The Content-Security-Policy header, built once from settings and sent on every response.

Django 5.2 has no CSP support of its own (it arrives in 6.0); the policy here is one fixed header,
so a small middleware is all it takes. Pages carry no inline scripts, event handlers or <style>
blocks (tests/web/browser.py fails any browser test whose page logs a CSP violation).
"""

from collections.abc import Callable, Mapping, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponse


def policy_header(directives: Mapping[str, Sequence[str]]) -> str:
    """Return the policy as a header value: `name source source; name source`."""
    return "; ".join(" ".join([name, *sources]) for name, sources in directives.items())


class ContentSecurityPolicyMiddleware:
    """Adds the policy of MPP_CONTENT_SECURITY_POLICY to each response that has none yet.

    With MPP_CSP_REPORT_ONLY the browser only reports what the policy would block (for trying a
    stricter policy on a running site without breaking pages).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.value = policy_header(settings.MPP_CONTENT_SECURITY_POLICY)
        self.name = (
            "Content-Security-Policy-Report-Only"
            if getattr(settings, "MPP_CSP_REPORT_ONLY", False)
            else "Content-Security-Policy"
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.value and self.name not in response.headers:
            response.headers[self.name] = self.value
        return response
