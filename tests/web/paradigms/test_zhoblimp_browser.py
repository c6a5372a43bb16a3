"""A real browser imports a ZhoBLiMP project: a rejected upload first, then the whole project.

The files are converted by a background job (here a thread standing in for the worker): the page
answers at once and the import's page follows the job, then shows what was stored and the report.
Screenshots go to `var/screenshots/zhoblimp-*.png` for a person to look at.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from mpp_studio.accounts.models import Membership, Project
from mpp_studio.accounts.roles import Role
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.paradigms.models import Template
from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-for-the-browser"
DATA = Path(__file__).resolve().parents[2] / "generator" / "importers" / "data" / "zhoblimp"


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are plain.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser)
        yield page
        page.context.close()


def test_browser_imports_a_zhoblimp_project_with_its_report(
    live_server: object, page: Page, screenshots: Path, import_worker: None
) -> None:
    user = get_user_model().objects.create_user(username="ling", password=PASSWORD)
    project = Project.objects.create(name="Chinese study", created_by=user)
    Membership.objects.create(project=project, user=user, role=Role.OWNER)
    base = str(live_server.url)  # type: ignore[attr-defined]

    page.goto(base + f"/accounts/login/?next=/projects/{project.pk}/templates/")
    sign_in(page, "ling", PASSWORD)
    page.click("text=Import a ZhoBLiMP project")
    expect(page.locator("h2")).to_have_text("Import a ZhoBLiMP project")

    # Templates without their vocabulary: refused, nothing stored, the reason on the page.
    templates = sorted(str(p) for p in (DATA / "templates").glob("*.json"))
    page.set_input_files("#id_files", templates)
    page.click("form.upload-form button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("is being imported")
    expect(page.locator(".job-status")).to_have_attribute("data-status", "queued")
    expect(page.locator(".job-failure")).to_contain_text("exactly one .tsv")
    expect(page.locator("#import-rejected")).to_contain_text("nothing of this upload was stored")
    page.screenshot(path=str(screenshots / "zhoblimp-rejected.png"), full_page=True)
    assert not Template.objects.exists() and not Vocabulary.objects.exists()
    page.click("#import-rejected >> text=Import the files again")

    # The whole project plus one malformed template: stored, and the report lists each item.
    files = [
        *templates,
        str(DATA / "malformed" / "eval_index.json"),
        str(DATA / "vocab.tsv"),
        str(DATA / "phrases.json"),
    ]
    page.set_input_files("#id_files", files)
    page.fill("#id_vocabulary_name", "zh_imported")
    page.click("form.upload-form button[type=submit]")
    expect(page.locator("#import-outcome h3")).to_have_text("Imported 7 templates")
    expect(page.locator(".job-status")).to_contain_text(
        "Imported 7 templates with the vocabulary “zh_imported”"
    )
    report = page.locator("#import-report")
    expect(report.locator("tr.import-note.level-skipped", has_text="eval_index.json")).to_contain_text(
        "good_rule[1]"
    )
    expect(report.locator("tr.import-note", has_text="bad_rule[3]")).to_contain_text("ambiguous")
    # per strict_MP file: the option it sets, and what the option changes with this vocabulary
    expect(report.locator("tr.import-note", has_text="strict_MP")).to_have_count(6)
    expect(report.locator("tr.import-note", has_text="changes nothing")).to_have_count(3)
    page.screenshot(path=str(screenshots / "zhoblimp-report.png"), full_page=True)

    # Each imported template opens, with no problems to fix.
    page.click("#import-outcome >> text=BA_inversion")
    expect(page.locator("body")).to_contain_text("BA_inversion")
    assert Template.objects.count() == 7
    assert Vocabulary.objects.get().name == "zh_imported"
