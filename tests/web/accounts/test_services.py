"""Services of the accounts app: projects, the last-owner rule, invitations, tokens."""

from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError

from mpp_studio.accounts.models import Invitation, Membership, Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.services import (
    invitation_accept,
    invitation_create,
    invitation_revoke,
    membership_remove,
    membership_role_change,
    project_create,
    project_delete,
    project_update,
    token_get_or_create,
    token_regenerate,
    user_signup,
)

pytestmark = pytest.mark.django_db


def role(project: Project, user: object) -> str | None:
    return Membership.objects.filter(project=project, user=user).values_list("role", flat=True).first()


def test_user_signup_creates_a_user_who_can_sign_in() -> None:
    user = user_signup(username="wen", email="wen@example.org", password="a-long-pass-phrase-7")
    assert user.check_password("a-long-pass-phrase-7")
    assert user.email == "wen@example.org"


def test_project_create_makes_the_creator_its_owner(owner: object) -> None:
    project = project_create(name="  Classifiers  ", description="量词", created_by=owner)
    assert project.name == "Classifiers"
    assert role(project, owner) == Role.OWNER


def test_project_create_rejects_an_empty_name(owner: object) -> None:
    with pytest.raises(ValidationError) as caught:
        project_create(name="   ", created_by=owner)
    assert "name" in caught.value.message_dict
    assert not Project.objects.exists()


def test_project_update_renames_and_keeps_an_unset_description(project: Project) -> None:
    project.description = "old"
    project.save()
    project_update(project=project, name="Renamed")
    project.refresh_from_db()
    assert (project.name, project.description) == ("Renamed", "old")


def test_project_delete_deletes_its_memberships_and_invitations(
    project: Project, invitation: Invitation
) -> None:
    project_delete(project=project)
    assert not Project.objects.filter(pk=project.pk).exists()
    assert not Membership.objects.filter(project_id=project.pk).exists()
    assert not Invitation.objects.filter(pk=invitation.pk).exists()


def test_project_delete_leaves_other_projects_alone(project: Project, other_project: Project) -> None:
    project_delete(project=project)
    assert Project.objects.filter(pk=other_project.pk).exists()
    assert Membership.objects.filter(project=other_project).count() == 1


@pytest.mark.parametrize("new_role", [Role.VIEWER, Role.EDITOR])
def test_membership_role_change_refuses_to_demote_the_only_owner(
    project: Project, owner: object, new_role: str
) -> None:
    membership = Membership.objects.get(project=project, user=owner)
    with pytest.raises(ValidationError) as caught:
        membership_role_change(membership=membership, role=new_role)
    assert "only owner" in caught.value.message_dict["role"][0]
    assert role(project, owner) == Role.OWNER


def test_membership_role_change_demotes_an_owner_when_another_remains(
    project: Project, owner: object, editor: object
) -> None:
    membership_role_change(membership=Membership.objects.get(project=project, user=editor), role=Role.OWNER)
    membership_role_change(membership=Membership.objects.get(project=project, user=owner), role=Role.VIEWER)
    assert (role(project, owner), role(project, editor)) == (Role.VIEWER, Role.OWNER)


def test_membership_remove_refuses_to_remove_the_only_owner(project: Project, owner: object) -> None:
    with pytest.raises(ValidationError):
        membership_remove(membership=Membership.objects.get(project=project, user=owner))
    assert role(project, owner) == Role.OWNER


def test_membership_remove_removes_an_owner_when_another_remains(
    project: Project, owner: object, editor: object
) -> None:
    membership_role_change(membership=Membership.objects.get(project=project, user=editor), role=Role.OWNER)
    membership_remove(membership=Membership.objects.get(project=project, user=owner))
    assert role(project, owner) is None


def test_invitation_accept_makes_a_new_member_and_marks_the_link_used(
    project: Project, invitation: Invitation, outsider: object
) -> None:
    membership, used = invitation_accept(invitation=invitation, user=outsider)
    invitation.refresh_from_db()
    assert used and membership.role == Role.EDITOR
    assert invitation.accepted_by == outsider and invitation.accepted_at is not None
    assert not invitation.is_open


def test_invitation_accept_raises_a_lower_role(
    project: Project, invitation: Invitation, viewer: object
) -> None:
    _, used = invitation_accept(invitation=invitation, user=viewer)
    assert used and role(project, viewer) == Role.EDITOR


@pytest.mark.parametrize("persona", ["editor", "owner"])
def test_invitation_accept_never_lowers_a_role_and_leaves_the_link_open(
    request: pytest.FixtureRequest, project: Project, invitation: Invitation, persona: str
) -> None:
    user = request.getfixturevalue(persona)
    before = role(project, user)
    _, used = invitation_accept(invitation=invitation, user=user)
    invitation.refresh_from_db()
    assert not used and role(project, user) == before
    assert invitation.is_open


def test_invitation_accept_refuses_a_used_link(
    invitation: Invitation, outsider: object, make_user: Callable[..., object]
) -> None:
    invitation_accept(invitation=invitation, user=outsider)
    with pytest.raises(ValidationError, match="already been used"):
        invitation_accept(invitation=invitation, user=make_user("late"))


def test_invitation_accept_refuses_a_revoked_link(
    project: Project, invitation: Invitation, outsider: object
) -> None:
    invitation_revoke(invitation=invitation)
    with pytest.raises(ValidationError, match="revoked"):
        invitation_accept(invitation=invitation, user=outsider)
    assert role(project, outsider) is None


def test_invitation_revoke_refuses_a_used_link(invitation: Invitation, outsider: object) -> None:
    invitation_accept(invitation=invitation, user=outsider)
    with pytest.raises(ValidationError, match="already used"):
        invitation_revoke(invitation=invitation)


def test_invitation_create_rejects_a_note_that_is_too_long(project: Project, owner: object) -> None:
    with pytest.raises(ValidationError) as caught:
        invitation_create(project=project, role=Role.VIEWER, note="x" * 201, created_by=owner)
    assert "note" in caught.value.message_dict
    assert not Invitation.objects.exists()


def test_invitation_tokens_differ(project: Project, owner: object) -> None:
    tokens = {invitation_create(project=project, role=Role.VIEWER, created_by=owner).token for _ in range(5)}
    assert len(tokens) == 5


def test_token_regenerate_replaces_the_key(owner: object) -> None:
    first = token_get_or_create(user=owner)
    assert token_get_or_create(user=owner).key == first.key
    assert token_regenerate(user=owner).key != first.key
