"""The accounts API: projects, members, invitations, tokens; errors name the field."""

from collections.abc import Callable

import pytest

from mpp_studio.accounts.models import Invitation, Membership, Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.services import invitation_revoke
from mpp_studio.lexicon.models import Vocabulary

pytestmark = pytest.mark.django_db


def errors(response: object) -> list[dict[str, object]]:
    return response.json()["errors"]


def test_project_list_is_paginated_with_role_and_counts(
    api_as: Callable[[str], object], project: Project
) -> None:
    Vocabulary.objects.create(project=project, name="nouns")
    body = api_as("editor").get("/api/projects/").json()
    assert (body["count"], body["next"], body["previous"]) == (1, None, None)
    (row,) = body["results"]
    assert (row["id"], row["name"], row["role"], row["vocabulary_count"]) == (
        project.pk,
        "Agreement study",
        "editor",
        1,
    )


def test_project_list_pages_by_fifty(api_as: Callable[[str], object], owner: object) -> None:
    from mpp_studio.accounts.services import project_create

    for n in range(51):
        project_create(name=f"p{n:02}", created_by=owner)
    client = api_as("owner")
    first = client.get("/api/projects/").json()
    assert first["count"] == 52 and len(first["results"]) == 50 and first["next"].endswith("?page=2")
    assert len(client.get("/api/projects/?page=2").json()["results"]) == 2


def test_project_create_makes_the_caller_owner(api_as: Callable[[str], object], viewer: object) -> None:
    response = api_as("viewer").post("/api/projects/", {"name": "汉语", "description": "d"}, format="json")
    assert response.status_code == 201 and response.json()["role"] == "owner"
    assert Membership.objects.get(project_id=response.json()["id"], user=viewer).role == Role.OWNER


@pytest.mark.parametrize(
    ("payload", "field"), [({}, "name"), ({"name": "x" * 201}, "name"), ({"name": "   "}, "name")]
)
def test_project_create_errors_name_the_field(
    api_as: Callable[[str], object], payload: dict[str, str], field: str
) -> None:
    response = api_as("viewer").post("/api/projects/", payload, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in errors(response)] == [field]
    assert Project.objects.count() == 2


def test_project_patch_and_delete(api_as: Callable[[str], object], project: Project) -> None:
    client = api_as("owner")
    response = client.patch(f"/api/projects/{project.pk}/", {"description": "new"}, format="json")
    assert response.json()["description"] == "new" and response.json()["name"] == "Agreement study"
    assert client.delete(f"/api/projects/{project.pk}/").status_code == 204
    assert not Project.objects.filter(pk=project.pk).exists()


def test_member_list_and_no_adding_by_name(
    api_as: Callable[[str], object], project: Project, outsider: object
) -> None:
    """Membership is by invitation only: an owner cannot add a user by name (nor learn which
    names exist from the answer)."""
    client = api_as("owner")
    body = client.get(f"/api/projects/{project.pk}/members/").json()
    assert [(m["user"]["username"], m["role"]) for m in body["results"]] == [
        ("olga", "owner"),
        ("ed", "editor"),
        ("vic", "viewer"),
    ]
    for username in ("otto", "nobody"):
        response = client.post(
            f"/api/projects/{project.pk}/members/", {"username": username, "role": "editor"}, format="json"
        )
        assert response.status_code == 405
    assert not Membership.objects.filter(project=project, user=outsider).exists()


def test_a_revoked_or_used_invitation_is_not_readable(
    api_as: Callable[[str], object], project: Project, outsider: object
) -> None:
    client = api_as("owner")
    made = client.post(f"/api/projects/{project.pk}/invitations/", {"role": "viewer"}, format="json").json()
    url = f"/api/projects/{project.pk}/invitations/{made['id']}/"
    assert client.get(url).status_code == 200
    assert client.delete(url).status_code == 204
    assert client.get(url).status_code == 404
    assert made["token"] not in str(client.get(url).content)


def test_member_patch_refuses_to_demote_the_only_owner(
    api_as: Callable[[str], object], project: Project, owner: object
) -> None:
    response = api_as("owner").patch(
        f"/api/projects/{project.pk}/members/{owner.pk}/",
        {"role": "editor"},
        format="json",
    )
    assert response.status_code == 400
    (error,) = errors(response)
    assert error["field"] == "role" and "only owner" in str(error["message"])
    assert Membership.objects.get(project=project, user=owner).role == Role.OWNER


def test_member_delete_refuses_the_only_owner(
    api_as: Callable[[str], object], project: Project, owner: object
) -> None:
    response = api_as("owner").delete(f"/api/projects/{project.pk}/members/{owner.pk}/")
    assert response.status_code == 400 and errors(response)[0]["field"] == "role"
    assert Membership.objects.filter(project=project, user=owner).exists()


def test_member_delete_of_oneself_is_leaving(
    api_as: Callable[[str], object], project: Project, viewer: object
) -> None:
    assert api_as("viewer").delete(f"/api/projects/{project.pk}/members/{viewer.pk}/").status_code == 204
    assert not Membership.objects.filter(project=project, user=viewer).exists()


def test_member_of_another_project_is_404(
    api_as: Callable[[str], object], project: Project, outsider: object
) -> None:
    response = api_as("owner").get(f"/api/projects/{project.pk}/members/{outsider.pk}/")
    assert response.status_code == 404


def test_invitation_create_list_and_revoke(api_as: Callable[[str], object], project: Project) -> None:
    client = api_as("owner")
    created = client.post(
        f"/api/projects/{project.pk}/invitations/",
        {"role": "editor", "note": "Li"},
        format="json",
    ).json()
    assert created["url"] == f"http://testserver/invitations/{created['token']}/"
    listed = client.get(f"/api/projects/{project.pk}/invitations/").json()
    assert [i["id"] for i in listed["results"]] == [created["id"]]
    assert client.delete(f"/api/projects/{project.pk}/invitations/{created['id']}/").status_code == 204
    assert client.get(f"/api/projects/{project.pk}/invitations/").json()["count"] == 0


def test_invitation_of_another_project_is_404(
    api_as: Callable[[str], object], project: Project, other_project: Project, outsider: object
) -> None:
    from mpp_studio.accounts.services import invitation_create

    theirs = invitation_create(project=other_project, role="viewer", created_by=outsider)
    response = api_as("owner").delete(f"/api/projects/{project.pk}/invitations/{theirs.pk}/")
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.is_open


def test_invitation_accept(
    api_as: Callable[[str], object], project: Project, invitation: Invitation, outsider: object
) -> None:
    response = api_as("outsider").post(f"/api/invitations/{invitation.token}/accept/")
    assert response.json() == {
        "project_id": project.pk,
        "project_name": "Agreement study",
        "role": "editor",
        "used": True,
    }
    again = api_as("outsider").post(f"/api/invitations/{invitation.token}/accept/")
    assert again.status_code == 400 and "already been used" in str(errors(again)[0]["message"])


def test_invitation_accept_revoked_or_unknown(
    api_as: Callable[[str], object], invitation: Invitation
) -> None:
    invitation_revoke(invitation=invitation)
    client = api_as("outsider")
    response = client.post(f"/api/invitations/{invitation.token}/accept/")
    assert response.status_code == 400 and "revoked" in str(errors(response)[0]["message"])
    assert client.post("/api/invitations/nope/accept/").status_code == 404


def test_invitation_accept_never_lowers(
    api_as: Callable[[str], object], project: Project, invitation: Invitation, owner: object
) -> None:
    body = api_as("owner").post(f"/api/invitations/{invitation.token}/accept/").json()
    assert (body["role"], body["used"]) == ("owner", False)


def test_obtain_token_with_username_and_password(owner: object) -> None:
    from rest_framework.test import APIClient

    from tests.web.conftest import PASSWORD

    client = APIClient()
    token = client.post("/api/token/", {"username": "olga", "password": PASSWORD}, format="json").json()[
        "token"
    ]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/projects/").status_code == 200
    wrong = APIClient().post("/api/token/", {"username": "olga", "password": "nope"}, format="json")
    assert wrong.status_code == 400 and errors(wrong)[0]["message"]
    missing = APIClient().post("/api/token/", {"username": "olga"}, format="json")
    assert missing.status_code == 400 and errors(missing)[0]["field"] == "password"
