"""The Content-Security-Policy: sent on every answer, kept by the pages, and watched in the
browser tests (tests/web/browser.py fails a browser test whose page logs a violation)."""

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client, override_settings
from playwright.sync_api import expect

from mpp_studio.core.security_headers import ContentSecurityPolicyMiddleware, policy_header
from tests.web.browser import _csp_violations, launch_browser, needs_chromium, new_page

PLATFORM = Path(__file__).resolve().parents[3] / "platform" / "mpp_studio"


def test_policy_header_joins_directives_in_order() -> None:
    header = policy_header({"default-src": ["'self'"], "img-src": ["'self'", "data:"]})
    assert header == "default-src 'self'; img-src 'self' data:"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/healthz",
        "/accounts/login/",
        "/no-such-page/",
        "/api/v1/schema/",
        "/static/core/site.css",
        "/static/studies/participant.js",
    ],
)
def test_every_answer_carries_the_policy(client: Client, path: str) -> None:
    """Pages, JSON, redirects, 404s and static files alike (a policy only on some answers
    protects none: a served SVG or HTML file is a page too)."""
    response = client.get(path)
    if path.startswith("/static/"):
        assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "object-src 'none'" in policy
    assert "unsafe-inline" not in policy.split("style-src-attr")[0]  # only style attributes


def test_report_only_sends_the_other_header() -> None:
    with override_settings(MPP_CSP_REPORT_ONLY=True):
        middleware = ContentSecurityPolicyMiddleware(lambda request: HttpResponse())
        response = middleware(None)  # type: ignore[arg-type]
    assert "Content-Security-Policy" not in response.headers
    assert response.headers["Content-Security-Policy-Report-Only"] == policy_header(
        settings.MPP_CONTENT_SECURITY_POLICY
    )


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
STYLE_ELEMENT = re.compile(r"<style\b", re.IGNORECASE)
JAVASCRIPT_URL = re.compile(r"javascript:", re.IGNORECASE)


def test_no_html_template_has_what_the_policy_refuses() -> None:
    """No inline <script>, on…= handler, <style> element or javascript: URL in any page
    template (json_script's data blocks are not scripts): behaviours live in static files."""
    offences = []
    templates = sorted(PLATFORM.glob("*/templates/**/*.html"))
    assert len(templates) > 50
    for template in templates:
        text = template.read_text(encoding="utf-8")
        for name, pattern in (
            ("inline script", INLINE_SCRIPT),
            ("inline handler", INLINE_HANDLER),
            ("style element", STYLE_ELEMENT),
            ("javascript: URL", JAVASCRIPT_URL),
        ):
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                offences.append(f"{template.relative_to(PLATFORM)}:{line}: {name}")
    assert not offences, "\n".join(offences)


@needs_chromium
def test_browser_tests_catch_a_page_that_breaks_the_policy() -> None:
    """The watch in tests/web/browser.py sees a refused inline script and a refused <style>."""
    with launch_browser() as browser:
        page = new_page(browser)
        policy = policy_header(settings.MPP_CONTENT_SECURITY_POLICY)

        def serve(route: Any) -> None:
            route.fulfill(
                status=200,
                headers={"Content-Type": "text/html", "Content-Security-Policy": policy},
                body="<style>p{color:red}</style><p>x</p><script>document.title='ran'</script>",
            )

        page.route("http://csp.test/", serve)
        page.goto("http://csp.test/")
        page.wait_for_timeout(200)
        assert page.title() != "ran"  # the browser refused the script
        seen = list(_csp_violations[id(browser)])
        _csp_violations[id(browser)].clear()  # expected here: do not fail the block
    assert any("inline script" in message for message in seen), seen
    assert any("inline style" in message for message in seen), seen


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_api_docs_page_works_under_the_policy(live_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Swagger UI draws the operations with its start-up script served as a file (an inline one
    would be refused, leaving an empty page); launch_browser fails on any violation."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser)
        page.goto(f"{live_server.url}/api/docs/")
        expect(page.locator(".opblock").first).to_be_visible()
        assert page.locator(".opblock").count() > 50


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_admin_pages_work_under_the_policy(live_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Django's admin (staff only) keeps to the policy too: index, a list and an add form."""
    from django.contrib.auth import get_user_model

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    get_user_model().objects.create_superuser("root", "root@example.org", "admin-pass-2048")
    with launch_browser() as browser:
        page = new_page(browser)
        page.goto(f"{live_server.url}/admin/login/?next=/admin/")
        page.fill("#id_username", "root")
        page.fill("#id_password", "admin-pass-2048")
        page.click("input[type=submit]")
        expect(page.locator("#site-name")).to_be_visible()
        for path in ("/admin/auth/user/", "/admin/auth/user/add/"):
            page.goto(live_server.url + path)
            expect(page.locator("#content")).to_be_visible()
