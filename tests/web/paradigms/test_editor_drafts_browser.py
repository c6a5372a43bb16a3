"""Leaving the editor with unsaved changes asks first, and the draft comes back (Chromium).

Any link used to leave the editor and drop the edits. Now every change is kept as the user's
draft a moment after it is made; a link asks before leaving; the draft is offered when the
editor is opened again; a saved version ends it.
"""

from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Page, expect

from mpp_studio.paradigms.models import Template, TemplateDraft
from tests.web.browser import needs_chromium
from tests.web.paradigms.editor_browser import open_editor, replace_text, settle, shot

pytest_plugins = [
    "tests.web.browser",
    "tests.web.paradigms.editor_support",
    "tests.web.paradigms.editor_browser",
]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_leaving_asks_and_the_draft_is_offered_back(
    live_server: object, page: Page, screenshots: Path, editor: object, det_template: Template
) -> None:
    open_editor(page, live_server, editor, det_template)
    # Nothing changed yet: a link leaves without asking.
    asked: list[str] = []

    def note(dialog: Dialog) -> None:
        asked.append(dialog.type)
        dialog.accept()

    page.on("dialog", note)
    page.click("nav.crumbs a:has-text('Templates')")
    expect(page).to_have_url(f"{live_server.url}/projects/{det_template.project_id}/templates/")  # type: ignore[attr-defined]
    assert asked == []
    page.remove_listener("dialog", note)

    page.go_back()
    expect(page.locator("#good-3-words")).to_be_visible()
    replace_text(page, "#good-3-words", ". | !", 30)
    replace_text(page, "#description", "Kept as a draft.", 0)
    expect(page.locator(".draft-status")).to_contain_text("Draft kept at")
    settle(page)

    # A link now asks; staying keeps everything in the form.
    answers: list[str] = []

    def stay_then_leave(dialog: Dialog) -> None:
        answers.append(dialog.type)
        if len(answers) == 1:
            dialog.dismiss()
        else:
            dialog.accept()

    page.on("dialog", stay_then_leave)
    page.click("nav.crumbs a:has-text('Templates')")
    expect(page.locator("#description")).to_have_value("Kept as a draft.")
    assert answers == ["beforeunload"]
    page.click("nav.crumbs a:has-text('Templates')")
    expect(page.locator("h2.editor-title")).to_have_count(0)
    assert answers == ["beforeunload", "beforeunload"]

    draft = TemplateDraft.objects.get()
    assert draft.fields["good-3-words"] == ". | !" and draft.fields["description"] == "Kept as a draft."
    assert det_template.versions.count() == 1

    # Back in the editor: the latest version, with the draft offered; restored, it is all there.
    page.goto(f"{live_server.url}/projects/{det_template.project_id}/templates/{det_template.pk}/edit/")  # type: ignore[attr-defined]
    offer = page.locator(".draft-offer")
    expect(offer).to_contain_text("You have a draft of det_noun_agreement")
    expect(page.locator("#good-3-words")).to_have_value(".")
    shot(page, screenshots / "editor-draft-offer.png")
    offer.locator("a:has-text('Restore the draft')").click()
    expect(page.locator("#good-3-words")).to_have_value(". | !")
    expect(page.locator("#description")).to_have_value("Kept as a draft.")
    expect(page.locator(".draft-offer")).to_have_count(0)

    # Saving is not leaving: no question, a version, and the draft is gone.
    page.click("button.save")
    expect(page.locator(".messages")).to_contain_text("Saved version 2 of det_noun_agreement.")
    assert answers == ["beforeunload", "beforeunload"]
    assert not TemplateDraft.objects.exists()
    assert '"!"' in det_template.latest_version().source_text  # type: ignore[union-attr]


def test_saving_at_once_after_typing_leaves_no_draft_behind(
    live_server: object, page: Page, editor: object, det_template: Template
) -> None:
    open_editor(page, live_server, editor, det_template)
    replace_text(page, "#description", "Saved at once.", 0)
    page.click("button.save")  # before the draft's 0.8 s are up
    expect(page.locator(".messages")).to_contain_text("Saved version 2 of det_noun_agreement.")
    page.wait_for_timeout(1500)  # a draft sent as the editor unloaded would have arrived by now
    assert not TemplateDraft.objects.exists()
