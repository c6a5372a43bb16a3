"""The item table edited like a spreadsheet, in Chromium: typing fast from cell to cell with Tab
loses nothing, each cell saves itself, and a refused value stays in its cell with the reason."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import PASSWORD

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # see test_browser.py
    with launch_browser() as browser:
        page = new_page(browser)
        yield page
        page.context.close()


def test_cells_are_typed_into_like_a_spreadsheet(
    live_server: object, editor: object, vocabulary: Any, page: Page, screenshots: Path
) -> None:
    base = str(live_server.url)  # type: ignore[attr-defined]
    page.goto(f"{base}/projects/{vocabulary.project_id}/vocabularies/{vocabulary.pk}/")
    sign_in(page, editor.get_username(), PASSWORD)  # type: ignore[attr-defined]
    row = page.locator("tr.item[data-item-id='n1']")
    form = row.locator("td.form input")
    form.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("kitten", delay=0)
    page.keyboard.press("Tab")  # on to lemma
    page.keyboard.press("Control+A")
    page.keyboard.type("kitten", delay=0)
    page.keyboard.press("Tab")  # on to pos
    page.keyboard.press("Tab")  # on to number
    page.keyboard.press("Control+A")
    page.keyboard.type("plural", delay=0)
    page.keyboard.press("Tab")
    error = row.locator("td.feature .cell-message.error")
    expect(error).to_contain_text("not one of the declared values")
    expect(row.locator("td.feature input")).to_have_value("plural")  # kept to be corrected
    expect(form).to_have_value("kitten")
    page.screenshot(path=screenshots / "lexicon-cells.png", full_page=True)
    cat = vocabulary.items.get(item_id="n1")
    assert (cat.form, cat.lemma, cat.features) == ("kitten", "kitten", {"number": ["sg"]})

    row.locator("td.feature input").fill("pl")
    page.keyboard.press("Tab")
    expect(error).to_have_count(0)
    cat.refresh_from_db()
    assert cat.features == {"number": ["pl"]}
    # A reload shows what was stored.
    page.reload()
    expect(page.locator("tr.item[data-item-id='n1'] td.form input")).to_have_value("kitten")
