"""What the template editor says about a template before it is saved (Chromium).

A Move left where its word already is used to be reported as valid ("no problems", a capacity)
while the preview made no pair; it is now a problem beside its row until the row is moved.
"""

from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Page, expect

from mpp_studio.paradigms.models import Template
from tests.web.browser import needs_chromium
from tests.web.paradigms.editor_browser import choose, click, open_editor, settle, shot

pytest_plugins = [
    "tests.web.browser",
    "tests.web.paradigms.editor_support",
    "tests.web.paradigms.editor_browser",
]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def test_a_move_left_in_place_is_a_problem_until_the_word_moves(
    live_server: object, page: Page, screenshots: Path, editor: object, det_template: Template
) -> None:
    open_editor(page, live_server, editor, det_template)
    expect(page.locator("#preview .badge-ok")).to_have_text("no problems")

    choose(page, "#bad-2-type", "move")  # `same: verb` becomes `move: verb`, still in its place
    expect(page.locator("#bad-2-target")).to_have_value("verb")
    row_problems = page.locator("#problems-bad-2")
    expect(row_problems).to_contain_text("E_EDIT")
    expect(row_problems).to_contain_text("'move: verb' leaves the word where it is")
    expect(page.locator("#preview .badge-problem")).to_have_text("1 problem")
    expect(page.locator("#preview .capacity")).to_contain_text("not counted")
    expect(page.locator(".save-bar #save-status")).to_have_text("1 problem")  # in view while editing
    page.locator("#row-bad-2").screenshot(path=screenshots / "editor-move-in-place.png")

    click(page, "button[value='down bad 2']")  # the verb now comes after the full stop
    expect(page.locator("#bad-3-type")).to_have_value("move")
    expect(page.locator("#problems-bad-3")).to_be_empty()
    expect(page.locator("#preview .badge-ok")).to_have_text("no problems")
    expect(page.locator(".save-bar #save-status")).to_contain_text("no problems")
    expect(page.locator(".save-bar #save-status")).to_contain_text("capacity")
    expect(page.locator("#preview tr.pair td.edit").first).to_contain_text("move")
    shot(page, screenshots / "editor-move-placed.png")


def test_removing_a_position_asks_first(
    live_server: object, page: Page, editor: object, det_template: Template
) -> None:
    open_editor(page, live_server, editor, det_template)
    rows = page.locator(".grammar-good li.position")
    expect(rows).to_have_count(4)
    questions: list[str] = []

    def answer(dialog: Dialog) -> None:
        questions.append(dialog.message)
        if len(questions) == 1:
            dialog.dismiss()
        else:
            dialog.accept()

    page.on("dialog", answer)
    page.click("button[value='remove good 3']")
    expect(rows).to_have_count(4)  # kept: the author said no
    assert questions == [
        "Remove position 4 (stop) of the good grammar? Until you save, the last saved version still has it."
    ]
    click(page, "button[value='remove good 3']")
    expect(rows).to_have_count(3)
    assert len(questions) == 2


def test_the_table_tab_says_why_it_cannot_read_broken_yaml_and_where(
    live_server: object, page: Page, screenshots: Path, editor: object, det_template: Template
) -> None:
    open_editor(page, live_server, editor, det_template)
    click(page, "button[value='to-yaml']")
    text = page.locator("#yaml_text")
    broken = text.input_value().replace("{id: det, matched: noun", "{id: det, matched: [noun", 1)
    line = next(i for i, row in enumerate(broken.splitlines(), start=1) if "[noun" in row)
    text.fill(broken)
    # The preview the typing asked for (600 ms later) says where, beside the text, with its line.
    beside = page.locator("#problems-field-yaml_text")
    expect(beside).to_contain_text(f"E_SYNTAX line {line} this is not valid YAML")
    settle(page)
    click(page, "button[value='to-table']")
    expect(beside).to_contain_text(f"cannot be shown in the table until it is fixed (line {line}")
    page.wait_for_timeout(1500)  # a preview arriving later must not sweep the reason away
    settle(page)
    expect(beside).to_contain_text(f"fixed (line {line}: this is not valid YAML")
    expect(page.locator("#yaml_text")).to_be_visible()
    page.locator(".yaml-pane").screenshot(path=screenshots / "editor-yaml-broken.png")

    text.fill(broken.replace("[noun", "noun", 1))
    settle(page)
    click(page, "button[value='to-table']")
    expect(page.locator("#good-0-target")).to_have_value("noun")
