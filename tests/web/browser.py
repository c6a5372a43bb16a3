"""What the browser tests share: Debian's Chromium driven by Playwright, signing in, screenshots.

A test module takes the `screenshots` fixture with `pytest_plugins = ["tests.web.browser"]`.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, expect, sync_playwright

# An assertion waits up to 15 s (Playwright's default is 5 s): on a loaded 2-core machine a page
# backed by a live server thread can take longer than that to answer.
expect.set_options(timeout=15_000)

CHROMIUM = Path("/usr/bin/chromium")
# Never `playwright install`: the system Chromium, headless, with nothing that reaches the network.
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="needs Debian's Chromium at /usr/bin/chromium (scripts/setup.sh installs it as root: "
    "apt-get install chromium fonts-noto-cjk)",
)


# Console messages about the Content-Security-Policy, per browser (id), from every page of it.
_csp_violations: dict[int, list[str]] = {}


@contextmanager
def launch_browser() -> Iterator[Browser]:
    """The system Chromium, headless, closed when the block ends.

    Every page opened with `new_page` is watched for Content-Security-Policy violations (an
    inline script, handler or <style> the policy refused): the block fails when it ends if any
    page logged one, so each browser test also checks that its pages work under the policy.
    """
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        violations = _csp_violations.setdefault(id(browser), [])
        try:
            yield browser
        finally:
            browser.close()
            del _csp_violations[id(browser)]
        assert not violations, "pages broke the Content-Security-Policy:\n" + "\n".join(violations)


def new_page(browser: Browser, *, width: int = 1280, height: int = 900, **options: object) -> Page:
    """A page in a fresh context (its own cookies, so a separate person), in English.

    `options` go to `browser.new_context` as they are (e.g. accept_downloads=True).
    """
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale="en-US",
        **options,  # type: ignore[arg-type]
    )
    violations = _csp_violations.get(id(browser))
    if violations is not None:
        context.on(
            "console",
            lambda message: (
                violations.append(f"{message.location.get('url')}: {message.text}")
                if "Content Security Policy" in message.text
                else None
            ),
        )
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def sign_in(page: Page, username: str, password: str) -> None:
    """Fill in and send the sign-in form the page shows now."""
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")


def screenshot_folder() -> Path:
    """var/screenshots/ (under MPP_VAR_DIR), made when missing."""
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def screenshots() -> Path:
    return screenshot_folder()
