"""Who may open or post to each accounts page: anonymous, viewer, editor, owner, outsider.

Anonymous people are sent to sign in; outsiders (members of another project only) get 404, so
they never learn the project exists; members whose role is too low get 403.
"""

from collections.abc import Callable

import pytest
from django.test import Client

from mpp_studio.accounts.models import Invitation, Project

pytestmark = pytest.mark.django_db

LOGIN = "login"
# (method, URL pattern, data, {persona: expected status or LOGIN}); {p}: project id, {u}: the id
# of a second viewer whom others may change or remove, {i}: an open invitation's id.
ANY_MEMBER_GET = {"anonymous": LOGIN, "outsider": 404, "viewer": 200, "editor": 200, "owner": 200}
OWNER_GET = {"anonymous": LOGIN, "outsider": 404, "viewer": 403, "editor": 403, "owner": 200}
OWNER_POST = {"anonymous": LOGIN, "outsider": 404, "viewer": 403, "editor": 403, "owner": 302}
SIGNED_IN_GET = {"anonymous": LOGIN, "outsider": 200, "viewer": 200, "editor": 200, "owner": 200}

CASES = [
    ("get", "/", {}, SIGNED_IN_GET),
    ("get", "/projects/new/", {}, SIGNED_IN_GET),
    (
        "post",
        "/projects/new/",
        {"name": "Mine"},
        {**SIGNED_IN_GET, "outsider": 302, "viewer": 302, "editor": 302, "owner": 302},
    ),
    ("get", "/account/token/", {}, SIGNED_IN_GET),
    (
        "post",
        "/account/token/",
        {"action": "create"},
        {**SIGNED_IN_GET, "outsider": 302, "viewer": 302, "editor": 302, "owner": 302},
    ),
    ("get", "/projects/{p}/", {}, {**ANY_MEMBER_GET, "viewer": 302, "editor": 302, "owner": 302}),
    ("get", "/projects/{p}/members/", {}, ANY_MEMBER_GET),
    ("get", "/projects/{p}/settings/", {}, OWNER_GET),
    ("post", "/projects/{p}/settings/", {"name": "Renamed", "description": ""}, OWNER_POST),
    ("get", "/projects/{p}/delete/", {}, OWNER_GET),
    ("post", "/projects/{p}/delete/", {"confirm_name": "Agreement study"}, OWNER_POST),
    ("post", "/projects/{p}/members/{u}/role/", {"role": "editor"}, OWNER_POST),
    ("post", "/projects/{p}/members/{u}/remove/", {}, OWNER_POST),
    ("post", "/projects/{p}/invitations/", {"role": "viewer", "note": ""}, OWNER_POST),
    ("post", "/projects/{p}/invitations/{i}/revoke/", {}, OWNER_POST),
    # Leaving: any member (the only owner is refused with a message, still a redirect).
    ("post", "/projects/{p}/leave/", {}, {**ANY_MEMBER_GET, "viewer": 302, "editor": 302, "owner": 302}),
]


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "viewer", "editor", "owner"])
@pytest.mark.parametrize(
    ("method", "pattern", "data", "expected"), CASES, ids=[f"{m} {p}" for m, p, _, _ in CASES]
)
def test_accounts_page_permissions(
    client_as: Callable[[str], Client],
    project: Project,
    second_viewer: object,
    invitation: Invitation,
    persona: str,
    method: str,
    pattern: str,
    data: dict[str, str],
    expected: dict[str, object],
) -> None:
    url = pattern.format(p=project.pk, u=second_viewer.pk, i=invitation.pk)
    response = getattr(client_as(persona), method)(url, data)
    if expected[persona] == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")
    else:
        assert response.status_code == expected[persona], response.content[:500]


@pytest.mark.parametrize("persona", ["viewer", "editor", "outsider"])
def test_accounts_page_refusals_change_nothing(
    client_as: Callable[[str], Client],
    project: Project,
    second_viewer: object,
    invitation: Invitation,
    persona: str,
) -> None:
    client = client_as(persona)
    client.post(f"/projects/{project.pk}/settings/", {"name": "Hijacked"})
    client.post(f"/projects/{project.pk}/delete/", {"confirm_name": project.name})
    client.post(f"/projects/{project.pk}/members/{second_viewer.pk}/role/", {"role": "owner"})
    client.post(f"/projects/{project.pk}/members/{second_viewer.pk}/remove/")
    client.post(f"/projects/{project.pk}/invitations/{invitation.pk}/revoke/")
    project.refresh_from_db()
    invitation.refresh_from_db()
    assert project.name == "Agreement study"
    assert project.memberships.get(user=second_viewer).role == "viewer"
    assert invitation.is_open


@pytest.mark.parametrize("persona", ["anonymous", "outsider", "viewer", "editor", "owner"])
def test_invitation_page_opens_for_anyone_with_the_link(
    client_as: Callable[[str], Client], invitation: Invitation, persona: str
) -> None:
    response = client_as(persona).get(f"/invitations/{invitation.token}/")
    assert response.status_code == 200
    assert "Agreement study" in response.content.decode()


def test_invitation_page_with_an_unknown_token_is_404(client_as: Callable[[str], Client]) -> None:
    assert client_as("outsider").get("/invitations/no-such-token/").status_code == 404


def test_invitation_accept_needs_sign_in(client_as: Callable[[str], Client], invitation: Invitation) -> None:
    response = client_as("anonymous").post(f"/invitations/{invitation.token}/")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=%2Finvitations%2F{invitation.token}%2F"
    invitation.refresh_from_db()
    assert invitation.is_open


@pytest.mark.parametrize("persona", ["outsider", "viewer", "editor", "owner"])
def test_signup_page_sends_signed_in_people_home(client_as: Callable[[str], Client], persona: str) -> None:
    response = client_as(persona).get("/signup/")
    assert response.status_code == 302 and response["Location"] == "/"


def test_outsider_never_sees_the_project_on_their_dashboard(client_as: Callable[[str], Client]) -> None:
    page = client_as("outsider").get("/").content.decode()
    assert "Someone else" in page and "Agreement study" not in page
