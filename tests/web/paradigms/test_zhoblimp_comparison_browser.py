"""A real browser imports a ZhoBLiMP project with released data and reads the comparison.

The upload holds the fixture project and two released `.jsonl` files (one the templates make,
one they do not); the import's page then shows the summary, the verdicts explained and the UIDs,
the one not reproduced first, its differing profile opened. The screenshot goes to
`var/screenshots/zhoblimp-comparison.png` for a person to look at.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from generator.importers.zhoblimp import import_zhoblimp
from mpp_studio.accounts.models import Membership, Project
from mpp_studio.accounts.roles import Role
from tests.generator.importers.zhoblimp_files import (
    PHRASES,
    TEMPLATES,
    VOCAB,
    released_jsonl,
    source,
    template_sources,
)
from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in

pytest_plugins = ["tests.web.browser"]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-for-the-browser"


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are plain.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser)
        yield page
        page.context.close()


def test_browser_shows_the_comparison_with_the_released_data(
    live_server: object, page: Page, screenshots: Path, import_worker: None, tmp_path: Path
) -> None:
    imported = import_zhoblimp(template_sources(), vocabulary=source(VOCAB), phrases=source(PHRASES))
    (tmp_path / "BA_inversion.jsonl").write_bytes(released_jsonl(imported, "BA_inversion", 77, 40))
    (tmp_path / "classifier_mismatch.jsonl").write_bytes(
        released_jsonl(imported, "classifier_mismatch", 77, 40, bad_suffix="吗")
    )
    user = get_user_model().objects.create_user(username="ling", password=PASSWORD)
    project = Project.objects.create(name="Chinese study", created_by=user)
    Membership.objects.create(project=project, user=user, role=Role.OWNER)
    base = str(live_server.url)  # type: ignore[attr-defined]

    page.goto(base + f"/accounts/login/?next=/projects/{project.pk}/templates/import/zhoblimp/")
    sign_in(page, "ling", PASSWORD)
    files = [*sorted(TEMPLATES.glob("*.json")), VOCAB, PHRASES, *sorted(tmp_path.glob("*.jsonl"))]
    page.set_input_files("#id_files", [str(p) for p in files])
    page.click("form.upload-form button[type=submit]")

    comparison = page.locator("#import-comparison")
    expect(comparison.locator("#comparison-summary")).to_contain_text(
        "1 of 2 released UIDs in the released shape under seeds 1, 2"
    )
    rows = comparison.locator("tr.comparison-uid")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_have_attribute("data-uid", "classifier_mismatch")
    expect(rows.nth(0)).to_contain_text("not reproduced")
    expect(rows.nth(1)).to_contain_text("released shape")
    rows.nth(0).locator("summary", has_text="length differs").first.click()
    expect(rows.nth(0).locator("ul.top-differences").first).to_be_visible()
    page.screenshot(path=str(screenshots / "zhoblimp-comparison.png"), full_page=True)

    rows.nth(1).locator("a", has_text="BA_inversion").click()
    expect(page.locator("body")).to_contain_text("BA_inversion")
