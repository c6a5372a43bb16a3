"""Reads that every page and API endpoint uses to find a project and check the user's role."""

from typing import cast

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Case, Count, Model, OuterRef, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.http import Http404
from rest_framework.authtoken.models import Token

from mpp_studio.accounts.models import Invitation, Membership, Project
from mpp_studio.accounts.roles import RANK, Role, role_allows
from mpp_studio.accounts.users import RequestUser


def project_list_for_user(*, user: RequestUser) -> QuerySet[Project]:
    """Return the projects the user is a member of."""
    if not user.is_authenticated:
        return Project.objects.none()
    return Project.objects.filter(memberships__user=user).order_by("name", "id")


def role_of(*, user: RequestUser, project: Project) -> str | None:
    """Return the user's role in the project, or None if they are not a member."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(project=project, user=user).values_list("role", flat=True).first()


def project_get_for_user(*, user: RequestUser, project_id: int, needed: str = Role.VIEWER) -> Project:
    """Return the project if the user's role allows `needed`.

    Raises:
        Http404: if there is no such project or the user is not a member (no one learns that
            another project exists).
        PermissionDenied: if the user is a member whose role is too low.
    """
    project = Project.objects.filter(pk=project_id).first()
    role = role_of(user=user, project=project) if project is not None else None
    if project is None or role is None:
        raise Http404("No such project.")
    if not role_allows(role, needed):
        raise PermissionDenied(f"This needs the {needed} role; you are a {role} in this project.")
    return project


def project_list_with_counts_for_user(*, user: User) -> QuerySet[Project]:
    """Return the user's projects, each annotated with `role` (the user's) and the counts
    `vocabulary_count`, `template_count`, `phrase_count` and `dataset_count`."""
    role = Membership.objects.filter(project=OuterRef("pk"), user=user).values("role")[:1]
    return project_list_for_user(user=user).annotate(
        role=Subquery(role),
        vocabulary_count=_count("vocabularies"),
        template_count=_count("templates"),
        phrase_count=_count("phrases"),
        dataset_count=_count("datasets"),
    )


def _count(relation: str) -> Coalesce:
    # One subquery per relation: joining four relations and counting distinct rows would multiply
    # the rows (vocabularies x templates x ...) before counting.
    # A reverse relation's related_model is the model class (never "self" or None).
    related = cast(type[Model], Project._meta.get_field(relation).related_model)
    rows = (
        related._default_manager.filter(project=OuterRef("pk"))
        .order_by()
        .values("project")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(rows), 0)


def project_contents_count(*, project: Project) -> dict[str, int]:
    """Return how many of each thing the project holds (what deleting it would delete)."""
    relations = {
        "vocabularies": "vocabularies",
        "templates": "templates",
        "phrases": "phrases",
        "datasets": "datasets",
        "jobs": "jobs",
        "members": "memberships",
        "invitations": "invitations",
    }
    counted = Project.objects.filter(pk=project.pk).annotate(
        **{f"n_{key}": _count(relation) for key, relation in relations.items()}
    )
    values = counted.values_list(*(f"n_{key}" for key in relations)).get()
    return dict(zip(relations, values, strict=True))


def membership_list(*, project: Project) -> QuerySet[Membership]:
    """Return the project's members, owners first, then editors, then viewers, by user name."""
    rank = Case(*(When(role=role, then=Value(-n)) for role, n in RANK.items()), default=Value(0))
    return (
        Membership.objects.filter(project=project)
        .select_related("user")
        .annotate(rank=rank)
        .order_by("rank", "user__username")
    )


def membership_get(*, project: Project, user_id: int) -> Membership:
    """Return the membership of user `user_id` in the project.

    Raises:
        Http404: if that user is not a member of this project.
    """
    membership = Membership.objects.filter(project=project, user_id=user_id).select_related("user").first()
    if membership is None:
        raise Http404("That user is not a member of this project.")
    return membership


def owner_count(*, project: Project) -> int:
    """Return how many owners the project has."""
    return Membership.objects.filter(project=project, role=Role.OWNER).count()


def invitation_list_open(*, project: Project) -> QuerySet[Invitation]:
    """Return the project's invitations that are neither used nor revoked, newest first."""
    return (
        Invitation.objects.filter(project=project, accepted_at__isnull=True, revoked_at__isnull=True)
        .select_related("created_by")
        .order_by("-created_at", "-pk")
    )


def invitation_list_open_for_owner(*, user: RequestUser) -> QuerySet[Invitation]:
    """Return the open invitations of every project the user owns, newest first."""
    if not user.is_authenticated:
        return Invitation.objects.none()
    owned = Membership.objects.filter(user=user, role=Role.OWNER).values("project")
    return (
        Invitation.objects.filter(project__in=owned, accepted_at__isnull=True, revoked_at__isnull=True)
        .select_related("project")
        .order_by("-created_at", "-pk")
    )


def invitation_get_by_token(*, token: str) -> Invitation:
    """Return the invitation with this token, used, revoked or open.

    Raises:
        Http404: if no invitation has this token.
    """
    invitation = Invitation.objects.filter(token=token).select_related("project", "accepted_by").first()
    if invitation is None:
        raise Http404("No invitation has this link.")
    return invitation


def invitation_get(*, project: Project, invitation_id: int, open_only: bool = False) -> Invitation:
    """Return the project's invitation with this id (only while open, with `open_only`).

    Raises:
        Http404: if the project has no such invitation (or it was used or revoked).
    """
    invitations = Invitation.objects.filter(project=project)
    if open_only:
        invitations = invitation_list_open(project=project)
    invitation = invitations.filter(pk=invitation_id).first()
    if invitation is None:
        raise Http404("This project has no such invitation.")
    return invitation


def token_get(*, user: RequestUser) -> Token | None:
    """Return the user's API token, or None if they have not made one."""
    if not user.is_authenticated:
        return None
    return Token.objects.filter(user=user).first()
