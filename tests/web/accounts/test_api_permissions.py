"""Who may call each accounts API endpoint: anonymous (401), outsider (404), viewer, editor, owner."""

from collections.abc import Callable

import pytest

from mpp_studio.accounts.models import Invitation, Project

pytestmark = pytest.mark.django_db

PERSONAS = ["anonymous", "outsider", "viewer", "editor", "owner"]
READ = {"anonymous": 401, "outsider": 404, "viewer": 200, "editor": 200, "owner": 200}
OWNER_ONLY = {"anonymous": 401, "outsider": 404, "viewer": 403, "editor": 403}

# (method, URL pattern, payload, {persona: status}); {p}: project id, {u}: a second viewer's id,
# {i}: an open invitation's id, {t}: its token.
CASES = [
    ("get", "/api/projects/", None, {**READ, "outsider": 200}),
    (
        "post",
        "/api/projects/",
        {"name": "Mine"},
        {"anonymous": 401, "outsider": 201, "viewer": 201, "editor": 201, "owner": 201},
    ),
    ("get", "/api/projects/{p}/", None, READ),
    ("patch", "/api/projects/{p}/", {"name": "Renamed"}, {**OWNER_ONLY, "owner": 200}),
    ("delete", "/api/projects/{p}/", None, {**OWNER_ONLY, "owner": 204}),
    ("get", "/api/projects/{p}/members/", None, READ),
    ("get", "/api/projects/{p}/members/{u}/", None, READ),
    ("patch", "/api/projects/{p}/members/{u}/", {"role": "editor"}, {**OWNER_ONLY, "owner": 200}),
    ("delete", "/api/projects/{p}/members/{u}/", None, {**OWNER_ONLY, "owner": 204}),
    ("get", "/api/projects/{p}/invitations/", None, {**OWNER_ONLY, "owner": 200}),
    ("post", "/api/projects/{p}/invitations/", {"role": "viewer"}, {**OWNER_ONLY, "owner": 201}),
    ("get", "/api/projects/{p}/invitations/{i}/", None, {**OWNER_ONLY, "owner": 200}),
    ("delete", "/api/projects/{p}/invitations/{i}/", None, {**OWNER_ONLY, "owner": 204}),
    # Anyone signed in may accept a link; the token is what admits them.
    (
        "post",
        "/api/invitations/{t}/accept/",
        None,
        {"anonymous": 401, "outsider": 200, "viewer": 200, "editor": 200, "owner": 200},
    ),
]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize(
    ("method", "pattern", "payload", "expected"), CASES, ids=[f"{m} {p}" for m, p, _, _ in CASES]
)
def test_accounts_api_permissions(
    api_as: Callable[[str], object],
    make_user: Callable[..., object],
    project: Project,
    second_viewer: object,
    invitation: Invitation,
    persona: str,
    method: str,
    pattern: str,
    payload: dict[str, str] | None,
    expected: dict[str, int],
) -> None:
    make_user("newbie")
    url = pattern.format(p=project.pk, u=second_viewer.pk, i=invitation.pk, t=invitation.token)
    response = getattr(api_as(persona), method)(url, payload, format="json")
    assert response.status_code == expected[persona], response.content[:300]
    if response.status_code >= 400:
        assert response.json()["errors"][0]["message"]


@pytest.mark.parametrize("persona", ["outsider", "viewer", "editor"])
def test_accounts_api_refusals_change_nothing(
    api_as: Callable[[str], object],
    project: Project,
    second_viewer: object,
    invitation: Invitation,
    persona: str,
) -> None:
    client = api_as(persona)
    client.patch(f"/api/projects/{project.pk}/", {"name": "Hijacked"}, format="json")
    client.delete(f"/api/projects/{project.pk}/")
    client.patch(f"/api/projects/{project.pk}/members/{second_viewer.pk}/", {"role": "owner"}, format="json")
    client.delete(f"/api/projects/{project.pk}/members/{second_viewer.pk}/")
    client.delete(f"/api/projects/{project.pk}/invitations/{invitation.pk}/")
    project.refresh_from_db()
    invitation.refresh_from_db()
    assert project.name == "Agreement study"
    assert project.memberships.get(user=second_viewer).role == "viewer"
    assert invitation.is_open


def test_api_session_authentication_also_works(client: object, viewer: object, project: Project) -> None:
    client.force_login(viewer)
    assert client.get(f"/api/projects/{project.pk}/").status_code == 200
