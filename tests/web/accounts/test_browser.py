"""A real browser (Debian's Chromium, driven by Playwright): sign up, create a project, invite a
colleague, who signs up from the link in another browser and joins.

Screenshots go to `var/screenshots/accounts-*.png` (the MPP_VAR_DIR folder) for a person to look at.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from mpp_studio.accounts.models import Membership
from tests.web.browser import launch_browser, needs_chromium, new_page

pytest_plugins = ["tests.web.browser"]

pytestmark = [
    needs_chromium,
    pytest.mark.django_db(transaction=True),
]

PASSWORD_A = "lantern-orchid-7-river"
PASSWORD_B = "copper-meadow-3-finch"


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    # Playwright's sync API keeps an event loop running in this thread, and Django refuses ORM
    # calls where a loop runs. This test's own ORM calls are plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with launch_browser() as browser:
        yield browser


def sign_up(page: Page, username: str, password: str) -> None:
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click("button:has-text('Create account')")


def test_browser_signs_up_creates_project_and_invites_a_colleague(
    live_server: object, browser: Browser, screenshots: Path
) -> None:
    base = str(live_server.url)
    olga = new_page(browser)

    # Signing up: a weak password is refused on its field, then the account is made.
    olga.goto(base + "/signup/")
    expect(olga.locator("h1")).to_have_text("Create an account")
    sign_up(olga, "olga", "password")
    expect(olga.locator(".field-error").first).to_contain_text("Password: This password is too common.")
    olga.screenshot(path=screenshots / "accounts-signup-error.png", full_page=True)
    sign_up(olga, "olga", PASSWORD_A)
    expect(olga).to_have_url(base + "/")
    expect(olga.locator("h2")).to_have_text("No projects yet")

    # A new project; its creator is its owner.
    olga.click("a.button:has-text('New project')")
    olga.fill("#id_name", "Classifiers 量词")
    olga.fill("#id_description", "Chinese classifier agreement, with English controls.")
    olga.click("button:has-text('Create project')")
    expect(olga).to_have_url(re.compile(r"/projects/\d+/"))
    project_id = int(re.search(r"/projects/(\d+)/", olga.url).group(1))
    olga.goto(f"{base}/projects/{project_id}/members/")
    expect(olga.locator("h1.project-name")).to_have_text("Classifiers 量词")
    expect(olga.locator(".project-title .role-badge")).to_have_text("Owner")
    expect(olga.locator(".project-tab.active")).to_have_text("Members")

    # An invitation link for an editor.
    olga.select_option("#id_role", "editor")
    olga.fill("#id_note", "Wen, from the syntax group")
    olga.click("button:has-text('Create invitation link')")
    expect(olga.locator("tr.invitation")).to_have_count(1)
    link = olga.locator("tr.invitation .copy-link input").input_value()
    assert re.fullmatch(re.escape(base) + r"/invitations/[\w-]+/", link)
    olga.screenshot(path=screenshots / "accounts-members-invite.png", full_page=True)

    # A colleague opens it in another browser, signs up from it and comes back to accept.
    wen = new_page(browser)
    wen.goto(link)
    expect(wen.locator("h1")).to_have_text("Classifiers 量词")
    expect(wen.locator(".invitation-card .role-badge")).to_have_text("Editor")
    wen.screenshot(path=screenshots / "accounts-invitation.png", full_page=True)
    wen.click("a.button:has-text('Create an account')")
    sign_up(wen, "wen", PASSWORD_B)
    expect(wen).to_have_url(link)
    wen.click("button:has-text('Accept and join as editor')")
    expect(wen).to_have_url(re.compile(rf"/projects/{project_id}/"))
    expect(wen.locator(".messages")).to_contain_text("You joined “Classifiers 量词” as editor.")
    assert Membership.objects.get(project_id=project_id, user__username="wen").role == "editor"

    # Their dashboard lists the project with their role.
    wen.goto(base + "/")
    row = wen.locator("tr.project-row")
    expect(row).to_have_count(1)
    expect(row.locator("a.project-link")).to_have_text("Classifiers 量词")
    expect(row.locator(".role-badge")).to_have_text("Editor")
    wen.screenshot(path=screenshots / "accounts-dashboard.png", full_page=True)

    # The link is used: it is gone from the owner's list, and opening it again says so.
    olga.goto(f"{base}/projects/{project_id}/members/")
    expect(olga.locator("tr.member")).to_have_count(2)
    expect(olga.locator("tr.member[data-username=wen] .role-badge")).to_have_text("Editor")
    expect(olga.locator("tr.invitation")).to_have_count(0)
    olga.screenshot(path=screenshots / "accounts-members.png", full_page=True)
    third = new_page(browser)
    third.goto(link)
    expect(third.locator("h1")).to_have_text("This invitation has already been used")

    # The owner's dashboard and the API token page.
    olga.goto(base + "/")
    expect(olga.locator("tr.project-row .role-badge")).to_have_text("Owner")
    olga.screenshot(path=screenshots / "accounts-dashboard-owner.png", full_page=True)
    olga.goto(base + "/account/token/")
    olga.click("button:has-text('Create a token')")
    expect(olga.locator("pre.command").first).to_contain_text("Authorization: Token ")
    olga.screenshot(path=screenshots / "accounts-token.png", full_page=True)

    # Settings, then deleting the project: the confirmation names what goes and needs the name.
    olga.goto(f"{base}/projects/{project_id}/settings/")
    expect(olga.locator(".project-tab.active")).to_have_text("Settings")
    olga.screenshot(path=screenshots / "accounts-settings.png", full_page=True)
    olga.click("a.button:has-text('Delete project…')")
    expect(olga.locator(".delete-list")).to_contain_text("2 members")
    olga.fill("#id_confirm_name", "Classifiers")
    olga.click("button:has-text('Delete this project for good')")
    expect(olga.locator(".field-error")).to_contain_text(
        "does not match the project’s name “Classifiers 量词”"
    )
    olga.screenshot(path=screenshots / "accounts-delete.png", full_page=True)
    olga.fill("#id_confirm_name", "Classifiers 量词")
    olga.click("button:has-text('Delete this project for good')")
    expect(olga).to_have_url(base + "/")
    expect(olga.locator(".messages")).to_contain_text(
        "Project “Classifiers 量词” and everything in it were deleted."
    )
    expect(olga.locator("tr.project-row")).to_have_count(0)


def test_browser_token_page_copies_selects_and_confirms_before_a_new_token(
    live_server: object, browser: Browser
) -> None:
    """The token page's behaviours (static behaviours.js under the Content-Security-Policy): a
    click selects the token, Copy puts it on the clipboard, and a new token needs a confirmation
    — dismissed, the old token stays; accepted, it is replaced."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    user = get_user_model().objects.create_user("tove", password=PASSWORD_A)
    page = new_page(browser)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=str(live_server.url))
    page.goto(f"{live_server.url}/accounts/login/?next=/account/token/")
    page.fill("#id_username", "tove")
    page.fill("#id_password", PASSWORD_A)
    page.click("button[type=submit]")
    page.click("button:has-text('Create a token')")
    first = Token.objects.get(user=user).key
    expect(page.locator("#api-token")).to_have_value(first)

    page.click("#api-token")
    assert page.evaluate(
        "() => { const i = document.getElementById('api-token'); return [i.selectionStart, i.selectionEnd]; }"
    ) == [0, len(first)]
    page.click("button[data-copy-previous]")
    expect(page.locator("button[data-copy-previous]")).to_have_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == first

    questions: list[str] = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.click("button:has-text('Make a new token')")
    page.wait_for_timeout(300)
    assert questions == ["Make a new token? Programs using the old one will stop working."]
    assert Token.objects.get(user=user).key == first

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button:has-text('Make a new token')")
    expect(page.locator("#api-token")).not_to_have_value(first)
    assert Token.objects.get(user=user).key != first
