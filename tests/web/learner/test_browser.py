"""A real browser (Debian's Chromium, driven by Playwright) turns the demo learner corpus into
triplets: an editor uploads the TSV with its metadata (the files are read by a job, here a
thread standing in for the worker, while the corpus page follows it), starts a run (its tasks
run eagerly, in the web server's process), reads the yield report, filters the triplets by error
type and L1, and downloads them as BLiSS JSONL. Screenshots go to `var/screenshots/learner-*.png`.
"""

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import PASSWORD
from tests.web.learner.conftest import BLISS_KEYS, DEMO_META, DEMO_TSV

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


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
def reader() -> Iterator[threading.Semaphore]:
    """A thread per queued corpus read, as a worker would take the message once the request
    commits; each waits for a release of the returned semaphore, so the page can be seen while
    its job waits."""
    from django.db import connection

    from mpp_studio.learner.services import corpus_read
    from mpp_studio.learner.tasks import read_corpus

    go = threading.Semaphore(0)

    def work(corpus_id: int) -> None:
        try:
            go.acquire(timeout=60)
            corpus_read(corpus_id=corpus_id)
        finally:
            connection.close()

    with mock.patch.object(
        read_corpus, "delay", lambda corpus_id: threading.Thread(target=work, args=(corpus_id,)).start()
    ):
        yield go


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Tasks run where they are sent (here: in the live server's thread, once a run is made)."""
    from mpp_studio.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def test_browser_uploads_runs_filters_and_downloads_triplets(
    live_server: object,
    editor: object,
    project: object,
    page: Page,
    screenshots: Path,
    tmp_path: Path,
    eager_tasks: None,
    reader: threading.Semaphore,
) -> None:
    from mpp_studio.learner.models import TripletRun

    base = str(live_server.url)  # type: ignore[attr-defined]
    page.goto(f"{base}/projects/{project.pk}/learner/")  # type: ignore[attr-defined]
    sign_in(page, editor.get_username(), PASSWORD)  # type: ignore[attr-defined]
    expect(page.locator("h2")).to_have_text("Learner corpora")
    expect(page.locator(".project-tab.active")).to_have_text("Learner corpora")
    page.click("a.button:has-text('Upload a corpus')")
    expect(page.locator("h2")).to_have_text("Upload a learner corpus")

    # A table without the learner and corrected columns: the job fails in words, the reason listed
    # with its file and line, no pair kept and no run offered.
    unusable = tmp_path / "unusable.tsv"
    unusable.write_text("original\tfixed\nHe go .\tHe goes .\n", encoding="utf-8")
    page.fill("#id_name", "Unusable")
    page.set_input_files("#id_file", str(unusable))
    page.click("button:has-text('Upload')")
    expect(page.locator("h2.corpus-title")).to_have_text("Unusable")
    reader.release()
    expect(page.locator(".read-job .job-status")).to_have_attribute("data-status", "failed", timeout=30_000)
    expect(page.locator(".read-job")).to_contain_text("No pair could be read from unusable.tsv")
    issue = page.locator("tr.import-issue.issue-error")
    expect(issue).to_have_count(1)
    expect(issue).to_contain_text("the header has no column 'learner', 'corrected'")
    expect(issue.locator("td.num")).to_have_text("1")
    expect(page.locator("button:has-text('Make triplets')")).to_have_count(0)
    page.screenshot(path=screenshots / "learner-corpus-failed.png", full_page=True)
    page.click("p.crumbs a")
    expect(page.locator("tr.corpus-row")).to_contain_text("Not stored")
    page.click("a.button:has-text('Upload a corpus')")

    page.fill("#id_name", "Demo learners")
    page.check("input[name=source_format][value=parallel]")
    page.set_input_files("#id_file", str(DEMO_TSV))
    page.set_input_files("#id_metadata_file", str(DEMO_META))
    page.screenshot(path=screenshots / "learner-upload.png", full_page=True)
    page.click("button:has-text('Upload')")

    # The corpus page at once, following the job that reads the files.
    pairs = len(DEMO_TSV.read_text(encoding="utf-8").strip().splitlines()) - 1
    expect(page.locator("h2.corpus-title")).to_have_text("Demo learners")
    expect(page.locator(".messages")).to_contain_text("“Demo learners” is being read")
    expect(page.locator(".read-job .job-status")).to_have_attribute("data-status", "queued")
    expect(page.locator("button:has-text('Make triplets')")).to_have_count(0)
    page.screenshot(path=screenshots / "learner-corpus-reading.png", full_page=True)
    reader.release()  # the worker reads the files; the page swaps in the pairs and the report
    expect(page.locator(".read-job .job-status")).to_have_attribute("data-status", "done", timeout=30_000)
    expect(page.locator(".read-job")).to_contain_text(f"Corpus “Demo learners” uploaded: {pairs} pairs.")
    expect(page.locator(".pair-count")).to_have_text(str(pairs))
    expect(page.locator(".import-clean")).to_have_text("Every line was read as it was.")
    expect(page.locator("table.l1-counts")).to_contain_text("Chinese")
    # (A full-page screenshot resizes the view for a moment: take it before using the form.)
    page.screenshot(path=screenshots / "learner-corpus.png", full_page=True)
    page.fill("#id_chunk_size", "100")
    page.click("button:has-text('Make triplets')")

    # The run's page: its four tasks ran eagerly (spaCy loads first: the answer takes a while),
    # so the job is done and the report complete.
    expect(page.locator("h2.run-title")).to_have_text("Triplets of Demo learners", timeout=180_000)
    expect(page.locator(".job-status")).to_have_attribute("data-status", "done")
    expect(page.locator(".chunk-counts")).to_contain_text("Tasks: 4 done, 0 pending.")
    expect(page.locator("dd.pairs-in")).to_have_text(str(pairs))
    run = TripletRun.objects.get()
    total = run.triplet_total
    assert total
    expect(page.locator("dd.triplet-total")).to_have_text(f"{total:,}")
    expect(page.locator("tr.yield-row").first).to_be_visible()
    expect(page.locator("a.dataset-link")).to_have_text(
        re.compile(r"^Demo learners triplets \(seed \d+(, strict rules)?\)$")
    )
    page.screenshot(path=screenshots / "learner-run.png", full_page=True)

    # A cell of the yield report opens the pairs it counts.
    page.locator("tr.yield-row a.drill-down").first.click()
    expect(page.locator("p.dropped-count")).to_be_visible()
    expect(page.locator("tr.dropped-pair td.learner-sentence").first).to_be_visible()
    page.screenshot(path=screenshots / "learner-dropped.png", full_page=True)
    page.go_back()

    # The browser, filtered by the type of the first triplet and by an L1.
    page.click("a.button:has-text('Browse triplets')")
    first = page.locator("li.triplet").first
    error_type = first.get_attribute("data-type") or ""
    l1 = first.get_attribute("data-l1") or ""
    assert error_type and l1
    page.select_option("#id_type", error_type)
    page.select_option("#id_l1", l1)
    page.click("button:has-text('Show')")
    query = f"?type={error_type.replace(':', '%3A')}&l1={l1}&cefr="
    expect(page).to_have_url(f"{base}/projects/{project.pk}/learner/runs/{run.pk}/triplets/{query}")  # type: ignore[attr-defined]
    shown = page.locator("li.triplet")
    count = shown.count()
    assert count >= 1
    for i in range(count):
        assert shown.nth(i).get_attribute("data-type") == error_type
        assert shown.nth(i).get_attribute("data-l1") == l1
    expect(shown.first.locator("dd.corrected mark").first).to_be_visible()
    # Where each artificial error comes from: the corpus' learners, or a rule.
    origins = page.locator("li.triplet span.origin")
    assert origins.count() == count
    assert all(
        re.match(r"^(learnt from the corpus|a rule)", origins.nth(i).inner_text()) for i in range(count)
    )
    page.screenshot(path=screenshots / "learner-triplets.png", full_page=True)

    # The filtered JSONL: BLiSS records of that type and L1 only.
    with page.expect_download() as download_info:
        page.click("a.export-link[data-format=jsonl]")
    target = tmp_path / "triplets.jsonl"
    download_info.value.save_as(target)
    records = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert len(records) == count or (count == 25 and len(records) >= count)
    assert all(r["error_type"] == error_type and r["L1"] == l1 for r in records)
    assert all(set(r) >= BLISS_KEYS and "chunk" not in r for r in records)
