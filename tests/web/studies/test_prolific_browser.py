"""Paid Prolific runs in a real browser (Debian's Chromium through Playwright), end to end:

- a 2AFC study: consent, practice with feedback, trials, a catch trial, a reload that resumes,
  the completion redirect to the study's completion URL with the code, and its quota closing
  the study; meanwhile an attacker in a second browser context who knows the participant's
  Prolific ID gets neither their session nor their answers;
- a rating study on a phone: one sentence at a time on a 7-point scale, practice feedback that
  names the expected end, the catch trial, a reload that resumes, completion with the redirect,
  a second participant who withdraws (and whose return says so, without a loop), and the quota
  that turns the next one away once every list is full;
- the researcher's preview of a magnitude-estimation study, which stores nothing.

Screenshots go to `var/screenshots/study-*.png`.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import PASSWORD

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    # Playwright's sync API keeps an event loop running in this thread; this test's own ORM
    # calls are plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as launched:
        yield launched


def _phone(browser: Browser) -> Page:
    return new_page(browser, width=390, height=844, is_mobile=True, has_touch=True)


def _consent(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("h1")).to_have_text("Consent")
    page.check("input[name=consent]")
    page.click("button:has-text('Start')")
    page.click("#start-button")


def test_a_2afc_prolific_run_with_an_attacker_in_a_second_browser(
    live_server: Any, project: Any, pair_dataset: Any, make_study: Any, browser: Browser, screenshots: Path
) -> None:
    from mpp_studio.studies.models import Participation, Response, Study
    from mpp_studio.studies.services import pid_hash, schedule_of

    base = str(live_server.url)
    study = make_study(
        project,
        [pair_dataset],
        items_per_paradigm=2,
        n_lists=1,
        catch_per_list=1,
        practice_items=1,
        prolific_study_id="S1",
        prolific_completion_url=f"{base}/healthz",
        completion_code="PAID2AFC",
    )
    study.quota_per_list = 2
    study.save()
    link = f"{base}/s/{study.slug}/?PROLIFIC_PID=VICTIM01&STUDY_ID=S1&SESSION_ID=SESSION-A"
    victim = new_page(browser)
    _consent(victim, link)
    participation = Participation.objects.get(study=study, pid_hash=pid_hash("VICTIM01"))
    trials = schedule_of(participation).trials
    total = len(trials)
    expect(victim.locator("#practice-label")).to_be_visible()
    victim.locator("#choices .choice").nth(trials[0].gold_index or 0).click()
    expect(victim.locator("#feedback-text")).to_contain_text("most people choose that sentence")
    victim.click("#feedback-next")
    victim.locator("#choices .choice").first.click()
    expect(victim.locator("#progress-text")).to_have_text(f"Trial 3 of {total}")

    # The attacker knows the Prolific ID (and the study's id): a second browser context.
    attacker_context = browser.new_context()
    attacker = attacker_context.new_page()
    attacker.goto(f"{base}/s/{study.slug}/?PROLIFIC_PID=VICTIM01&STUDY_ID=S1")
    expect(attacker.locator("h1")).to_have_text("Already started")
    expect(attacker.locator("#choices")).to_have_count(0)
    assert not [c for c in attacker_context.cookies() if c["name"].startswith("mpp_study_")]
    attacker.screenshot(path=screenshots / "study-attacker-refused.png", full_page=True)
    attacker.goto(f"{base}/s/{study.slug}/?PROLIFIC_PID=VICTIM01&STUDY_ID=S1&SESSION_ID=GUESSED")
    expect(attacker.locator("h1")).to_have_text("Already started")
    # Without STUDY_ID nobody even reads the consent.
    attacker.goto(f"{base}/s/{study.slug}/")
    expect(attacker.locator("h1")).to_have_text("Please start on Prolific")
    attacker_context.close()
    assert Response.objects.filter(participation=participation).count() == 2

    # Another participant answers the practice trial, then withdraws: their answer is deleted,
    # their return says so, and their place is free again.
    leaver = new_page(browser)
    _consent(leaver, f"{base}/s/{study.slug}/?PROLIFIC_PID=LEAVER01&STUDY_ID=S1&SESSION_ID=SESSION-B")
    leaver_participation = Participation.objects.get(study=study, pid_hash=pid_hash("LEAVER01"))
    leaver.locator("#choices .choice").first.click()
    leaver.click("#feedback-next")
    leaver.click("a.withdraw-link")
    leaver.click("button:has-text('Yes, withdraw')")
    expect(leaver.locator("p.withdrawn")).to_contain_text("Your answers have been deleted")
    leaver.goto(f"{base}/s/{study.slug}/?PROLIFIC_PID=LEAVER01&STUDY_ID=S1&SESSION_ID=SESSION-B")
    expect(leaver.locator("h1")).to_have_text("You have withdrawn")
    assert not Response.objects.filter(participation=leaver_participation).exists()

    # The victim goes on: a reload resumes, the catch trial is answered, and the last save
    # shows the code, then sends them to the completion URL with it.
    victim.reload()
    expect(victim.locator("#progress-text")).to_have_text(f"Trial 3 of {total}")
    for index in range(2, total):
        expect(victim.locator("#progress-text")).to_have_text(f"Trial {index + 1} of {total}")
        victim.locator("#choices .choice").nth(trials[index].gold_index or 0).click()
    expect(victim.locator("#completion-code")).to_have_text("PAID2AFC")
    victim.screenshot(path=screenshots / "study-completed-redirecting.png", full_page=True)
    victim.wait_for_url("**/healthz?cc=PAID2AFC")
    assert Response.objects.filter(participation=participation).count() == total
    study.refresh_from_db()
    assert study.status == Study.Status.OPEN  # one list, a quota of two: one place left
    from mpp_studio.studies.services import response_save
    from tests.web.studies.conftest import gold_answer, start

    second = start(study, "SECOND01", study_id="S1")
    for index in range(second.trial_count):
        response_save(participation=second, payload=gold_answer(second, index))
    # Both places completed: the study closed itself, the next is turned away.
    study.refresh_from_db()
    assert study.status == Study.Status.CLOSED
    late = new_page(browser)
    late.goto(f"{base}/s/{study.slug}/?PROLIFIC_PID=LATE01&STUDY_ID=S1&SESSION_ID=SESSION-L")
    expect(late.locator("h1")).to_have_text("The study is full")
    assert Participation.objects.filter(study=study).count() == 3  # victim, leaver, second


def _rate(page: Page, trial: Any, points: int = 7) -> None:
    value = points if trial.expected == "high" else 1
    page.locator(f"#choices .scale-point[data-value='{value}']").click()


def test_a_rating_study_on_a_phone_end_to_end(
    live_server: Any, project: Any, pair_dataset: Any, make_study: Any, browser: Browser, screenshots: Path
) -> None:
    from mpp_studio.studies.models import Participation, Response, Study
    from mpp_studio.studies.services import pid_hash, response_save, schedule_of
    from tests.web.studies.conftest import gold_answer, start

    base = str(live_server.url)
    study = make_study(
        project,
        [pair_dataset],
        task="rating",
        items_per_paradigm=2,
        n_lists=2,
        catch_per_list=1,
        practice_items=1,
        prolific_study_id="S2",
        prolific_completion_url=f"{base}/healthz",
        completion_code="RATED777",
    )
    study.quota_per_list = 1
    study.save()
    page = _phone(browser)
    _consent(page, f"{base}/s/{study.slug}/?PROLIFIC_PID=RATER01&STUDY_ID=S2&SESSION_ID=SR1")
    participation = Participation.objects.get(study=study, pid_hash=pid_hash("RATER01"))
    trials = schedule_of(participation).trials
    total = len(trials)
    assert [t.kind for t in trials[:2]] == ["practice", "practice"]
    assert any(t.kind == "catch" for t in trials)

    # A practice sentence: one sentence, seven points labelled at the ends, feedback after.
    expect(page.locator("#question")).to_have_text("How natural does this sentence sound?")
    expect(page.locator(".rated-sentence")).to_have_text(trials[0].sentences[0])
    expect(page.locator(".scale-point")).to_have_count(7)
    expect(page.locator(".scale-end.low")).to_have_text("Very unnatural")
    expect(page.locator(".scale-end.high")).to_have_text("Very natural")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # All seven points in one row, each large enough to tap.
    boxes = [page.locator(".scale-point").nth(k).bounding_box() for k in range(7)]
    assert len({round(b["y"]) for b in boxes if b}) == 1
    assert all(b and b["width"] >= 40 and b["height"] >= 44 for b in boxes)
    page.screenshot(path=screenshots / "study-rating-trial.png", full_page=True)
    for index in (0, 1):
        _rate(page, trials[index])
        expected = "natural: a high rating" if trials[index].expected == "high" else "unnatural: a low rating"
        expect(page.locator("#feedback-text")).to_contain_text(expected)
        if index == 0:
            page.screenshot(path=screenshots / "study-rating-feedback.png", full_page=True)
        page.click("#feedback-next")
    _rate(page, trials[2])
    expect(page.locator("#progress-text")).to_have_text(f"Trial 4 of {total}")
    page.reload()  # resumes at the first unanswered sentence
    expect(page.locator("#progress-text")).to_have_text(f"Trial 4 of {total}")
    expect(page.locator(".rated-sentence")).to_have_text(trials[3].sentences[0])
    for index in range(3, total):
        expect(page.locator("#progress-text")).to_have_text(f"Trial {index + 1} of {total}")
        page.keyboard.press("7" if trials[index].expected == "high" else "1")  # keys work as taps
    page.wait_for_url("**/healthz?cc=RATED777")
    saved = Response.objects.filter(participation=participation)
    assert saved.count() == total and all(r.correct and r.choice is None for r in saved)
    assert {r.rating for r in saved} == {1.0, 7.0}

    # A second participant answers one sentence, then withdraws; coming back says so.
    leaver = _phone(browser)
    _consent(leaver, f"{base}/s/{study.slug}/?PROLIFIC_PID=RATER02&STUDY_ID=S2&SESSION_ID=SR2")
    second = Participation.objects.get(study=study, pid_hash=pid_hash("RATER02"))
    assert second.list_index != participation.list_index
    _rate(leaver, schedule_of(second).trials[0])
    leaver.click("#feedback-next")
    run_url = leaver.url
    leaver.click("a.withdraw-link")
    leaver.click("button:has-text('Yes, withdraw')")
    expect(leaver.locator("p.withdrawn")).to_contain_text("Your answers have been deleted")
    leaver.goto(run_url)
    expect(leaver.locator("h1")).to_have_text("You have withdrawn")
    expect(leaver.locator("a.restart-link")).to_have_count(0)
    assert not Response.objects.filter(participation=second).exists()

    # The withdrawn place goes to the next participant; once both lists have their one
    # completed participant, the study closes and the next is told it is full.
    third = start(study, "RATER03", study_id="S2")
    assert third.list_index == second.list_index
    for index in range(third.trial_count):
        response_save(participation=third, payload=gold_answer(third, index))
    study.refresh_from_db()
    assert study.status == Study.Status.CLOSED
    late = _phone(browser)
    late.goto(f"{base}/s/{study.slug}/?PROLIFIC_PID=RATER04&STUDY_ID=S2&SESSION_ID=SR4")
    expect(late.locator("h1")).to_have_text("The study is full")
    late.screenshot(path=screenshots / "study-closed-when-full.png", full_page=True)


def test_the_researcher_previews_a_magnitude_study(
    live_server: Any,
    project: Any,
    pair_dataset: Any,
    make_study: Any,
    editor: Any,
    browser: Browser,
    screenshots: Path,
) -> None:
    from mpp_studio.studies.models import Participation, Response

    study = make_study(
        project,
        [pair_dataset],
        task="magnitude",
        reference_sentence="The cat that the dog chased ran away.",
        items_per_paradigm=2,
        catch_per_list=1,
        opened=False,
    )
    page = new_page(browser)
    page.goto(f"{live_server.url}/projects/{project.pk}/studies/{study.pk}/")
    sign_in(page, editor.get_username(), PASSWORD)
    page.click("a.preview-link")
    expect(page.locator(".preview-banner")).to_contain_text("nothing you answer is saved")
    page.click("#start-button")
    expect(page.locator(".reference-sentence")).to_have_text("The cat that the dog chased ran away.")
    expect(page.locator(".reference-label")).to_contain_text("worth 100")
    page.fill("#magnitude-input", "0")
    page.click(".magnitude-form button")
    expect(page.locator("#status")).to_contain_text("greater than 0")
    page.screenshot(path=screenshots / "study-preview-magnitude.png", full_page=True)
    page.fill("#magnitude-input", "150")
    page.click(".magnitude-form button")
    expect(page.locator("#progress-text")).to_contain_text("Trial 2 of")
    page.click("a.preview-jump:has-text('a catch trial')")
    expect(page.locator("#instructions")).to_be_hidden()
    expect(page.locator(".rated-sentence")).to_be_visible()
    assert not Participation.objects.exists() and not Response.objects.exists()
