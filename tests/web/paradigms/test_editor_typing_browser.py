"""Nothing typed in the template editor is lost while the form is drawn again (Chromium).

Leaving an Id box, changing a rule type or pressing a row button posts the form and swaps in
the body the server draws from it. A linguist who goes straight on typing elsewhere lost the
first characters (`VBD` became `BD`), or all of them when the answer was slow. Here the server's
answer is held back (0 s and 0.8 s, the second a busy machine) while the test types at a human
50 ms a key and at once, across focus changes, in every kind of field: a line, a text area, a
select and a checkbox. Renaming a position then takes every reference to it along.
"""

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from mpp_studio.paradigms.models import Template
from mpp_studio.paradigms.services import template_save
from mpp_studio.paradigms.views import editor as editor_views
from tests.web.browser import needs_chromium
from tests.web.paradigms.editor_browser import choose, open_editor, replace_text, settle, shot
from tests.web.paradigms.editor_texts import RENAME_TEMPLATE

pytest_plugins = [
    "tests.web.browser",
    "tests.web.paradigms.editor_support",
    "tests.web.paradigms.editor_browser",
]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def slow_redraws(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """Return a function that holds back each redraw of the form's body by `seconds`."""

    def hold(seconds: float) -> None:
        draw = editor_views.editor_page_context

        def slow(request: object, *args: object, **kwargs: object) -> dict[str, object]:
            if str(getattr(request, "path", "")).endswith("/editor/table/"):
                time.sleep(seconds)
            return draw(request, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(editor_views, "editor_page_context", slow)

    return hold


@pytest.mark.parametrize("answer_after", [0.0, 0.8], ids=["prompt-server", "slow-server"])
@pytest.mark.parametrize("key_delay", [50, 0], ids=["human-speed", "instant"])
def test_typing_on_while_the_form_is_redrawn_loses_nothing(
    live_server: object,
    page: Page,
    editor: object,
    det_template: Template,
    slow_redraws: Callable[[float], None],
    answer_after: float,
    key_delay: float,
) -> None:
    slow_redraws(answer_after)
    open_editor(page, live_server, editor, det_template)

    # An Id, then at once a line of the same row and one of another row.
    replace_text(page, "#good-2-id", "main_verb", key_delay)
    replace_text(page, "#good-0-on", "number | gender", key_delay)
    replace_text(page, "#good-2-feat-0-value", "VBD", key_delay)
    # A rule type (redraws), then at once a text area, a select and a checkbox.
    page.select_option("#good-3-type", "lexical")
    replace_text(page, "#description", "Agreement, typed on at once.", key_delay)
    page.select_option("#good-1-form", "NNS")
    page.check("#good-1-uncapped")
    # A row button (redraws and moves rows), then at once a line in a row that moved.
    page.click("button[value='up good 2']")
    replace_text(page, "#good-0-on", "number", key_delay)
    replace_text(page, "#example_good", "These dogs run.", key_delay)
    settle(page)

    expect(page.locator("#good-1-id")).to_have_value("main_verb")  # moved up one row
    expect(page.locator("#good-1-feat-0-value")).to_have_value("VBD")
    expect(page.locator("#good-0-on")).to_have_value("number")
    expect(page.locator("#description")).to_have_value("Agreement, typed on at once.")
    expect(page.locator("#good-2-form")).to_have_value("NNS")  # noun, now the third row
    expect(page.locator("#good-2-uncapped")).to_be_checked()
    expect(page.locator("#good-3-type")).to_have_value("lexical")
    expect(page.locator("#example_good")).to_have_value("These dogs run.")
    # The references followed the verb's new id and its new place.
    expect(page.locator("#bad-2-target")).to_have_value("main_verb")


def test_a_renamed_position_takes_every_reference_along(
    live_server: object,
    page: Page,
    screenshots: Path,
    editor: object,
    project: object,
    animals: object,
    place_phrase: object,
    owner: object,
) -> None:
    template = template_save(project=project, source_text=RENAME_TEMPLATE, user=owner).template  # type: ignore[arg-type]
    open_editor(page, live_server, editor, template)
    expect(page.locator("#preview .badge-ok")).to_have_text("no problems")

    renames = (
        ("#good-1-id", "subject"),
        ("#good-3-id", "prep"),  # named by its number until now
        ("#good-4-id", "location"),  # a phrase
        ("#bad-1-id", "noun2_bad"),  # a bad position
    )
    for selector, name in renames:
        replace_text(page, selector, name, 20)
        page.keyboard.press("Tab")
        settle(page)

    expect(page.locator("#good-0-target")).to_have_value("subject")
    expect(page.locator("#good-5-target")).to_have_value("location.head")
    expect(page.locator("#bad-0-yaml")).to_have_value(
        "{id: det_bad, mismatched: {subject: number}, lexical: {pos: DT}}"
    )
    expect(page.locator("#bad-3-target")).to_have_value("prep")
    expect(page.locator("#bad-4-target")).to_have_value("location")
    expect(page.locator("#bad-5-target")).to_have_value("bad.noun2_bad")
    expect(page.locator("#preview .badge-ok")).to_have_text("no problems")
    expect(page.locator("#preview tr.pair")).to_have_count(10)
    shot(page, screenshots / "editor-renamed.png")

    choose(page, "#good-0-type", "matched")  # any redraw keeps the references
    page.click("button.save")
    expect(page.locator(".messages")).to_contain_text("Saved version 2")
    text = template.latest_version().source_text  # type: ignore[union-attr]
    assert "matched: subject, on: number" in text
    assert "{delete: prep}" in text and "{same: location}" in text
    assert "matched: bad.noun2_bad" in text
