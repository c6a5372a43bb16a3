"""A real browser (Debian's Chromium, driven by Playwright) grows a vocabulary from an edited file.

An editor downloads nothing by hand here: the edited table is written by the test, as a
spreadsheet would save it. Sent with a typo, it is refused with its line and where to declare a
value; corrected, the page shows what it adds, changes and removes before anything changes; Apply
makes it the vocabulary's next version, the earlier one kept for download. Screenshots go to
`var/screenshots/lexicon-update-*.png`.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import PASSWORD
from tests.web.lexicon.test_updates import EDITED_CSV

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    # Playwright's sync API keeps an event loop running in this thread; Django refuses ORM calls
    # where a loop runs. This test's own ORM calls are plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser)
        yield page
        page.context.close()


def test_a_vocabulary_grows_from_an_edited_file(
    live_server: object,
    editor: object,
    project: object,
    vocabulary: object,
    page: Page,
    screenshots: Path,
    tmp_path: Path,
    import_worker: None,
) -> None:
    base = str(live_server.url)  # type: ignore[attr-defined]
    typo = tmp_path / "typo" / "en_nouns.csv"
    typo.parent.mkdir()
    typo.write_text(
        EDITED_CSV.replace("n10,fishes,fish,NN,pl", "n10,fishes,fish,NN,plural"), encoding="utf-8"
    )
    edited = tmp_path / "en_nouns.csv"
    edited.write_text(EDITED_CSV, encoding="utf-8")

    page.goto(f"{base}/projects/{project.pk}/vocabularies/{vocabulary.pk}/")  # type: ignore[attr-defined]
    sign_in(page, editor.get_username(), PASSWORD)  # type: ignore[attr-defined]
    expect(page.locator("tr.item")).to_have_count(12)

    # The typo: refused by the job with its line, and the page says where to declare a value.
    page.click("#update-from-file")
    page.set_input_files("#id_file", str(typo))
    page.click("button:has-text('Read the file')")
    expect(page.locator(".messages")).to_contain_text("en_nouns.csv is being read")
    expect(page.locator("#update-status")).to_have_attribute("data-status", "refused")
    assert page.locator("tr.import-problem td.line").all_inner_texts() == ["13"]
    expect(page.locator("tr.import-problem")).to_contain_text("'plural' is not one of the declared values")
    expect(page.locator("#update-undeclared")).to_contain_text("Features page")
    page.screenshot(path=screenshots / "lexicon-update-refused.png", full_page=True)
    page.click("text=send the file again")

    # The corrected file: what it would do, before anything changes.
    page.set_input_files("#id_file", str(edited))
    page.click("button:has-text('Read the file')")
    expect(page.locator("#update-status")).to_have_attribute("data-status", "ready")
    expect(page.locator("#update-summary")).to_contain_text(
        "Applying this file would add 2 items, change 1 and remove 2; 9 stay as they are."
    )
    expect(page.locator("#update-added tbody tr")).to_have_count(2)
    expect(page.locator("#update-changed td.becomes")).to_have_text("NNS")
    expect(page.locator("#update-removed tbody tr")).to_have_count(2)
    page.screenshot(path=screenshots / "lexicon-update-preview.png", full_page=True)

    # Apply: the job writes it; the page says so and offers the earlier version.
    page.click("#update-apply")
    expect(page.locator("#update-status")).to_have_attribute("data-status", "applied")
    expect(page.locator("#update-outcome")).to_contain_text("Applied. 2 items added, 1 changed, 2 removed.")
    with page.expect_download() as download:
        page.locator("#update-outcome a", has_text="table").click()
    assert "n3,dog,dog,NN,sg" in Path(download.value.path()).read_text(encoding="utf-8")
    page.screenshot(path=screenshots / "lexicon-update-applied.png", full_page=True)

    # The vocabulary holds the file's items and lists the update.
    page.click(".subtabs a:has-text('Items')")
    expect(page.locator("tr.item")).to_have_count(12)
    expect(page.locator("tr.item[data-item-id='n10'] td.form input")).to_have_value("fishes")
    expect(page.locator("tr.item[data-item-id='n3']")).to_have_count(0)
    expect(page.locator("#vocabulary-updates")).to_contain_text("Applied (2 added, 1 changed, 2 removed)")
    page.screenshot(path=screenshots / "lexicon-update-vocabulary.png", full_page=True)
