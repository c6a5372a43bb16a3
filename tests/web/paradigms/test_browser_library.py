"""A real browser browses the library, imports two paradigms into a project and works with its phrases.

Screenshots go to `var/screenshots/library-*.png` and `phrases-*.png` for a person to look at.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from mpp_studio.accounts.models import Membership, Project
from mpp_studio.accounts.roles import Role
from mpp_studio.paradigms.models import Phrase, Template
from mpp_studio.paradigms.selectors import template_latest_list
from mpp_studio.paradigms.services import library_import
from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in

pytest_plugins = ["tests.web.browser"]

pytestmark = [
    needs_chromium,
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "pw-for-the-browser"
ENDLESS = "- [{direct: the}, {id: head, lexical: {pos: NN}}, {phrase: GenderedSubject}]\n"


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are plain.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser)
        yield page
        page.context.close()


def test_browser_imports_library_paradigms_and_edits_phrases(
    live_server: object, page: Page, screenshots: Path, tmp_path: Path, import_worker: None
) -> None:
    library_import(library_dir=Path(settings.GRAMMAR_LIBRARY_DIR))
    user = get_user_model().objects.create_user(username="ling", password=PASSWORD)
    project = Project.objects.create(name="Agreement study", created_by=user)
    Membership.objects.create(project=project, user=user, role=Role.OWNER)
    base = str(live_server.url)  # type: ignore[attr-defined]

    page.goto(base + "/accounts/login/?next=/library/")
    sign_in(page, "ling", PASSWORD)
    expect(page.locator("h1")).to_have_text("Paradigm library")

    # Filtering by language swaps the list in place (htmx) and puts the filter in the address.
    total = page.locator("a.uid").count()
    assert total >= 7
    page.select_option("#filter-language", "zh")
    expect(page.locator("a.uid")).to_have_count(sum(1 for t in template_latest_list() if t.language == "zh"))
    expect(page).to_have_url(re.compile(r"/library/\?language=zh"))
    expect(page.locator("td.example[lang=zh]").first).to_be_visible()
    page.screenshot(path=screenshots / "library-filtered.png", full_page=True)
    page.select_option("#filter-language", "")
    expect(page.locator("a.uid")).to_have_count(total)

    # Tick two paradigms and import them into the project.
    page.check("tr.paradigm:has(a.uid:has-text('classifier_noun_agreement_numeral')) input.pick")
    page.check("tr.paradigm:has(a.uid:has-text('anaphor_agreement_pronoun_gender')) input.pick")
    page.select_option("#import-project", str(project.pk))
    page.screenshot(path=screenshots / "library-list.png", full_page=False)
    page.click("#import-selected")
    # The import runs as a job (a thread here): its page answers at once and fills in as it goes.
    expect(page.locator("h1")).to_have_text("Import into Agreement study")
    expect(page.locator(".messages")).to_contain_text("2 paradigms are being imported")
    expect(page.locator(".import-summary")).to_contain_text("2 of 2 paradigms imported.")
    expect(page.locator("tr.import-result.imported")).to_have_count(2)
    expect(page.locator("tr.import-result").first).to_contain_text("The template is valid in the project")
    page.screenshot(path=screenshots / "library-import-report.png", full_page=True)
    assert set(Template.objects.filter(project=project).values_list("uid", flat=True)) == {
        "classifier_noun_agreement_numeral",
        "anaphor_agreement_pronoun_gender",
    }

    # The project's template list shows them.
    page.click("text=Open the project's templates")
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/templates/$"))
    expect(page.get_by_text("classifier_noun_agreement_numeral").first).to_be_visible()
    expect(page.get_by_text("anaphor_agreement_pronoun_gender").first).to_be_visible()
    page.screenshot(path=screenshots / "library-project-templates.png", full_page=True)

    # A paradigm's page offers the import and the download; importing again is refused by uid.
    page.goto(base + "/library/")
    page.click("a.uid:has-text('classifier_noun_agreement_numeral')")
    expect(page.locator("#use")).to_contain_text("Import into project…")
    expect(page.locator("tr.pair")).to_have_count(10)
    page.screenshot(path=screenshots / "library-detail.png", full_page=False)
    page.click("#use button[type=submit]")
    expect(page.locator("tr.import-result.skipped")).to_contain_text("already has a template with uid")

    # Phrases came with the English paradigm; each shows the templates that use it.
    page.goto(base + f"/projects/{project.pk}/phrases/")
    imported_phrases = Phrase.objects.filter(project=project).count()
    assert imported_phrases >= 2
    expect(page.locator("tr.phrase-row")).to_have_count(imported_phrases)
    expect(page.locator("tr.phrase-row:has(code:text-is('GenderedSubject')) .used-by")).to_contain_text(
        "anaphor_agreement_pronoun_gender"
    )
    page.screenshot(path=screenshots / "phrases-list.png", full_page=True)

    # Editing GenderedSubject into a phrase that never stops: the template that uses it is named.
    page.click("a.phrase-name:has-text('GenderedSubject')")
    expect(page.locator("li.recheck.valid")).to_have_count(1)
    page.fill("#id_text", "- [{direct: the}\n")
    page.click("button:has-text('Save')")
    expect(page.locator(".field-errors")).to_contain_text(
        "Line 1: this is not valid YAML: the [ opened on line 1"
    )
    page.screenshot(path=screenshots / "phrases-error.png", full_page=True)
    page.fill("#id_text", ENDLESS)
    page.click("button:has-text('Save')")
    expect(page.locator(".message.warning")).to_contain_text(
        "now has problems: anaphor_agreement_pronoun_gender"
    )
    expect(page.locator("li.recheck.invalid")).to_contain_text("E_NO_BASE_CASE")
    page.screenshot(path=screenshots / "phrases-recheck.png", full_page=True)

    # Deleting it is refused while the template uses it.
    page.click("text=Delete…")
    expect(page.locator("#in-use")).to_contain_text("anaphor_agreement_pronoun_gender")
    page.screenshot(path=screenshots / "phrases-delete-refused.png", full_page=True)

    # Uploading files: each is reported, a broken one with its line.
    good = tmp_path / "plain.yaml"
    good.write_text(
        Template.objects.get(project=project, uid="classifier_noun_agreement_numeral")
        .latest_version()
        .source_text.replace("uid: classifier_noun_agreement_numeral", "uid: classifier_copy"),  # type: ignore[union-attr]
        encoding="utf-8",
    )
    broken = tmp_path / "broken.yaml"
    broken.write_text("uid: broken\ngood: [\n", encoding="utf-8")
    page.goto(base + f"/projects/{project.pk}/templates/upload/")
    page.set_input_files("#id_files", [str(good), str(broken)])
    page.click("button:has-text('Upload')")
    expect(page.locator("tr.upload-result.stored")).to_contain_text("Stored as template 'classifier_copy'")
    expect(page.locator("tr.upload-result.rejected")).to_contain_text("line 3")
    page.screenshot(path=screenshots / "library-upload.png", full_page=True)
