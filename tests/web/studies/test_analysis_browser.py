"""A researcher opens the analysis of a study in which one participant failed a catch trial:
they see that participant excluded in the flow, the paradigm below the threshold flagged, and
follow the flagged word's link to the template position that produced it; then set a speed
rule and see it applied. Screenshot: `var/screenshots/study-analysis.png`.
"""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import PASSWORD
from tests.web.studies.analysis_helpers import FLAGGED, SUBJ_LINE, attach_template, build, shared_word

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_researcher_sees_the_exclusion_and_the_flagged_paradigm(
    live_server: Any,
    editor: Any,
    project: Any,
    pair_dataset: Any,
    make_study: Any,
    screenshots: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mpp_studio.studies.report import participant_key

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    study = make_study(project, [pair_dataset])
    version = attach_template(project, pair_dataset)
    built = build(study)
    position, word = shared_word(study)
    failer = participant_key(built.catch_failer.token_id)
    with launch_browser() as browser:
        page = new_page(browser)
        page.goto(f"{live_server.url}/projects/{project.pk}/studies/{study.pk}/")
        sign_in(page, editor.get_username(), PASSWORD)
        page.click("a.analysis-link")
        expect(page.locator("h2.study-title")).to_contain_text("Analysis: Agreement check")

        everyone = page.locator("tr.flow-all")
        expect(everyone.locator(".started")).to_have_text("7")
        expect(everyone.locator(".excluded")).to_have_text("1")
        expect(everyone.locator(".analysed")).to_have_text("5")
        failed = page.locator(f"tr.participant-row[data-key='{failer}']")
        expect(failed).to_have_class("participant-row excluded")
        expect(failed).to_contain_text("Answered 0 of 1 catch trials correctly")

        expect(page.locator(f"tr.paradigm-row[data-paradigm='{FLAGGED}'] .badge")).to_have_text("below 70%")
        flag = page.locator(f"li.paradigm-flag[data-paradigm='{FLAGGED}']")
        expect(flag).to_contain_text("Micro accuracy is 0.0%")
        word_flag = page.locator(f"li.word-flag[data-position='{position}'][data-word='{word}']")
        expect(word_flag).to_be_visible()
        expect(word_flag.locator("a.word-link")).to_have_text("edit it in the vocabulary")
        expect(page.locator(".prevalence-caveat")).to_contain_text("prevalence paradox")
        page.screenshot(path=screenshots / "study-analysis.png", full_page=True)

        # The flagged word leads to the line of the template that defines its position.
        word_flag.locator("a.position-link", has_text=FLAGGED).click()
        expect(page).to_have_url(
            f"{live_server.url}/projects/{project.pk}/templates/{version.template_id}/versions/3/#L{SUBJ_LINE}"
        )
        expect(page.locator(f"#L{SUBJ_LINE}")).to_contain_text(f"id: {position}")

        # A speed rule set on the page excludes the participant who answered in 200 ms.
        page.go_back()
        page.fill("#min_median_rt_ms", "500")
        page.click("button:has-text('Save the rules')")
        expect(page.locator(".messages")).to_contain_text("Rules saved")
        expect(page.locator("tr.flow-all .analysed")).to_have_text("4")
        expect(page.locator("#min_median_rt_ms")).to_have_value("500")
        page.context.close()
