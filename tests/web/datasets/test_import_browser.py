"""A real browser (Debian's Chromium, driven by Playwright) imports released datasets.

The files are read by a background job (here a thread standing in for the worker): the page
answers at once and the dataset's page follows the job. An editor uploads an unusable file and
sees every line that could not be read, with no pair kept; then a BLiMP file with two bad lines and
a Zorro file with an odd line, Zorro's lines read good-first: the read-only dataset's page lists
each skipped line, browses the pairs with their source and exports the ZhoBLiMP layout.
Screenshots go to `var/screenshots/datasets-import-*.png`.
"""

import threading
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import orjson
import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import PASSWORD

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).parent / "data"


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    # Playwright's sync API keeps an event loop running in this thread, and Django refuses ORM
    # calls where a loop runs. This test's own ORM calls are plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser, accept_downloads=True)
        yield page
        page.context.close()


@pytest.fixture
def worker() -> Iterator[None]:
    """A thread per queued import, as a worker would take the message once the request commits."""
    from django.db import connection

    from mpp_studio.datasets.services import dataset_import_run
    from mpp_studio.datasets.tasks import import_files

    def work(dataset_id: int) -> None:
        try:
            dataset_import_run(dataset_id=dataset_id)
        finally:
            connection.close()

    with mock.patch.object(
        import_files, "delay", lambda dataset_id: threading.Thread(target=work, args=(dataset_id,)).start()
    ):
        yield


def test_browser_imports_released_files_as_a_read_only_dataset(
    live_server: object,
    editor: object,
    project: object,
    page: Page,
    screenshots: Path,
    tmp_path: Path,
    worker: None,
) -> None:
    from mpp_studio.datasets.models import Pair

    base = str(live_server.url)  # type: ignore[attr-defined]
    page.goto(f"{base}/projects/{project.pk}/datasets/")  # type: ignore[attr-defined]
    sign_in(page, editor.get_username(), PASSWORD)  # type: ignore[attr-defined]
    expect(page.locator("h2")).to_have_text("Datasets")
    page.click("a.button:has-text('Import a dataset')")
    expect(page.locator("h2")).to_have_text("Import a dataset")
    expect(page.locator("input[name=zorro_order][value=bad-first]")).to_be_checked()

    # A file no line of which can be read: the job fails in words, every line listed, no pair kept.
    page.fill("#id_name", "Unusable pairs")
    page.set_input_files("#id_files", str(DATA / "unusable.jsonl"))
    page.select_option("#id_source_format", "blimp")
    page.click("button:has-text('Import')")
    expect(page.locator(".messages")).to_contain_text("is being imported")
    expect(page.locator(".import-job")).to_contain_text("No file gave a usable pair, so nothing was imported")
    issues = page.locator("tr.import-issue")
    expect(issues).to_have_count(3)
    assert [t.strip() for t in issues.locator("td.num").all_inner_texts()] == ["1", "2", "3"]
    expect(issues.nth(2)).to_contain_text("not UTF-8")
    page.screenshot(path=screenshots / "datasets-import-rejected.png", full_page=True)
    assert not Pair.objects.exists()

    # Two files, detected: the good lines imported, each bad one listed with file and line.
    page.goto(f"{base}/projects/{project.pk}/datasets/import/")  # type: ignore[attr-defined]
    page.fill("#id_name", "Released pairs")
    page.set_input_files(
        "#id_files", [str(DATA / "blimp_some_bad.jsonl"), str(DATA / "island-effects-adjunct_island.txt")]
    )
    page.select_option("#id_source_format", "auto")
    page.check("input[name=zorro_order][value=good-first]")
    page.click("button:has-text('Import')")
    expect(page.locator("h2.dataset-title")).to_have_text("Released pairs")
    expect(page.locator(".import-job")).to_contain_text("4 pairs in 2 paradigms from 2 files")
    expect(page.locator(".read-only")).to_contain_text("cannot be regenerated or edited")
    expect(page.locator("text=Cancel generation")).to_have_count(0)
    report = page.locator("tr.import-issue")
    expect(report).to_have_count(3)
    expect(report.nth(0)).to_contain_text("blimp_some_bad.jsonl")
    expect(page.locator("tr.import-issue:has-text('no partner')")).to_contain_text("Skipped")
    expect(page.locator("tr.paradigm-row")).to_have_count(2)
    page.screenshot(path=screenshots / "datasets-import-detail.png", full_page=True)

    # The ZhoBLiMP layout downloads with Zorro's pairs read good-first.
    with page.expect_download() as download_info:
        page.click("a[data-format=zhoblimp]")
    target = tmp_path / "pairs.jsonl"
    download_info.value.save_as(target)
    lines = [orjson.loads(line) for line in target.read_bytes().splitlines()]
    zorro = [line for line in lines if line["UID"] == "island-effects-adjunct_island"]
    assert zorro[0]["sentence_good"] == "what did robert eat the kiss while facing ?"
    assert zorro[0]["pairID"] == 0 and zorro[0]["phenomenon"] == "island-effects"

    # Pairs, each with where it was read.
    page.click("a.button:has-text('Browse pairs')")
    expect(page.locator("tr.pair")).to_have_count(4)
    page.locator("tr.pair").first.locator("a.provenance-link").click()
    expect(page.locator(".provenance.source")).to_contain_text("blimp_some_bad.jsonl")
    expect(page.locator(".provenance.source")).to_contain_text("line 1")
    page.screenshot(path=screenshots / "datasets-import-pairs.png", full_page=True)
