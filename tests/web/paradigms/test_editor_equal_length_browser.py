"""The editor's equal-length option in Chromium (issue 17): chosen in the Table's options, checked
by the preview, written to the YAML and saved."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from mpp_studio.paradigms.models import Template
from tests.web.browser import needs_chromium
from tests.web.paradigms.editor_browser import choose, click, open_editor, shot

pytest_plugins = [
    "tests.web.browser",
    "tests.web.paradigms.editor_support",
    "tests.web.paradigms.editor_browser",
]

pytestmark = [needs_chromium, pytest.mark.django_db(transaction=True)]

OPTIONS = "details.options:not(.blimp-options)"  # the generation options (BLiMP's share the class)


def test_equal_length_is_chosen_previewed_and_saved(
    live_server: object, page: Page, screenshots: Path, editor: object, det_template: Template
) -> None:
    open_editor(page, live_server, editor, det_template)
    page.click(f"{OPTIONS} > summary")
    expect(page.locator("#opt-equal_length")).to_have_value("")

    # these/those never balance this/that in characters: a problem beside the options, no pairs.
    choose(page, "#opt-equal_length", "characters")
    expect(page.locator("#problems-field-options")).to_contain_text("E_UNEQUAL_LENGTH")
    expect(page.locator("#preview tr.pair")).to_have_count(0)

    # In words they balance: the problem goes and the pairs come back.
    choose(page, "#opt-equal_length", "words")
    expect(page.locator("#problems-field-options")).to_be_empty()
    expect(page.locator("#preview .badge-ok")).to_have_text("no problems")
    expect(page.locator("#preview tr.pair")).to_have_count(10)

    click(page, "button[value='to-yaml']")
    expect(page.locator("#yaml_text")).to_have_value(re.compile(r"\noptions:\n  equal_length: words\n"))
    click(page, "button[value='to-table']")
    expect(page.locator("#opt-equal_length")).to_have_value("words")
    page.click("button.save")
    expect(page.locator(".message.success")).to_contain_text("Saved version 2")
    latest = det_template.latest_version()
    assert latest is not None and "  equal_length: words\n" in latest.source_text
    shot(page, screenshots / "editor-equal-length-saved.png")
