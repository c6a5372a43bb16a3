"""A real browser creates a dataset, watches a real worker generate it, browses pairs and exports.

The web server (`manage.py runserver`) and the Celery worker are separate processes sharing a
SQLite file and the embedded filesystem queue in a temporary MPP_VAR_DIR, as `scripts/start.sh`
runs them; the project is prepared through the services by a script. Screenshots of the pages go
to `var/screenshots/datasets-*.png` for a person to look at.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.stack import PREPARE_SCRIPT, run_script, web_server, worker

pytest_plugins = ["tests.web.browser"]

pytestmark = needs_chromium


@pytest.fixture
def page() -> Iterator[Page]:
    with launch_browser() as browser:
        page = new_page(browser, accept_downloads=True)
        yield page
        page.context.close()


def test_browser_creates_a_dataset_watches_it_generate_browses_and_exports(
    page: Page, screenshots: Path, tmp_path: Path
) -> None:
    var_dir = tmp_path / "var"
    env = subprocess_env(var_dir)
    run_manage(env, "migrate", "--noinput")
    project_id = run_script(env, PREPARE_SCRIPT, "", "", "0")["project"]

    web_log = tmp_path / "web.log"
    with worker(env, tmp_path / "worker.log", "cpu,gpu") as worker_log, web_server(env, web_log) as base:
        try:
            walk_through(page, base, int(project_id), screenshots, tmp_path)  # type: ignore[call-overload]
        except AssertionError as exc:
            raise AssertionError(
                f"{exc}\n--- web server log:\n{web_log.read_text(errors='replace')[-6000:]}"
                f"\n--- worker log:\n{worker_log()[-6000:]}"
            ) from exc


def walk_through(page: Page, base: str, project_id: int, screenshots: Path, tmp_path: Path) -> None:
    """Sign in, create a dataset, watch it finish, export JSONL, browse pairs and a provenance."""
    # Sign in, then the project's (empty) dataset list.
    page.goto(f"{base}/projects/{project_id}/datasets/")
    expect(page.locator("h1")).to_have_text("Sign in")
    sign_in(page, "ling", "pw-for-the-browser")
    expect(page.locator("h2")).to_have_text("Datasets")
    expect(page.locator(".empty")).to_contain_text("No datasets yet.")

    # The form: templates grouped, the broken one disabled with its reason.
    page.click("a.button:has-text('New dataset')")
    expect(page.locator("h2")).to_have_text("New dataset")
    broken = page.locator("li.choice.disabled")
    expect(broken).to_have_count(1)
    expect(broken.locator("input")).to_be_disabled()
    expect(broken.locator(".why")).to_contain_text("version 1 has problems — line 9:")
    page.fill("#id_name", "Agreement benchmark")
    page.fill("#id_description", "Subject–verb agreement and Chinese classifiers.")
    page.check("li.choice:has-text('en_sv_agreement') input")
    page.check("li.choice:has-text('zh_classifier_noun') input")
    page.fill("#id_pairs_per_paradigm", "10")
    page.fill("#id_seed", "3")
    page.screenshot(path=screenshots / "datasets-new.png", full_page=True)
    # After a full-page capture Chromium can scroll between the press and the release of the next
    # click (then no click reaches the button): leave the seed field first, as a person would.
    page.locator("#id_seed").blur()
    page.click("button:has-text('Generate dataset')")

    # The detail page: the progress bar, polled every 2 s, reaches done; the table follows.
    expect(page.locator("h2.dataset-title")).to_have_text("Agreement benchmark")
    expect(page.locator(".messages")).to_contain_text("was queued for generation: 2 paradigms, 10 pairs each")
    page.screenshot(path=screenshots / "datasets-progress.png", full_page=True)
    expect(page.locator(".job-status[data-status=done]")).to_be_visible(timeout=120_000)
    expect(page.locator(".job-status .progress-bar")).to_have_attribute("style", "width: 100%")
    expect(page.locator(".job-status")).to_contain_text("Generated 20 pairs in 2 paradigms.")
    expect(page.locator(".paradigm-badge-done")).to_have_count(2)
    expect(page.locator("a[data-format=jsonl]")).to_be_visible()
    page.screenshot(path=screenshots / "datasets-detail.png", full_page=True)

    # Export JSONL: the engine's records, 10 per paradigm, with seed 3 in their provenance.
    with page.expect_download() as download_info:
        page.click("a[data-format=jsonl]")
    download = download_info.value
    assert download.suggested_filename == "agreement-benchmark.jsonl"
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    records = [orjson.loads(line) for line in target.read_bytes().splitlines()]
    assert [r["UID"] for r in records] == ["en_sv_agreement"] * 10 + ["zh_classifier_noun"] * 10
    assert {r["provenance"]["seed"] for r in records} == {3}
    assert all(r["sentence_good"] != r["sentence_bad"] for r in records)

    # Browse the pairs, filtered to the Chinese paradigm (htmx swaps the list and the URL).
    page.click("a.button:has-text('Browse pairs')")
    expect(page.locator("tr.pair")).to_have_count(20)
    page.select_option("#id_uid", "zh_classifier_noun")
    # The search and curation filters travel along, empty.
    expect(page).to_have_url(re.compile(r"\?uid=zh_classifier_noun(&q=&decision=)?$"))
    rows = page.locator("tr.pair")
    expect(rows).to_have_count(10)
    expect(page.locator("tr.pair td.sentence.good[lang=zh] mark")).to_have_count(10)
    first_good = rows.first.locator("td.good").inner_text()
    assert first_good == records[10]["sentence_good"]
    page.screenshot(path=screenshots / "datasets-pairs.png", full_page=True)

    # A pair's provenance: versions, seed and the words that filled it.
    rows.first.locator("a.provenance-link").click()
    provenance = page.locator(".provenance").first
    expect(provenance).to_be_visible()
    expect(provenance).to_contain_text("zh_classifier_noun, version 1")
    expect(provenance).to_contain_text(records[10]["provenance"]["template_version"])
    expect(provenance).to_contain_text(records[10]["provenance"]["vocabulary_version"])
    noun = records[10]["provenance"]["fillers"]["good"]["noun"]
    expect(provenance.locator("tr.filler-good", has_text=noun)).to_have_count(1)
    expect(provenance.locator("td.form[lang=zh]").first).to_be_visible()
    page.screenshot(path=screenshots / "datasets-provenance.png", full_page=True)

    # The list shows the finished dataset.
    page.goto(f"{base}/projects/{project_id}/datasets/")
    expect(page.locator("tr.dataset-row")).to_have_count(1)
    expect(page.locator("tr.dataset-row .job-badge-done")).to_have_text("Done")
    page.screenshot(path=screenshots / "datasets-list.png", full_page=True)
