"""Writes of the accounts app: projects, members and their roles, invitations, sign-up, API tokens.

The rules live here, so pages and the API share them: a project always keeps an owner, and an
invitation can raise a member's role but never lower it.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from mpp_studio.accounts.models import Invitation, Membership, Project
from mpp_studio.accounts.roles import RANK, Role


@transaction.atomic
def user_signup(*, username: str, email: str, password: str) -> User:
    """Create a user; the caller has already validated the name, address and password."""
    return get_user_model().objects.create_user(username=username, email=email, password=password)


@transaction.atomic
def project_create(*, name: str, description: str = "", created_by: User) -> Project:
    """Create a project with its creator as owner.

    Raises:
        ValidationError: if the name is empty or too long (field `name`).
    """
    project = Project(name=name.strip(), description=description.strip(), created_by=created_by)
    project.full_clean()
    project.save()
    Membership.objects.create(project=project, user=created_by, role=Role.OWNER)
    return project


@transaction.atomic
def project_update(*, project: Project, name: str | None = None, description: str | None = None) -> Project:
    """Rename the project and/or change its description (None leaves a value as it is).

    Raises:
        ValidationError: if the new name is empty or too long (field `name`).
    """
    if name is not None:
        project.name = name.strip()
    if description is not None:
        project.description = description.strip()
    project.full_clean()
    project.save()
    return project


@transaction.atomic
def project_delete(*, project: Project) -> None:
    """Delete the project and everything in it: vocabularies, templates, phrases, datasets, jobs,
    members and invitations.
    """
    # Dataset paradigms protect the template versions and vocabulary snapshots they were made
    # from, so the datasets go first; snapshots of this project's vocabularies that no remaining
    # dataset uses go with them instead of lingering without a project.
    project.datasets.all().delete()
    for vocabulary in project.vocabularies.all():
        vocabulary.snapshots.filter(dataset_paradigms__isnull=True).delete()
    project.delete()


def _lock_memberships(project: Project) -> None:
    # Two owners demoting each other at once must not leave the project without one.
    list(Membership.objects.select_for_update().filter(project=project).values_list("pk", flat=True))


def _check_keeps_an_owner(membership: Membership, action: str) -> None:
    if membership.role != Role.OWNER:
        return
    if Membership.objects.filter(project=membership.project, role=Role.OWNER).count() <= 1:
        raise ValidationError(
            {
                "role": f"{membership.user} is the project's only owner and cannot be {action}. "
                "Make another member an owner first."
            }
        )


@transaction.atomic
def membership_role_change(*, membership: Membership, role: str) -> Membership:
    """Give the member another role.

    Raises:
        ValidationError: if this would demote the project's only owner (field `role`).
    """
    _lock_memberships(membership.project)
    membership.refresh_from_db()
    if role != Role.OWNER:
        _check_keeps_an_owner(membership, "demoted")
    membership.role = Role(role)
    membership.save(update_fields=["role", "updated_at"])
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Remove the member from the project (also how a member leaves).

    Raises:
        ValidationError: if they are the project's only owner (field `role`).
    """
    _lock_memberships(membership.project)
    membership.refresh_from_db()
    _check_keeps_an_owner(membership, "removed")
    membership.delete()


@transaction.atomic
def invitation_create(*, project: Project, role: str, note: str = "", created_by: User) -> Invitation:
    """Create an invitation link to the project for `role`.

    Raises:
        ValidationError: if the note is too long (field `note`).
    """
    invitation = Invitation(project=project, role=Role(role), note=note.strip(), created_by=created_by)
    invitation.full_clean()
    invitation.save()
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation) -> Invitation:
    """Revoke an open invitation, so its link no longer works.

    Raises:
        ValidationError: if it was already used or revoked.
    """
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.accepted_at is not None:
        raise ValidationError("This invitation was already used; remove the member instead.")
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at", "updated_at"])
    return invitation


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> tuple[Membership, bool]:
    """Accept the invitation for `user`: make them a member with its role, or raise their role.

    A member whose role is already as high or higher keeps it, and the link stays open for the
    person it was meant for.

    Returns:
        The membership and whether the invitation was used (False: nothing changed).

    Raises:
        ValidationError: if the invitation was already used or was revoked.
    """
    invitation = Invitation.objects.select_for_update().select_related("project").get(pk=invitation.pk)
    if invitation.revoked_at is not None:
        raise ValidationError("This invitation was revoked by the project's owner; ask them for a new link.")
    if invitation.accepted_at is not None:
        raise ValidationError(
            "This invitation has already been used; ask the project's owner for a new link."
        )
    membership = Membership.objects.filter(project=invitation.project, user=user).first()
    if membership is not None and RANK[Role(membership.role)] >= RANK[Role(invitation.role)]:
        return membership, False
    if membership is None:
        membership = Membership.objects.create(project=invitation.project, user=user, role=invitation.role)
    else:
        membership.role = invitation.role
        membership.save(update_fields=["role", "updated_at"])
    invitation.accepted_by = user
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at", "updated_at"])
    return membership, True


@transaction.atomic
def token_get_or_create(*, user: User) -> Token:
    """Return the user's API token, creating one if they have none."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def token_regenerate(*, user: User) -> Token:
    """Replace the user's API token with a new one; the old one stops working."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)
