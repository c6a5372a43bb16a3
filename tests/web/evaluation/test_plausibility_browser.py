"""A viewer opens a paradigm's quality report in a real browser (Chromium) and reads the least
plausible good sentences that htmx loads into it from stored causal scores, then switches the
configuration. Screenshot: var/screenshots/evaluation-plausibility.png."""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from mpp_studio.datasets.models import Dataset
from mpp_studio.evaluation.models import LanguageModel, ScoringRun
from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import PASSWORD
from tests.web.evaluation.conftest import store_score
from tests.web.evaluation.test_plausibility import EN_UID, distinct_goods, store_goods

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


def test_viewer_reads_the_least_plausible_good_sentences(
    live_server: object,
    page: Page,
    screenshots: Path,
    generated: Dataset,
    make_run: Callable[..., ScoringRun],
    gpt2_model: LanguageModel,
    viewer: object,
) -> None:
    config = make_run([gpt2_model]).configs.get()
    odd, _ = store_goods(config, generated)
    half = make_run([gpt2_model], dtype="bfloat16", name="Half").configs.get()  # listed first
    other = distinct_goods(generated)[1]
    store_score(half, other.good, [-9.0])
    base = str(live_server.url)  # type: ignore[attr-defined]
    page.goto(f"{base}/projects/{generated.project_id}/datasets/{generated.pk}/quality/{EN_UID}/")
    sign_in(page, viewer.get_username(), PASSWORD)  # type: ignore[attr-defined]

    section = page.locator("#plausibility")
    expect(section.locator(".plausibility-warning")).to_contain_text("biases the evaluation")
    expect(section.locator("table.plausibility tbody tr")).to_have_count(1)
    expect(section.locator("tbody tr").first).to_contain_text(other.good.text)

    page.select_option("#id_plausibility_config", str(config.pk))
    expect(section.locator("tbody tr").first).to_contain_text(odd.good.text)
    expect(section.locator("tbody tr").first).to_contain_text("-4.25")
    page.screenshot(path=screenshots / "evaluation-plausibility.png", full_page=True)
    section.locator("tbody tr").first.locator("a").click()
    expect(page).to_have_url(
        f"{base}/projects/{generated.project_id}/datasets/{generated.pk}/pairs/{odd.pair_id}/"
    )
