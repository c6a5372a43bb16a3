"""The preview stays in view while the grammar is edited (issue 16): docked at the bottom of a
1280x800 window, beside the grammar in a 1680-wide one, and foldable to its heading (the choice
kept). Before, it began 2,557 px down a 3,141 px page at 1280x800."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from mpp_studio.paradigms.models import Template
from tests.web.browser import needs_chromium
from tests.web.paradigms.editor_browser import open_editor, settle, type_into

pytest_plugins = [
    "tests.web.browser",
    "tests.web.paradigms.editor_support",
    "tests.web.paradigms.editor_browser",
]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


def _in_window(page: Page, selector: str) -> bool:
    box = _box(page, selector)
    height = page.viewport_size["height"]  # type: ignore[index]
    return box["y"] < height and box["y"] + box["height"] > 0


def test_the_preview_stays_in_view_while_editing(
    live_server: object, page: Page, screenshots: Path, editor: object, det_template: Template
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    open_editor(page, live_server, editor, det_template)
    settle(page)
    # Docked: the pairs show while the first position is edited (above the dock, not under it),
    # and still at the end of the grammar.
    page.evaluate("document.getElementById('good-0-id').scrollIntoView({block: 'center'})")
    assert _in_window(page, "#preview-card") and _in_window(page, "#good-0-id")
    first = _box(page, "#good-0-id")
    assert first["y"] + first["height"] <= _box(page, "#preview-card")["y"]
    assert _box(page, "#preview-card")["height"] <= 800 * 0.4 + 1
    expect(page.locator("#preview .pair").first).to_be_visible()
    page.locator("details.rule-guide").scroll_into_view_if_needed()
    assert _in_window(page, "#preview-card")
    preview_top = _box(page, "#preview-card")["y"]
    assert preview_top > 800 * 0.5  # docked at the bottom, the grammar above it
    page.screenshot(path=screenshots / "editor-preview-docked.png")

    # An edit shows in the docked preview without scrolling to it.
    page.evaluate("window.scrollTo(0, 0)")
    type_into(page, "#description", "Determiner agreement, edited with the preview in view.")
    assert _in_window(page, "#preview-card")

    # Folded to its heading, and still folded on the next visit.
    page.click(".preview-fold")
    expect(page.locator("#preview")).to_be_hidden()
    expect(page.locator(".preview-fold")).to_have_attribute("aria-expanded", "false")
    assert _box(page, "#preview-card")["height"] < 120
    page.reload()
    expect(page.locator("#preview")).to_be_hidden()
    page.click(".preview-fold")
    expect(page.locator("#preview")).to_be_visible()

    # A wide window: the preview beside the grammar, under the save bar, at any scroll.
    page.set_viewport_size({"width": 1680, "height": 1000})
    page.evaluate("window.scrollTo(0, 0)")
    grammar = _box(page, "#editor-body")
    preview = _box(page, "#preview-card")
    assert preview["x"] >= grammar["x"] + grammar["width"] - 1
    assert preview["y"] < 400
    page.locator("details.rule-guide").scroll_into_view_if_needed()
    assert _in_window(page, "#preview-card") and _box(page, "#preview-card")["y"] >= 0
    page.screenshot(path=screenshots / "editor-preview-beside.png")


def test_blimp_fields_are_set_in_the_table(
    live_server: object, page: Page, screenshots: Path, editor: object, det_template: Template
) -> None:
    open_editor(page, live_server, editor, det_template)
    page.click("details.blimp-options summary")
    type_into(page, "#blimp-field", "morphology")
    page.check("#blimp-one_prefix_method")
    settle(page)
    page.locator("details.blimp-options").scroll_into_view_if_needed()
    page.screenshot(path=screenshots / "editor-blimp-fields.png")
    page.click("button.save")
    expect(page.locator(".messages")).to_contain_text("Saved version 2 of det_noun_agreement.")
    text = det_template.latest_version().source_text  # type: ignore[union-attr]
    assert "blimp:" in text and "field: morphology" in text and "one_prefix_method:" in text
    # Back in the editor, the fields show what was saved.
    page.click("a:has-text('Edit')")
    expect(page.locator("#blimp-field")).to_have_value("morphology")
    expect(page.locator("#blimp-one_prefix_method")).to_be_checked()


def test_one_row_agrees_with_one_position_and_differs_from_another(
    live_server: object, page: Page, screenshots: Path, editor: object, det_template: Template
) -> None:
    open_editor(page, live_server, editor, det_template)
    # The bad determiner differs from the noun in number, and agrees with the good one in pos.
    page.select_option("#bad-0-also", "det")
    settle(page)
    type_into(page, "#bad-0-also_on", "pos")
    expect(page.locator("#save-status")).to_contain_text("no problems")
    page.locator("#row-bad-0").screenshot(path=screenshots / "editor-agrees-and-differs.png")
    page.click("button.save")
    expect(page.locator(".messages")).to_contain_text("Saved version 2 of det_noun_agreement.")
    text = det_template.latest_version().source_text  # type: ignore[union-attr]
    assert "mismatched: {noun: number}" in text and "matched: {det: pos}" in text
    # Opened again, the row reads the one way the table writes such a position: agrees with the
    # good determiner on pos, and differs from the noun on number.
    page.click("a:has-text('Edit')")
    expect(page.locator("#bad-0-type")).to_have_value("matched")
    expect(page.locator("#bad-0-target")).to_have_value("det")
    expect(page.locator("#bad-0-on")).to_have_value("pos")
    expect(page.locator("#bad-0-also")).to_have_value("noun")
    expect(page.locator("#bad-0-also_on")).to_have_value("number")
    expect(page.locator("#save-status")).to_contain_text("no problems")
