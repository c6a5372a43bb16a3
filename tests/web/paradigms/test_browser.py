"""A real browser (Debian's Chromium, driven by Playwright) signs in, browses and previews pairs.

Screenshots of the pages go to `var/screenshots/` (the MPP_VAR_DIR folder) for a person to look at.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from mpp_studio.paradigms.services import library_import
from tests.web.browser import launch_browser, needs_chromium, new_page, sign_in

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


def pair_texts(page: Page) -> list[str]:
    return page.locator("tr.pair").all_inner_texts()


def test_browser_signs_in_browses_library_and_previews_pairs(
    live_server: object, library_with_problems: Path, page: Page, screenshots: Path
) -> None:
    library_import(library_dir=library_with_problems)
    get_user_model().objects.create_user(username="ling", password="pw-for-the-browser")
    base = str(live_server.url)  # type: ignore[attr-defined]

    # Signing in.
    page.goto(base + "/library/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/library/$"))
    expect(page.locator("h1")).to_have_text("Sign in")
    page.screenshot(path=screenshots / "login.png", full_page=True)
    sign_in(page, "ling", "pw-for-the-browser")

    # The library: four paradigms, two of them with problems.
    expect(page.locator("h1")).to_have_text("Paradigm library")
    expect(page.locator("a.uid")).to_have_count(4)
    expect(page.locator("tr.with-problems .badge-problem")).to_have_count(2)
    expect(page.locator("td.example[lang=zh]")).to_contain_text("一本书")
    page.screenshot(path=screenshots / "home.png", full_page=True)

    # A paradigm: ten pairs, each with its critical region marked in both sentences.
    page.click("a.uid:has-text('en_sv_agreement')")
    expect(page.locator("h1 code")).to_have_text("en_sv_agreement")
    rows = page.locator("tr.pair")
    expect(rows).to_have_count(10)
    expect(page.locator("tr.pair td.sentence mark")).to_have_count(20)
    for row in rows.all():
        expect(row.locator("td.good mark")).to_have_count(1)
        expect(row.locator("td.bad mark")).to_have_count(1)
        expect(row.locator("td.edit")).to_have_text("substitution")
    first = pair_texts(page)
    page.screenshot(path=screenshots / "detail.png", full_page=True)

    # Another seed, other pairs; the same seed again, the same pairs.
    page.fill("#id_seed", "7")
    page.click("button:has-text('Show pairs')")
    expect(page).to_have_url(re.compile(r"\?seed=7$"))
    expect(rows).to_have_count(10)
    assert pair_texts(page) != first
    page.fill("#id_seed", "0")
    page.click("button:has-text('Show pairs')")
    expect(rows).to_have_count(10)
    assert pair_texts(page) == first

    # Chinese: the sentences carry lang="zh" and show as written.
    page.goto(base + "/library/")
    page.click("a.uid:has-text('zh_classifier_noun')")
    expect(page.locator("tr.pair td.sentence.good[lang=zh]")).to_have_count(10)
    expect(page.locator("p.lead[lang=zh]")).to_have_text("量词与名词搭配。")
    assert all(text.startswith("一") for text in page.locator("tr.pair td.good").all_inner_texts())
    page.screenshot(path=screenshots / "detail-zh.png", full_page=True)

    # An invalid template: its problem with the line, the line marked in the YAML, no pairs.
    page.goto(base + "/library/")
    page.click("a.uid:has-text('en_invalid_agreement')")
    problem = page.locator(".problem-list li")
    expect(problem).to_have_count(1)
    expect(problem).to_contain_text("E_UNKNOWN_VALUE")
    expect(problem).to_contain_text("invalid.yaml, line 8, good grammar, position 2 (subj)")
    expect(page.locator("#L8.problem-line")).to_contain_text("number: dual")
    expect(rows).to_have_count(0)
    page.screenshot(path=screenshots / "detail-problems.png", full_page=True)
