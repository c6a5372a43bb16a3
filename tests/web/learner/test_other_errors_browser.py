"""A real browser reads the yield report of a corpus of single edits (one row per correction of
a sentence): the pair whose only place was another row's error is counted under its reason in
plain words, and its cell opens the pair. Screenshot: `var/screenshots/learner-other-errors.png`.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import PASSWORD
from tests.web.learner.conftest import make_run
from tests.web.learner.test_other_errors import LEARNER, single_edits  # noqa: F401 (a fixture)
from triplets.report import ONLY_AT_OTHER_ERRORS, reason_label

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop runs in this thread
    with launch_browser() as browser:
        page = new_page(browser)
        yield page
        page.context.close()


def test_the_report_names_the_pairs_whose_only_place_was_another_error(
    live_server: object,
    editor: object,
    project: object,
    page: Page,
    screenshots: Path,
    single_edits: object,  # noqa: F811 (the fixture)
) -> None:
    run = make_run(single_edits, chunk_size=1)

    base = str(live_server.url)  # type: ignore[attr-defined]
    page.goto(f"{base}/projects/{project.pk}/learner/runs/{run.pk}/")  # type: ignore[attr-defined]
    sign_in(page, editor.get_username(), PASSWORD)  # type: ignore[attr-defined]
    label = reason_label(ONLY_AT_OTHER_ERRORS)
    cell = page.locator(f"tr.yield-row a.drill-down[title^='{ONLY_AT_OTHER_ERRORS}']")
    expect(cell).to_have_text(f"{label}: 1")
    expect(
        page.get_by_text("Made 1 triplet of 1 error type from 3 pairs (3 single-edit pairs).")
    ).to_be_visible()
    page.screenshot(path=screenshots / "learner-other-errors.png", full_page=True)

    cell.click()
    expect(page.locator("p.dropped-count")).to_contain_text("1 single-edit pair of this type")
    expect(page.locator("tr.dropped-pair td.learner-sentence")).to_have_text(LEARNER)
