"""A real browser (Debian's Chromium, driven by Playwright) on a phone-sized viewport (390 x 844)
takes a small study as a Prolific participant: consent, instructions, a practice trial with
feedback, trials one at a time; reloads mid-way and resumes at the first unanswered trial; sees
the completion code only after the last answer is saved; fails the catch trial on purpose, and
the researcher's analysis then shows them excluded. Screenshots go to
`var/screenshots/study-*.png`.
"""

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
def phone(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    # Playwright's sync API keeps an event loop running in this thread; this test's own ORM
    # calls are plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser, width=390, height=844, is_mobile=True, has_touch=True)
        yield page
        page.context.close()


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"


def _shown(page: Page) -> list[str]:
    return page.locator("#choices .choice .sentence").all_inner_texts()


def _choose(page: Page, trial: Any, default: int) -> None:
    # A catch trial is failed on purpose (the other sentence than the expected one).
    index = 1 - (trial.gold_index or 0) if trial.kind == "catch" else default
    page.locator("#choices .choice").nth(index).click()


def test_participant_completes_a_study_on_a_phone_and_resumes_after_a_reload(
    live_server: Any,
    project: Any,
    editor: Any,
    pair_dataset: Any,
    make_study: Any,
    phone: Page,
    screenshots: Path,
) -> None:
    from mpp_studio.studies.models import Participation, Response
    from mpp_studio.studies.services import pid_hash, schedule_of

    study = make_study(
        project, [pair_dataset], items_per_paradigm=2, n_lists=1, catch_per_list=1, practice_items=1
    )
    page = phone
    base = str(live_server.url)
    page.goto(f"{base}/s/{study.slug}/?PROLIFIC_PID=5f00aa11bb22&STUDY_ID=S1&SESSION_ID=X1")
    expect(page.locator("h1")).to_have_text("Consent")
    _no_sideways_scroll(page)
    page.screenshot(path=screenshots / "study-consent.png", full_page=True)
    page.check("input[name=consent]")
    page.click("button:has-text('Start')")

    expect(page.locator("#instructions h1")).to_have_text("Instructions")
    participation = Participation.objects.get(study=study)
    assert participation.pid_hash == pid_hash("5f00aa11bb22")
    schedule = schedule_of(participation)
    total = len(schedule.trials)
    assert total == 1 + 6 + 1  # practice, 3 paradigms x 2 items, one catch trial
    page.click("#start-button")

    # The practice trial: feedback from the server after the save, then Next.
    expect(page.locator("#progress-text")).to_have_text(f"Trial 1 of {total}")
    expect(page.locator("#practice-label")).to_be_visible()
    assert _shown(page) == list(schedule.trials[0].sentences)
    page.screenshot(path=screenshots / "study-trial.png", full_page=True)
    page.locator("#choices .choice").nth(schedule.trials[0].gold_index or 0).click()
    expect(page.locator("#feedback")).to_be_visible()
    expect(page.locator("#feedback-text")).to_contain_text("most people choose that sentence")
    page.click("#feedback-next")

    for index in (1, 2, 3):
        expect(page.locator("#progress-text")).to_have_text(f"Trial {index + 1} of {total}")
        assert _shown(page) == list(schedule.trials[index].sentences)
        expect(page.locator("#practice-label")).to_be_hidden()
        _choose(page, schedule.trials[index], 0)
    expect(page.locator("#progress-text")).to_have_text(f"Trial 5 of {total}")
    assert Response.objects.filter(participation=participation).count() == 4
    assert study.completion_code not in page.content()
    _no_sideways_scroll(page)

    # A reload resumes at the first unanswered trial (the fifth), not at the instructions.
    page.reload()
    expect(page.locator("#progress-text")).to_have_text(f"Trial 5 of {total}")
    expect(page.locator("#instructions")).to_be_hidden()
    assert _shown(page) == list(schedule.trials[4].sentences)
    page.screenshot(path=screenshots / "study-resumed.png", full_page=True)
    # The narrowest common phone: nothing sticks out sideways, the buttons stay large.
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = page.locator("#choices .choice").first.bounding_box()
    assert box is not None and box["width"] >= 300 and box["height"] >= 48

    for index in range(4, total):
        expect(page.locator("#progress-text")).to_have_text(f"Trial {index + 1} of {total}")
        assert study.completion_code not in page.content()
        _choose(page, schedule.trials[index], -1)

    expect(page.locator("#completion-code")).to_have_text(study.completion_code)
    page.screenshot(path=screenshots / "study-done.png", full_page=True)
    assert Response.objects.filter(participation=participation).count() == total
    participation.refresh_from_db()
    assert participation.status == "completed"
    # The page never held a gold answer, a paradigm or a trial kind.
    assert "en_sv_agreement" not in page.content()
    assert any(t.kind == "catch" for t in schedule.trials)

    # The researcher's analysis: this participant failed the catch trial and is excluded.
    from mpp_studio.studies.report import participant_key

    researcher = new_page(page.context.browser)
    researcher.goto(f"{base}/projects/{project.pk}/studies/{study.pk}/")
    sign_in(researcher, editor.get_username(), PASSWORD)
    researcher.click("a.analysis-link")
    flow = researcher.locator("tr.flow-all")
    expect(flow.locator(".started")).to_have_text("1")
    expect(flow.locator(".excluded")).to_have_text("1")
    expect(flow.locator(".analysed")).to_have_text("0")
    row = researcher.locator(f"tr.participant-row[data-key='{participant_key(participation.token_id)}']")
    expect(row).to_have_class("participant-row excluded")
    expect(row).to_contain_text("Answered 0 of 1 catch trials correctly")
    researcher.screenshot(path=screenshots / "study-analysis-after-phone.png", full_page=True)


def test_researcher_builds_previews_and_opens_a_study(
    live_server: Any,
    editor: Any,
    project: Any,
    pair_dataset: Any,
    screenshots: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mpp_studio.studies.models import Study
    from tests.web.browser import sign_in
    from tests.web.conftest import PASSWORD

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser)
        page.goto(f"{live_server.url}/projects/{project.pk}/studies/")
        sign_in(page, editor.get_username(), PASSWORD)
        expect(page.locator(".project-tab.active")).to_have_text("Studies")
        page.click("a.button:has-text('New study')")
        page.fill("#id_name", "Agreement validation")
        page.check(f"input[name=datasets][value='{pair_dataset.pk}']")
        page.fill("#id_items_per_paradigm", "4")
        page.fill("#id_n_lists", "2")
        page.fill("#id_target_responses", "10")
        page.fill("#id_catch_per_list", "1")
        page.click("button:has-text('Build the design')")
        expect(page.locator("h2.study-title")).to_contain_text("Agreement validation")
        expect(page.locator(".design-facts .balance")).to_contain_text("Balanced")
        expect(page.locator(".participants-needed")).to_have_text("20 (10 per list)")
        expect(page.locator(".list-preview").first).to_contain_text("List 1: 6 items, 1 catch trial")
        expect(page.locator(".list-preview").first.locator("tr.trial-catch")).to_have_count(1)
        page.screenshot(path=screenshots / "study-design.png", full_page=True)
        page.click("button:has-text('Open the study')")
        expect(page.locator(".messages")).to_contain_text("The study is open")
        study = Study.objects.get()
        expect(page.locator("input.prolific-link")).to_have_value(
            f"{live_server.url}/s/{study.slug}/?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}"
            "&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
        )
        expect(page.locator("#study-status tfoot")).to_contain_text("0 / 20")
        page.context.close()


def test_chinese_rank3_study_with_confidence_then_withdraw(
    live_server: Any, project: Any, triplet_dataset: Any, make_study: Any, phone: Page, screenshots: Path
) -> None:
    from mpp_studio.studies.models import Participation, Response
    from mpp_studio.studies.services import schedule_of

    study = make_study(
        project,
        [triplet_dataset],
        items_per_paradigm=1,
        n_lists=1,
        catch_per_list=1,
        task="rank3",
        confidence=True,
        language="zh",
    )
    page = phone
    page.goto(f"{live_server.url}/s/{study.slug}/")
    assert page.get_attribute("html", "lang") == "zh"
    page.check("input[name=consent]")
    page.click("button:has-text('开始')")
    page.click("#start-button")
    participation = Participation.objects.get(study=study)
    trials = schedule_of(participation).trials
    total = len(trials)
    for index, trial in enumerate(trials[:2]):
        expect(page.locator("#progress-text")).to_have_text(f"第 {index + 1} 题，共 {total} 题")
        choices = page.locator("#choices .choice")
        expect(choices).to_have_count(len(trial.sentences))
        assert choices.first.get_attribute("lang") == "zh"
        for k in reversed(range(len(trial.sentences))):
            choices.nth(k).click()
        if index == 0:
            page.screenshot(path=screenshots / "study-rank3-zh.png", full_page=True)
        expect(page.locator("#confidence")).to_be_visible()
        page.click("#confidence .conf[data-level='3']")
    expect(page.locator("#progress-text")).to_have_text(f"第 3 题，共 {total} 题")
    saved = list(Response.objects.filter(participation=participation).order_by("trial_index"))
    assert [r.confidence for r in saved] == [3, 3]
    assert saved[0].ranking == list(reversed(range(len(trials[0].sentences)))) or trials[0].task == "2afc"

    # Withdrawing, after a confirm page, deletes the answers.
    page.click("a.withdraw-link")
    expect(page.locator("h1")).to_have_text("退出研究")
    page.click("button:has-text('确认退出')")
    expect(page.locator("p.withdrawn")).to_contain_text("你的回答已被删除")
    assert not Response.objects.filter(participation=participation).exists()
    participation.refresh_from_db()
    assert participation.status == "withdrawn"


def test_an_answer_lost_on_the_network_is_sent_again(
    live_server: Any, project: Any, pair_dataset: Any, make_study: Any, phone: Page
) -> None:
    from mpp_studio.studies.models import Participation, Response

    study = make_study(project, [pair_dataset], items_per_paradigm=1, n_lists=1, catch_per_list=1)
    page = phone
    page.goto(f"{live_server.url}/s/{study.slug}/")
    page.check("input[name=consent]")
    page.click("button:has-text('Start')")
    page.click("#start-button")
    expect(page.locator("#progress-text")).to_have_text("Trial 1 of 4")
    attempts: list[str] = []

    def flaky(route: Any) -> None:
        attempts.append(route.request.url)
        if len(attempts) <= 2:
            route.abort("internetdisconnected")  # the first two tries never reach the server
        else:
            route.continue_()

    page.route("**/answer/", flaky)
    page.locator("#choices .choice").first.click()
    expect(page.locator("#progress-text")).to_have_text("Trial 2 of 4", timeout=15_000)
    assert len(attempts) == 3
    participation = Participation.objects.get(study=study)
    assert Response.objects.filter(participation=participation).count() == 1


def test_an_answer_refused_as_too_fast_waits_and_goes_on(
    live_server: Any, project: Any, pair_dataset: Any, make_study: Any, phone: Page
) -> None:
    """When the server answers 429 (over MPP_RATE_LIMIT_ANSWER) with Retry-After, the page says
    it goes on by itself, waits that long, sends the answer again and moves on, instead of
    stopping with an error. (The 429 itself is the server's, tested with the rate limits; here
    the second answer is answered 429 once, so the test does not depend on the machine's speed.)"""
    from mpp_studio.studies.models import Participation, Response

    study = make_study(project, [pair_dataset], items_per_paradigm=1, n_lists=1, catch_per_list=1)
    page = phone
    page.goto(f"{live_server.url}/s/{study.slug}/")
    page.check("input[name=consent]")
    page.click("button:has-text('Start')")
    page.click("#start-button")
    expect(page.locator("#progress-text")).to_have_text("Trial 1 of 4")
    statuses: list[int] = []
    answers: list[str] = []

    def second_answer_too_fast(route: Any) -> None:
        answers.append(route.request.url)
        if len(answers) == 2:
            route.fulfill(
                status=429,
                headers={"Retry-After": "2", "Content-Type": "application/json"},
                body='{"error": "Too many answers at once."}',
            )
        else:
            route.continue_()

    page.route("**/answer/", second_answer_too_fast)
    page.on(
        "response", lambda response: statuses.append(response.status) if "/answer/" in response.url else None
    )
    page.locator("#choices .choice").first.click()
    expect(page.locator("#progress-text")).to_have_text("Trial 2 of 4")
    page.locator("#choices .choice").first.click()
    expect(page.locator("#status")).to_contain_text("going on by itself in 2 s")
    expect(page.locator("#progress-text")).to_have_text("Trial 3 of 4")
    assert statuses == [201, 429, 201]
    participation = Participation.objects.get(study=study)
    assert Response.objects.filter(participation=participation).count() == 2


def test_a_save_the_busy_server_refused_is_resent_without_a_word(
    live_server: Any, project: Any, pair_dataset: Any, make_study: Any, phone: Page
) -> None:
    """A 503 with Retry-After (the embedded database busy with another's save) is sent again after
    that wait; the participant is not told "No connection" and the answer is stored once. (The
    server's busy answer is tested in tests/web/studies/test_participant.py; here the first answer
    is answered so by the test, so it does not depend on the machine's speed.)"""
    from mpp_studio.studies.models import Participation, Response

    study = make_study(project, [pair_dataset], items_per_paradigm=1, n_lists=1, catch_per_list=1)
    page = phone
    page.goto(f"{live_server.url}/s/{study.slug}/")
    page.check("input[name=consent]")
    page.click("button:has-text('Start')")
    page.click("#start-button")
    expect(page.locator("#progress-text")).to_have_text("Trial 1 of 4")
    statuses: list[int] = []
    shown: list[str] = []

    def busy_once(route: Any) -> None:
        if not statuses:
            statuses.append(503)
            shown.append(page.locator("#status").inner_text())
            route.fulfill(
                status=503,
                headers={"Retry-After": "1", "Content-Type": "application/json"},
                body='{"error": "The server is busy.", "code": "database_busy"}',
            )
        else:
            statuses.append(0)
            route.continue_()

    page.route("**/answer/", busy_once)
    page.locator("#choices .choice").first.click()
    expect(page.locator("#progress-text")).to_have_text("Trial 2 of 4")
    assert statuses == [503, 0]
    assert "No connection" not in page.locator("#status").inner_text()
    participation = Participation.objects.get(study=study)
    assert Response.objects.filter(participation=participation).count() == 1
