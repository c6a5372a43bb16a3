"""A researcher reads a rating study's analysis in a real browser (Debian's Chromium through
Playwright): simulated participants have answered with a difference planted in two paradigms and
none in the third; the page shows the third flagged, with its pairs to read first, publishes the
summary, and the dataset page shows it; the payment page matches pasted Prolific IDs. Screenshots
go to `var/screenshots/study-rating-*.png`."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import PASSWORD

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as launched:
        yield launched


def test_a_rating_studys_analysis_in_the_browser(
    live_server: Any,
    project: Any,
    pair_dataset: Any,
    make_study: Any,
    editor: Any,
    browser: Browser,
    screenshots: Path,
) -> None:
    from tests.web.studies.rating_participants import answer_as_simulated

    study = make_study(
        project,
        [pair_dataset],
        task="rating",
        items_per_paradigm=12,
        target_responses=10,
        name="Ratings check",
    )
    study.quota_per_list = 100
    study.save()
    answer_as_simulated(study, per_list=10, inattentive=1)
    page = new_page(browser, width=1400, height=900)
    page.goto(f"{live_server.url}/projects/{project.pk}/studies/{study.pk}/")
    sign_in(page, editor.get_username(), PASSWORD)
    expect(page.locator("dd.quota")).to_contain_text("100")
    page.screenshot(path=screenshots / "study-rating-detail.png", full_page=True)
    page.click("a.analysis-link")
    expect(page.locator("section.rating-results h3")).to_have_text("Good minus bad, per paradigm")
    flagged = page.locator("tr.rating-paradigm.flagged")
    expect(flagged).to_have_count(1)
    expect(flagged).to_have_attribute("data-paradigm", "en_anaphor")
    expect(page.locator("li.paradigm-flag[data-paradigm='en_anaphor']")).to_contain_text(
        "not reliably rated above"
    )
    page.locator("li.paradigm-flag details.pairs-to-read summary").first.click()
    expect(page.locator("li.paradigm-flag a.pair-link").first).to_be_visible()
    page.screenshot(path=screenshots / "study-rating-analysis.png", full_page=True)

    page.click("button:has-text('Publish to dataset card')")
    expect(page.locator(".messages")).to_contain_text("Validation summary published")
    page.goto(f"{live_server.url}/projects/{project.pk}/datasets/{pair_dataset.pk}/")
    section = page.locator("section.dataset-validation")
    expect(section).to_contain_text("rated these sentences one at a time on a 7-point rating scale")
    expect(section.locator("tr.validated-paradigm.below-rule")).to_have_attribute("data-uid", "en_anaphor")
    section.screenshot(path=screenshots / "study-rating-dataset-card.png")

    page.goto(f"{live_server.url}/projects/{project.pk}/studies/{study.pk}/prolific/")
    page.fill("#id_prolific_ids", "SIM000\nSIM001\nNOT-A-PARTICIPANT")
    page.click("button:has-text('Check these IDs')")
    expect(page.locator(".prolific-results h3")).to_contain_text("3 IDs: 2 completed")
    expect(page.locator("textarea.to-approve")).to_have_value("SIM000\nSIM001")
    page.screenshot(path=screenshots / "study-prolific-payments.png", full_page=True)
