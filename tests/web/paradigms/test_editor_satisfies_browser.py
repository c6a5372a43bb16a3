"""Selectional restrictions in the editor's table (issue 17): a Satisfies pair added in Chromium is
saved as `satisfies:`, previewed without problems, and shown again when the editor reopens."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from mpp_studio.paradigms.models import Template
from tests.web.browser import needs_chromium
from tests.web.paradigms.editor_browser import choose, click, open_editor, settle, type_into

pytest_plugins = [
    "tests.web.browser",
    "tests.web.paradigms.editor_support",
    "tests.web.paradigms.editor_browser",
]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

SELECTION_CSV = """\
form,verb,noun,animate,edible,arg_2
ate,1,,,,edible=1
bothered,1,,,,animate=1
dog,,1,1,0,
apple,,1,0,1,
plate,,1,0,0,
"""
SELECTION_SCHEMA = """\
language: en
features:
  verb: {type: bool}
  noun: {type: bool}
  animate: {type: bool}
  edible: {type: bool}
  arg_2: {type: restriction}
"""
SELECTION_TEMPLATE = """\
uid: selection
phenomenon: selection
language: en
vocabulary: selection
good:
  - {direct: Walter}
  - {id: verb, lexical: {verb: "1"}}
  - {direct: the}
  - {id: obj, lexical: {noun: "1"}}
bad:
  - {same: "1"}
  - {same: verb}
  - {delete: "3"}
  - {same: obj}
"""


@pytest.fixture
def selection_template(project: object, owner: object) -> Template:
    """A project vocabulary with verbs restricting their objects, and a template not yet using it."""
    from mpp_studio.lexicon.engine import vocabulary_parse
    from mpp_studio.lexicon.services.vocabularies import vocabulary_create_from_lexicon
    from mpp_studio.paradigms.services import template_save

    lexicon = vocabulary_parse(
        file_name="selection.csv", items_text=SELECTION_CSV, schema_text=SELECTION_SCHEMA
    ).lexicon
    vocabulary_create_from_lexicon(project=project, lexicon=lexicon, name="selection")  # type: ignore[arg-type]
    version = template_save(project=project, source_text=SELECTION_TEMPLATE, user=owner)  # type: ignore[arg-type]
    assert version.problems == [], version.problems
    return version.template  # type: ignore[no-any-return]


def test_a_satisfies_pair_is_saved_previewed_and_shown_again(
    live_server: object, page: Page, screenshots: Path, editor: object, selection_template: Template
) -> None:
    open_editor(page, live_server, editor, selection_template)
    settle(page)
    # Without the restriction Walter may bother the plate: 2 verbs x 3 nouns.
    expect(page.locator("#preview")).to_contain_text("Walter bothered the plate")
    click(page, "#row-good-3 button[value='add-sat good 3']")
    choose(page, "#good-3-sat-0-target", "verb")
    type_into(page, "#good-3-sat-0-column", "arg_2")
    expect(page.locator("#save-status")).to_contain_text("no problems")
    # With it, only "ate the apple" and "bothered the dog" are left.
    expect(page.locator("#preview")).not_to_contain_text("plate")
    page.locator("#row-good-3").screenshot(path=screenshots / "editor-satisfies.png")
    page.click("button.save")
    expect(page.locator(".messages")).to_contain_text("Saved version 2 of selection.")
    text = selection_template.latest_version().source_text  # type: ignore[union-attr]
    assert '{id: obj, lexical: {noun: "1"}, satisfies: {verb: arg_2}}' in text
    page.click("a:has-text('Edit')")
    expect(page.locator("#good-3-sat-0-target")).to_have_value("verb")
    expect(page.locator("#good-3-sat-0-column")).to_have_value("arg_2")
