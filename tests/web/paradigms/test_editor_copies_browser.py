"""A template edited into another paradigm is saved as a copy, not renamed by accident (Chromium).

Changing a template's uid used to rename it silently: a deletion paradigm vanished into the
history of the move paradigm it was edited from. Saving with a new uid now asks "rename or new
template", the editor has "Save as new template", and a template's page has Duplicate.
"""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from mpp_studio.paradigms.models import Template
from tests.web.browser import needs_chromium
from tests.web.paradigms.editor_browser import choose, open_editor, settle, shot, type_into

pytest_plugins = [
    "tests.web.browser",
    "tests.web.paradigms.editor_support",
    "tests.web.paradigms.editor_browser",
]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_a_new_uid_asks_and_the_copy_leaves_the_original(
    live_server: object, page: Page, screenshots: Path, editor: object, det_template: Template
) -> None:
    open_editor(page, live_server, editor, det_template)
    type_into(page, "#uid", "det_noun_deletion")
    choose(page, "#bad-3-type", "delete")  # the full stop is left out of the bad sentence
    page.click("button.save")

    choice = page.locator(".uid-choice")
    expect(choice).to_contain_text("Nothing is saved yet.")
    expect(choice.locator("button.save-rename")).to_have_text(
        "Rename det_noun_agreement to det_noun_deletion"
    )
    expect(page.locator("#uid")).to_have_value("det_noun_deletion")
    expect(page.locator("#bad-3-type")).to_have_value("delete")  # the edits are all still there
    shot(page, screenshots / "editor-uid-choice.png")
    assert det_template.versions.count() == 1

    choice.locator("button.save-as-copy").click()
    expect(page.locator(".messages")).to_contain_text(
        "Saved det_noun_deletion as a new template (version 1); det_noun_agreement is unchanged."
    )
    copy = Template.objects.get(uid="det_noun_deletion")
    assert "{delete: stop}" in copy.latest_version().source_text  # type: ignore[union-attr]
    det_template.refresh_from_db()
    assert det_template.uid == "det_noun_agreement" and det_template.versions.count() == 1

    # The original's page duplicates it; the copy opens in the editor, the original stays.
    page.goto(f"{live_server.url}/projects/{det_template.project_id}/templates/{det_template.pk}/")  # type: ignore[attr-defined]
    page.click(".duplicate-form button")
    expect(page.locator(".messages")).to_contain_text("was copied as det_noun_agreement_copy")
    expect(page.locator("#uid")).to_have_value("det_noun_agreement_copy")
    settle(page)
    shot(page, screenshots / "editor-duplicated.png")
    assert Template.objects.filter(uid="det_noun_agreement_copy").count() == 1


def test_two_versions_are_compared_line_by_line_and_pair_by_pair(
    live_server: object, page: Page, screenshots: Path, editor: object, det_template: Template
) -> None:
    open_editor(page, live_server, editor, det_template)
    type_into(page, "#good-3-words", "!")
    type_into(page, "#note", "an exclamation")
    page.click("button.save")
    expect(page.locator(".messages")).to_contain_text("Saved version 2 of det_noun_agreement.")
    page.click("a.compare-link")
    expect(page.locator("h2")).to_contain_text("Compare versions of det_noun_agreement")
    expect(page.locator(".diff-removed")).to_contain_text('direct: "."')
    expect(page.locator(".diff-added")).to_contain_text('direct: "!"')
    expect(page.locator(".compare-pairs tr.pair")).to_have_count(20)
    expect(page.locator(".compare-pairs section").nth(1).locator("td.good").first).to_contain_text("!")
    page.screenshot(path=screenshots / "template-compare.png", full_page=True)
