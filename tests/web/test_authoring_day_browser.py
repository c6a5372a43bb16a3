"""A linguist's whole authoring day in a real browser (issue 16's "done when"), on the stack as
users run it: a web server and a Celery worker as separate processes, sharing one database.

Duplicate a paradigm and type fast into the copy; rename a position (its references follow);
leave with unsaved edits and come back to the draft; compare two versions; grow the vocabulary
from an edited file (the templates are counted again); generate a dataset in which one paradigm
is short, keeping all it can make; curate a pair; export, and find the curated pair left out.
Screenshots go to `var/screenshots/day-*.png`.
"""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import EN_NOUNS_CSV, run_manage, subprocess_env
from tests.web.datasets.conftest import ZH_CAPACITY
from tests.web.datasets.stack import PREPARE_SCRIPT, run_script, web_server, worker
from tests.web.paradigms.editor_browser import replace_text, settle, type_into

pytest_plugins = ["tests.web.browser"]

pytestmark = needs_chromium

# en_nouns grown by two singular nouns: en_sv_agreement then makes 6 x 4 = 24 different pairs.
GROWN_CSV = EN_NOUNS_CSV + "n9,fish,fish,NN,sg\nn10,cow,cow,NN,sg\n"
PAIRS = 12  # one more than zh_classifier_noun can make


@pytest.fixture
def page() -> Iterator[Page]:
    with launch_browser() as browser:
        page = new_page(browser, width=1440, height=1000)
        yield page
        page.context.close()


def test_an_authoring_day(page: Page, screenshots: Path, tmp_path: Path) -> None:
    env = subprocess_env(tmp_path / "var")
    run_manage(env, "migrate", "--noinput")
    project_id = int(run_script(env, PREPARE_SCRIPT, "", "", "0")["project"])  # type: ignore[call-overload]
    grown = tmp_path / "en_nouns.csv"
    grown.write_text(GROWN_CSV, encoding="utf-8")
    web_log = tmp_path / "web.log"
    with worker(env, tmp_path / "worker.log", "cpu,gpu") as worker_log, web_server(env, web_log) as base:
        try:
            day(page, base, project_id, grown, tmp_path, screenshots)
        except AssertionError as exc:
            raise AssertionError(
                f"{exc}\n--- web server log:\n{web_log.read_text(errors='replace')[-6000:]}"
                f"\n--- worker log:\n{worker_log()[-6000:]}"
            ) from exc


def reload_until(page: Page, selector: str, text: str, seconds: float = 60) -> None:
    """Reload the page until `selector` holds `text` (a worker changes it in the background)."""
    for _ in range(int(seconds)):
        if text in (page.locator(selector).first.text_content() or ""):
            return
        page.wait_for_timeout(1000)
        page.reload()
    expect(page.locator(selector).first).to_contain_text(text)


def day(page: Page, base: str, project_id: int, grown: Path, tmp_path: Path, screenshots: Path) -> None:
    project = f"{base}/projects/{project_id}"
    page.goto(f"{project}/templates/")
    sign_in(page, "ling", "pw-for-the-browser")

    # 1. Create a paradigm by duplicating one; the copy opens in the editor.
    page.click("a:has-text('en_sv_agreement')")
    page.click(".duplicate-form button")
    expect(page.locator(".messages")).to_contain_text("was copied as en_sv_agreement_copy")
    expect(page.locator("#uid")).to_have_value("en_sv_agreement_copy")
    settle(page)

    # 2. Type fast across fields, renaming the verb position: its references follow.
    replace_text(page, "#description", "Agreement, checked on a busy day.", 0)
    replace_text(page, "#good-1-id", "predicate", 0)
    page.keyboard.press("Tab")
    settle(page)
    expect(page.locator("#description")).to_have_value("Agreement, checked on a busy day.")
    expect(page.locator("#good-1-id")).to_have_value("predicate")
    expect(page.locator("#bad-1-target")).to_have_value("predicate")
    expect(page.locator("#save-status")).to_contain_text("no problems")
    type_into(page, "#note", "renamed the verb")
    page.click("button.save")
    expect(page.locator(".messages")).to_contain_text("Saved version 2 of en_sv_agreement_copy.")

    # 3. Leave with an unsaved edit (the browser asks), come back, restore the draft, save.
    page.click("a:has-text('Edit')")
    replace_text(page, "#description", "Agreement, kept as a draft over lunch.", 0)
    expect(page.locator(".draft-status")).to_contain_text("Draft kept at")
    asked: list[str] = []

    def leave(dialog: Dialog) -> None:
        asked.append(dialog.type)
        dialog.accept()

    page.on("dialog", leave)
    page.click("nav.crumbs a:has-text('Templates')")
    expect(page.locator("h2.editor-title")).to_have_count(0)
    page.remove_listener("dialog", leave)
    assert asked == ["beforeunload"]
    page.click("a:has-text('en_sv_agreement_copy')")
    page.click("a:has-text('Edit')")
    page.locator(".draft-offer a:has-text('Restore the draft')").click()
    expect(page.locator("#description")).to_have_value("Agreement, kept as a draft over lunch.")
    page.click("button.save")
    expect(page.locator(".messages")).to_contain_text("Saved version 3 of en_sv_agreement_copy.")

    # 4. Compare the last two versions: the text line by line, the pairs side by side.
    page.click("a.compare-link")
    expect(page.locator(".diff-added")).to_contain_text("kept as a draft over lunch")
    expect(page.locator(".compare-pairs tr.pair").first).to_be_visible()
    page.screenshot(path=screenshots / "day-compare.png", full_page=True)

    # 5. Grow the vocabulary from an edited file: see what it adds, apply it, and the templates
    #    that use it are counted again by the worker.
    page.goto(f"{project}/vocabularies/")
    page.click("a:has-text('en_nouns')")
    page.click("#update-from-file")
    page.set_input_files("#id_file", str(grown))
    page.click("button:has-text('Read the file')")
    expect(page.locator("#update-status")).to_have_attribute("data-status", "ready", timeout=60_000)
    expect(page.locator("#update-summary")).to_contain_text("Applying this file would add 2 items")
    page.click("#update-apply")
    expect(page.locator("#update-status")).to_have_attribute("data-status", "applied", timeout=60_000)
    page.goto(f"{project}/templates/")
    reload_until(page, "tr.template-row:has-text('en_sv_agreement_copy') td.capacity", "24")
    page.screenshot(path=screenshots / "day-templates.png", full_page=True)

    # 6. A dataset in which one paradigm is short: warned, then all it can make is kept.
    page.goto(f"{project}/datasets/new/")
    page.fill("#id_name", "Busy day")
    page.check("li.choice:has-text('en_sv_agreement_copy') input")
    page.check("li.choice:has-text('zh_classifier_noun') input")
    page.fill("#id_pairs_per_paradigm", str(PAIRS))
    expect(page.locator("#short-warning")).to_contain_text(f"zh_classifier_noun ({ZH_CAPACITY})")
    page.check("#id_as_many_as_possible")
    page.click("button:has-text('Generate dataset')")
    zh = page.locator("tr.paradigm-row[data-uid='zh_classifier_noun']")
    expect(zh.locator(".paradigm-badge")).to_have_text("Done", timeout=120_000)
    en = page.locator("tr.paradigm-row[data-uid='en_sv_agreement_copy']")
    expect(en.locator(".paradigm-badge")).to_have_text("Done", timeout=120_000)
    expect(zh.locator("td.num").nth(1)).to_contain_text(str(ZH_CAPACITY))
    dataset_url = page.url

    # 7. Curate: find a pair by a word, exclude it with the reason.
    page.click("a:has-text('Browse pairs')")
    page.fill("#id_q", "fish")
    expect(page.locator("#pair-list tr.pair").first).to_contain_text("fish")
    excluded = page.locator("#pair-list tr.pair td.sentence.bad").first.inner_text()
    page.locator("#pair-list a.review-link").first.click()
    page.check("input[name='decision'][value='excluded']")
    page.fill("#id_reason", "fish is odd here")
    page.click(".review-form button")
    expect(page.locator(".messages")).to_contain_text("is excluded: exports leave it out")
    page.screenshot(path=screenshots / "day-curated.png", full_page=True)

    # 8. Export: every pair made but the excluded one.
    page.goto(dataset_url)
    with page.expect_download() as download:
        page.click("a[data-format='jsonl']")
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == PAIRS + ZH_CAPACITY - 1
    assert excluded not in {record["sentence_bad"] for record in records}
    page.screenshot(path=screenshots / "day-dataset.png", full_page=True)
