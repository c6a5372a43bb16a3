"""What the template editor's browser tests share: a wide page, waiting for htmx, filling rows.

A test module takes the `page` fixture with `pytest_plugins = ["tests.web.paradigms.editor_browser"]`.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import launch_browser, new_page, sign_in
from tests.web.conftest import PASSWORD


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # plain synchronous code (see test_browser.py).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser, width=1440, height=1000)
        yield page
        page.context.close()


def shot(page: Page, path: Path) -> None:
    """Save a full-page screenshot from the top (the sticky save bar then sits in its place)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=path, full_page=True)


def settle(page: Page) -> None:
    """Wait until htmx has no request in flight and nothing is being swapped."""
    # A locator, not wait_for_function: a string predicate is eval'd in the page, which the
    # Content-Security-Policy (script-src 'self', no 'unsafe-eval') refuses.
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0, timeout=15_000)


def choose(page: Page, selector: str, value: str) -> None:
    page.select_option(selector, value)
    settle(page)


def type_into(page: Page, selector: str, text: str) -> None:
    """Fill a field and leave it (its change event may re-draw the form)."""
    page.fill(selector, text)
    page.press(selector, "Tab")
    settle(page)


def click(page: Page, selector: str) -> None:
    page.click(selector)
    settle(page)


def set_rule(page: Page, grammar: str, row: int, rule: str) -> None:
    choose(page, f"#{grammar}-{row}-type", rule)
    expect(page.locator(f"#row-{grammar}-{row}")).to_have_class(re.compile(rf"\btype-{rule}\b"))


def add_position(page: Page, grammar: str) -> int:
    """Add a position at the end of a grammar and return its row index."""
    count = page.locator(f"#row-{grammar}-0 ~ li.position").count() + 1
    click(page, f".grammar-{grammar} button[value='add {grammar}']")
    expect(page.locator(f"#row-{grammar}-{count}")).to_be_visible()
    return count


def feature(page: Page, grammar: str, row: int, pair: int, name: str, value: str) -> None:
    prefix = f"#{grammar}-{row}-feat-{pair}-"
    if page.locator(prefix + "name").count() == 0:
        click(page, f"#row-{grammar}-{row} button[value='add-feat {grammar} {row}']")
    choose(page, prefix + "name", name)
    type_into(page, prefix + "value", value)


def open_editor(page: Page, live_server: object, user: object, template: object) -> None:
    """Sign in as `user` and open the editor of `template`."""
    base = str(live_server.url)  # type: ignore[attr-defined]
    page.goto(base + "/accounts/login/")
    sign_in(page, user.get_username(), PASSWORD)  # type: ignore[attr-defined]
    page.goto(f"{base}/projects/{template.project_id}/templates/{template.pk}/edit/")  # type: ignore[attr-defined]
    expect(page.locator("#good-0-id")).to_be_visible()


def replace_text(page: Page, selector: str, text: str, delay: float) -> None:
    """Click into a field, select what it holds and type `text` over it, `delay` ms a key."""
    page.click(selector)
    page.keyboard.press("Control+A")
    page.keyboard.type(text, delay=delay)
