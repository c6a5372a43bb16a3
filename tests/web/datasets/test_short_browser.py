"""A paradigm that cannot make the pairs asked for, in a real browser with a real worker.

Such a paradigm used to make 0 pairs and fail the whole dataset with no warning. Now the form
names it as the paradigms are chosen and again, with the vocabulary as it is, before anything is
generated; "Generate anyway" lets it fail with its reason while the others finish; on the
dataset page it is retried alone, making as many pairs as it can, and is done with those.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.conftest import ZH_CAPACITY
from tests.web.datasets.stack import PREPARE_SCRIPT, run_script, web_server, worker

pytest_plugins = ["tests.web.browser"]

pytestmark = needs_chromium


@pytest.fixture
def page() -> Iterator[Page]:
    with launch_browser() as browser:
        page = new_page(browser)
        yield page
        page.context.close()


def test_a_short_paradigm_is_named_first_then_retried_alone_for_all_it_can_make(
    page: Page, screenshots: Path, tmp_path: Path
) -> None:
    env = subprocess_env(tmp_path / "var")
    run_manage(env, "migrate", "--noinput")
    project_id = run_script(env, PREPARE_SCRIPT, "", "", "0")["project"]
    web_log = tmp_path / "web.log"
    with worker(env, tmp_path / "worker.log", "cpu,gpu") as worker_log, web_server(env, web_log) as base:
        try:
            walk_through(page, base, int(project_id))  # type: ignore[call-overload]
            page.screenshot(path=screenshots / "datasets-retried.png", full_page=True)
        except AssertionError as exc:
            raise AssertionError(
                f"{exc}\n--- web server log:\n{web_log.read_text(errors='replace')[-6000:]}"
                f"\n--- worker log:\n{worker_log()[-6000:]}"
            ) from exc


def walk_through(page: Page, base: str, project_id: int) -> None:
    page.goto(f"{base}/projects/{project_id}/datasets/new/")
    sign_in(page, "ling", "pw-for-the-browser")
    expect(page.locator("h2")).to_have_text("New dataset")
    page.fill("#id_name", "Short one")
    page.check("li.choice:has-text('en_sv_agreement') input")
    page.check("li.choice:has-text('zh_classifier_noun') input")
    warning = page.locator("#short-warning")
    page.fill("#id_pairs_per_paradigm", str(ZH_CAPACITY))
    expect(warning).to_be_hidden()
    page.fill("#id_pairs_per_paradigm", str(ZH_CAPACITY + 1))  # one more than it can make
    expect(warning).to_be_visible()
    expect(warning).to_contain_text(f"1 paradigm can make fewer than {ZH_CAPACITY + 1} different pairs")
    expect(warning).to_contain_text(f"zh_classifier_noun ({ZH_CAPACITY})")
    page.click("button:has-text('Generate dataset')")

    # The server counts again and asks before anything is generated.
    choice = page.locator(".short-paradigms")
    expect(choice).to_contain_text("Nothing is generated yet.")
    expect(choice.locator(".short-list")).to_have_text(f"zh_classifier_noun: at most {ZH_CAPACITY}")
    choice.locator("button[value='fail']").click()

    # Generated: the English paradigm is done, the Chinese one fails with its reason, kept apart.
    expect(page.locator("h2.dataset-title")).to_have_text("Short one")
    zh = page.locator("tr.paradigm-row[data-uid='zh_classifier_noun']")
    expect(zh.locator(".paradigm-badge")).to_have_text("Failed", timeout=120_000)
    expect(zh).to_contain_text(f"can make at most {ZH_CAPACITY} different good sentences")
    en = page.locator("tr.paradigm-row[data-uid='en_sv_agreement']")
    expect(en.locator(".paradigm-badge")).to_have_text("Done")

    # Retried alone, making as many as it can: done with all of them, the English pairs untouched.
    zh.locator("button:has-text('Retry, making as many as it can')").click()
    expect(page.locator(".messages")).to_contain_text("zh_classifier_noun was queued to be generated again")
    expect(zh.locator(".paradigm-badge")).to_have_text("Done", timeout=120_000)
    expect(zh.locator("td.num").nth(1)).to_contain_text(f"{ZH_CAPACITY}all it can make")
    expect(en.locator("td.num").nth(1)).to_have_text(str(ZH_CAPACITY + 1))
    expect(page.locator("#dataset-status")).to_contain_text("Made fewer than asked, all they can make")
    made = ZH_CAPACITY + ZH_CAPACITY + 1
    # The bar counts the pairs that could be made, not a phantom twelfth one.
    expect(page.locator("#dataset-status .generation")).to_contain_text(f"{made} of {made}")
