"""A linguist builds a paradigm from scratch in the template editor, in a real browser (Chromium).

Every rule type is used (Lexical with a form, Direct, Matched, Mismatched, Phrase; in the bad
grammar Same with a form, Move and Delete), the live preview is watched as the template grows,
an unknown feature value shows its error beside its row until it is fixed, the YAML view is
visited and left, and two versions are saved. Screenshots go to var/screenshots/editor-*.png.
"""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from mpp_studio.paradigms.models import Template
from tests.web.browser import needs_chromium, sign_in
from tests.web.conftest import PASSWORD
from tests.web.paradigms.editor_browser import (
    add_position,
    choose,
    click,
    feature,
    set_rule,
    shot,
    type_into,
)

pytest_plugins = [
    "tests.web.browser",
    "tests.web.paradigms.editor_support",
    "tests.web.paradigms.editor_browser",
]

pytestmark = [
    needs_chromium,
    pytest.mark.django_db(transaction=True),
]


def test_editor_builds_a_paradigm_from_scratch_and_saves_two_versions(
    live_server: object,
    page: Page,
    screenshots: Path,
    editor: object,
    project: object,
    animals: object,
    place_phrase: object,
) -> None:
    base = str(live_server.url)  # type: ignore[attr-defined]
    page.goto(base + "/accounts/login/")
    sign_in(page, editor.get_username(), PASSWORD)  # type: ignore[attr-defined]

    # The empty list offers "New template".
    page.goto(f"{base}/projects/{project.pk}/templates/")  # type: ignore[attr-defined]
    expect(page.locator(".empty")).to_contain_text("no templates yet")
    page.click("a:has-text('New template')")
    expect(page.locator("h2.editor-title")).to_have_text("New template")
    expect(page.locator("#vocabulary")).to_have_value("animals")
    expect(page.locator("#language")).to_have_value("en")
    shot(page, screenshots / "editor-new.png")

    type_into(page, "#uid", "det_noun_agreement_built")
    type_into(page, "#phenomenon", "determiner_noun_agreement")
    type_into(page, "#description", "A demonstrative agrees in number with its noun.")
    type_into(page, "#example_good", "These dogs sleep near the cat today.")
    type_into(page, "#example_bad", "This dogs sleeps the cat near.")

    # Good grammar: det (Matched), noun (Lexical), verb (Lexical + form), prep (Direct),
    # place (Phrase), adv (Direct), stop (Direct).
    set_rule(page, "good", 0, "matched")
    type_into(page, "#good-0-id", "det")
    feature(page, "good", 0, 0, "pos", "DT")
    assert add_position(page, "good") == 1
    type_into(page, "#good-1-id", "noun")
    feature(page, "good", 1, 0, "pos", "NN")
    feature(page, "good", 1, 1, "number", "pl")
    choose(page, "#good-0-target", "noun")
    type_into(page, "#good-0-on", "number")
    assert add_position(page, "good") == 2
    type_into(page, "#good-2-id", "verb")
    feature(page, "good", 2, 0, "pos", "VB")
    choose(page, "#good-2-form", "VBP")
    for row, (pid, words) in enumerate((("prep", "near | behind"),), start=3):
        assert add_position(page, "good") == row
        set_rule(page, "good", row, "direct")
        type_into(page, f"#good-{row}-id", pid)
        type_into(page, f"#good-{row}-words", words)
    assert add_position(page, "good") == 4
    set_rule(page, "good", 4, "phrase")
    type_into(page, "#good-4-id", "place")
    choose(page, "#good-4-phrase", "Place")
    for row, (pid, words) in enumerate((("adv", "today | again"), ("stop", ".")), start=5):
        assert add_position(page, "good") == row
        set_rule(page, "good", row, "direct")
        type_into(page, f"#good-{row}-id", pid)
        type_into(page, f"#good-{row}-words", words)

    # Bad grammar: start from a copy of the good sentence, then change what differs.
    click(page, "button[value='bad-from-good']")
    expect(page.locator("#editor-body .grammar-bad li.position")).to_have_count(7)
    set_rule(page, "bad", 0, "mismatched")
    type_into(page, "#bad-0-id", "det_bad")
    choose(page, "#bad-0-target", "noun")
    type_into(page, "#bad-0-on", "number")
    feature(page, "bad", 0, 0, "pos", "DT")
    choose(page, "#bad-2-form", "VBZ")  # Same verb, re-inflected
    # "near" moves behind the place phrase: the bad rows become ... place, move prep, delete adv, stop.
    click(page, "button[value='down bad 3']")
    expect(page.locator("#bad-3-target")).to_have_value("place")
    set_rule(page, "bad", 4, "move")
    expect(page.locator("#bad-4-target")).to_have_value("prep")
    set_rule(page, "bad", 5, "delete")
    expect(page.locator("#bad-5-target")).to_have_value("adv")

    # The preview: ten pairs, each with its critical region marked, and the capacity.
    pairs = page.locator("#preview tr.pair")
    expect(pairs).to_have_count(10)
    expect(page.locator("#preview .capacity")).to_contain_text("384")
    expect(page.locator("#preview .badge-ok")).to_have_text("no problems")
    expect(page.locator("#preview tr.pair td.good mark").first).to_be_visible()
    expect(page.locator("#preview tr.pair td.edit").first).to_have_text(
        "substitution, substitution, deletion, move"
    )
    shot(page, screenshots / "editor-built.png")

    # An unknown value: the error appears beside its row, and the pairs go; fixed, they come back.
    type_into(page, "#good-1-feat-1-value", "dual")
    noun_problems = page.locator("#problems-good-1")
    expect(noun_problems).to_contain_text("E_UNKNOWN_VALUE")
    expect(noun_problems).to_contain_text("dual")
    expect(pairs).to_have_count(0)
    expect(page.locator("#preview .problem-list")).to_contain_text("good grammar, position 2 (noun)")
    shot(page, screenshots / "editor-problem.png")
    page.locator(".grammars").screenshot(path=screenshots / "editor-problem-rows.png")
    type_into(page, "#good-1-feat-1-value", "pl")
    expect(noun_problems).to_be_empty()
    expect(pairs).to_have_count(10)

    # The YAML view shows the same template; back in the table, the rows are as they were.
    click(page, "button[value='to-yaml']")
    yaml_text = page.locator("#yaml_text")
    expect(yaml_text).to_be_visible()
    text = yaml_text.input_value()
    assert "uid: det_noun_agreement_built" in text
    assert "  - {id: det, matched: noun, on: number, lexical: {pos: DT}}" in text
    assert "  - {same: verb, form: VBZ}" in text
    assert "  - {move: prep}" in text
    expect(pairs).to_have_count(10)
    shot(page, screenshots / "editor-yaml.png")
    click(page, "button[value='to-table']")
    expect(page.locator("#good-4-phrase")).to_have_value("Place")
    expect(page.locator("#bad-4-type")).to_have_value("move")
    expect(page.locator("#editor-body .grammar-good li.position")).to_have_count(7)

    # Save: version 1, shown on the template's page.
    page.fill("#note", "first draft")
    page.click("button.save")
    expect(page.locator(".message.success")).to_contain_text("Saved version 1 of det_noun_agreement_built")
    expect(page.locator(".version-badge")).to_have_text("version 1 (latest)")
    expect(page.locator("tr.pair")).to_have_count(10)
    shot(page, screenshots / "editor-saved.png")

    # Edit again: "today | again" becomes "today | again | now"; save version 2.
    page.click("a.button:has-text('Edit')")
    expect(page.locator("h2.editor-title")).to_contain_text("det_noun_agreement_built")
    expect(page.locator("button.save")).to_have_text("Save version 2")
    type_into(page, "#good-5-words", "today | again | now")
    expect(page.locator("#preview .capacity")).to_contain_text("576")
    page.fill("#note", "a third adverb")
    page.click("button.save")
    expect(page.locator(".message.success")).to_contain_text("Saved version 2")
    rows = page.locator(".versions-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("a third adverb")
    expect(rows.nth(1)).to_contain_text("first draft")
    shot(page, screenshots / "editor-versions.png")

    template = Template.objects.get(uid="det_noun_agreement_built")
    assert [v.number for v in template.versions.order_by("number")] == [1, 2]
    assert "today, again, now" in template.versions.get(number=2).source_text
    assert template.versions.get(number=1).note == "first draft"

    # The list shows the template with its capacity.
    page.click("nav.crumbs a:has-text('Templates')")
    expect(page.locator("table.templates a.uid")).to_have_text("det_noun_agreement_built")
    expect(page.locator("table.templates td.example")).to_contain_text("These dogs sleep near the cat today.")
    expect(page.locator("table.templates td.capacity")).to_have_text("576")
    shot(page, screenshots / "editor-list.png")
