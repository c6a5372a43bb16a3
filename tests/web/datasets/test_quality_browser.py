"""A viewer opens a paradigm's quality report from the dataset page in a real browser (Chromium).

The dataset is generated in this process; the live server has one tiny tokenizer configured in
MPP_TOKENIZERS. The viewer reads the figures, switches the frequency source and the paradigm,
and turns the tokenizer off. Screenshots go to var/screenshots/datasets-quality-*.png.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from mpp_studio.datasets.models import Dataset
from tests.vocab.tiny_tokenizers import build_wordpiece
from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import PASSWORD

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    # Playwright's sync API runs an event loop in this thread; the test's ORM calls are plain code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser, width=1280, height=1000)
        yield page
        page.context.close()


def test_viewer_reads_a_paradigm_quality_report(
    live_server: object,
    page: Page,
    screenshots: Path,
    generated: Dataset,
    viewer: object,
    settings: object,
    tmp_path: Path,
) -> None:
    settings.MPP_TOKENIZERS = {"tiny-wp": str(build_wordpiece(tmp_path / "wp"))}  # type: ignore[attr-defined]
    base = str(live_server.url)  # type: ignore[attr-defined]
    page.goto(f"{base}/projects/{generated.project_id}/datasets/{generated.pk}/")
    sign_in(page, viewer.get_username(), PASSWORD)  # type: ignore[attr-defined]

    # From the dataset's paradigm table to the English paradigm's report.
    row = page.locator("tr.paradigm-row[data-uid='en_sv_agreement']")
    row.locator("a.quality-link").click()
    expect(page.locator("h2.quality-title")).to_contain_text("en_sv_agreement")
    expect(page.locator("#id_tokenizer")).to_have_value("tiny-wp")
    lengths = page.locator(".quality-length tbody tr")
    expect(lengths).to_have_count(3)
    expect(lengths.nth(0)).to_contain_text("+1.00")  # "sleeps" against "sleep"
    expect(lengths.nth(2)).to_contain_text("Tokens (tiny-wp)")
    expect(page.locator(".quality-oov .oov-types")).to_contain_text("of")
    expect(page.locator(".frequency-shares")).to_contain_text("Source wordfreq")
    page.screenshot(path=screenshots / "datasets-quality-en.png", full_page=True)

    # Another frequency source, then no tokenizer: the page recomputes and says what is left out.
    page.select_option("#id_frequency", "written")
    page.click("button:has-text('Recompute')")
    expect(page.locator(".frequency-shares")).to_contain_text("Source written")
    page.select_option("#id_tokenizer", "")
    page.click("button:has-text('Recompute')")
    expect(page.locator(".quality-length tbody tr")).to_have_count(2)
    expect(page.locator(".quality-oov")).to_contain_text("Choose a tokenizer")

    # The paradigm menu opens the Chinese paradigm's report.
    page.select_option("#id_paradigm", label="zh_classifier_noun")
    expect(page.locator("h2.quality-title")).to_contain_text("zh_classifier_noun")
    expect(page.locator(".quality-repetition")).to_contain_text("distinct words")
    page.screenshot(path=screenshots / "datasets-quality-zh.png", full_page=True)
