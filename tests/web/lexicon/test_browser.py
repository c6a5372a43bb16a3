"""A real browser (Debian's Chromium, driven by Playwright) imports vocabularies and filters the table.

An editor uploads a bad CSV and, on the page that follows the import job, sees every row error
with its line number; then a good one; the
item table filters live (htmx) by a feature and by a search text; Chinese text shows as written.
Screenshots go to `var/screenshots/lexicon-*.png` for a person to look at.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in
from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA, PASSWORD
from tests.web.lexicon.conftest import BAD_EN_CSV

pytest_plugins = ["tests.web.browser"]

pytestmark = [
    needs_chromium,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    # Playwright's sync API keeps an event loop running in this thread, and Django refuses ORM
    # calls where a loop runs. This test's own ORM calls are plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        page = new_page(browser)
        yield page
        page.context.close()


def item_ids(page: Page) -> list[str]:
    return [row.get_attribute("data-item-id") or "" for row in page.locator("tr.item").all()]


def test_browser_imports_a_vocabulary_and_filters_it(
    live_server: object,
    editor: object,
    project: object,
    zh_vocabulary: object,
    page: Page,
    screenshots: Path,
    tmp_path: Path,
    import_worker: None,
) -> None:
    base = str(live_server.url)  # type: ignore[attr-defined]
    bad = tmp_path / "nouns.csv"
    bad.write_text(BAD_EN_CSV, encoding="utf-8")
    schema = tmp_path / "nouns.schema.yaml"
    schema.write_text(EN_NOUNS_SCHEMA, encoding="utf-8")
    good = tmp_path / "good" / "nouns.csv"
    good.parent.mkdir()
    good.write_text(EN_NOUNS_CSV, encoding="utf-8")

    # Signing in leads to the project's vocabularies.
    page.goto(f"{base}/projects/{project.pk}/vocabularies/")  # type: ignore[attr-defined]
    sign_in(page, editor.get_username(), PASSWORD)  # type: ignore[attr-defined]
    expect(page.locator(".lexicon h2")).to_have_text("Vocabularies")
    expect(page.locator("tr.vocabulary")).to_have_count(1)

    # A file with three bad rows: the page answers at once and follows the job (a thread here);
    # every row error with its line, nothing saved, and the form again with the fields kept.
    page.click("text=Import CSV/TSV")
    page.set_input_files("#id_file", str(bad))
    page.set_input_files("#id_schema_file", str(schema))
    page.fill("#id_name", "english nouns")
    page.fill("#id_language", "en")
    page.click("button:has-text('Import')")
    expect(page.locator(".messages")).to_contain_text("nouns.csv is being imported")
    problems = page.locator("tr.import-problem")
    expect(problems).to_have_count(3)
    expect(page.locator("#import-problems h3")).to_have_text("The file was not imported: 3 problems")
    assert page.locator("tr.import-problem td.line").all_inner_texts() == ["3", "4", "5"]
    expect(problems.nth(0)).to_contain_text("'plurl' is not one of the declared values (sg, pl)")
    expect(problems.nth(1)).to_contain_text("the form is empty")
    expect(problems.nth(2)).to_contain_text("this row has 6 cells but the header has 5 columns")
    expect(page.locator(".job-status")).to_have_attribute("data-status", "failed")
    page.screenshot(path=screenshots / "lexicon-import-errors.png", full_page=True)
    page.click("text=import the file again")
    expect(page.locator("#id_name")).to_have_value("english nouns")
    expect(page.locator("#id_language")).to_have_value("en")

    # The corrected file imports; the import's page links the vocabulary, whose table has 12 items.
    page.set_input_files("#id_file", str(good))
    page.set_input_files("#id_schema_file", str(schema))
    page.click("button:has-text('Import')")
    expect(page.locator(".job-status")).to_contain_text("Imported “english nouns”: 12 items.")
    summary = page.locator("#import-summary")
    expect(summary).to_contain_text("became the vocabulary english nouns with 12 items")
    page.screenshot(path=screenshots / "lexicon-import-done.png", full_page=True)
    summary.locator("text=Open the vocabulary").click()
    expect(page.locator(".vocab-title h2")).to_have_text("english nouns")
    expect(page.locator("tr.item")).to_have_count(12)

    # Filtering by a feature updates the table in place (htmx) and the address.
    page.select_option("select[name='f-number']", "pl")
    expect(page.locator("tr.item")).to_have_count(4)
    assert item_ids(page) == ["n2", "n4", "n6", "n8"]
    expect(page).to_have_url(re.compile(r"f-number=pl"))
    expect(page.locator(".table-count")).to_contain_text("4 of 12 items match.")
    page.fill("#id_search", "dog")
    expect(page.locator("tr.item")).to_have_count(1)
    assert item_ids(page) == ["n4"]
    page.screenshot(path=screenshots / "lexicon-table.png", full_page=True)
    page.fill("#id_search", "")
    page.select_option("select[name='f-number']", "")
    expect(page.locator("tr.item")).to_have_count(12)

    # An item with an undeclared value is refused with the field named.
    page.click("text=Add item")
    page.fill("#id_form", "mice")
    page.fill("#id_lemma", "mouse")
    page.evaluate(
        "document.querySelector(\"select[name='f-number']\").add(new Option('plurl', 'plurl', true, true))"
    )
    page.click("button:has-text('Add item')")
    expect(page.locator(".error-summary")).to_contain_text(
        "number: 'plurl' is not one of the declared values (sg, pl)"
    )
    page.screenshot(path=screenshots / "lexicon-item-error.png", full_page=True)

    # The features; narrowing `number` to sg is refused, listing the plural items.
    page.click(".subtabs a:has-text('Features')")
    expect(page.locator("tr.feature-row")).to_have_count(1)
    page.screenshot(path=screenshots / "lexicon-schema.png", full_page=True)
    page.click("tr.feature-row a:has-text('Edit')")
    page.fill("#id_values", "sg")
    page.click("button:has-text('Save')")
    expect(page.locator("tr.schema-problem")).to_have_count(4)
    expect(page.locator("#schema-problems h3")).to_contain_text("4 items hold values it would not allow")
    page.screenshot(path=screenshots / "lexicon-schema-refused.png", full_page=True)

    # The schema as YAML: a problem is shown by line, and clicking it selects that line.
    page.click(".subtabs a:has-text('Features')")
    page.click("text=Edit as YAML")
    page.fill(
        "#schema-text",
        "language: en\nfeatures:\n  number: {type: category, values: [sg, pl]}\n  case: {type: nominal}\n",
    )
    page.click("button:has-text('Save schema')")
    expect(page.locator("li.yaml-problem")).to_have_text(
        "line 4: feature 'case': type 'nominal' is not one of: category, text, bool, int, float, restriction"
    )
    page.click("li.yaml-problem a[data-line='4']")
    selected = page.evaluate(
        "(() => { const t = document.getElementById('schema-text'); "
        "return t.value.slice(t.selectionStart, t.selectionEnd); })()"
    )
    assert selected == "  case: {type: nominal}"
    page.screenshot(path=screenshots / "lexicon-schema-yaml.png", full_page=True)

    # The list: both vocabularies with counts; the Chinese one, filtered by classifier.
    page.click(".crumbs a:has-text('Vocabularies')")
    expect(page.locator("tr.vocabulary")).to_have_count(2)
    assert page.locator("td.item-count").all_inner_texts() == ["12", "14"]
    page.screenshot(path=screenshots / "lexicon-list.png", full_page=True)
    page.click("a.vocab-name[lang=zh]")
    page.select_option("select[name='f-classifier']", "条")
    expect(page.locator("tr.item")).to_have_count(4)
    expect(page.locator("tbody[lang=zh] tr.item td.form input").first).to_have_value("狗")
    page.screenshot(path=screenshots / "lexicon-table-zh.png", full_page=True)
