"""Reads that every page and API endpoint uses to find a project and check the user's role."""

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404

from mpp_studio.accounts.models import Membership, Project
from mpp_studio.accounts.roles import Role, role_allows


def project_list_for_user(*, user: object) -> QuerySet[Project]:
    """Return the projects the user is a member of."""
    if not getattr(user, "is_authenticated", False):
        return Project.objects.none()
    return Project.objects.filter(memberships__user=user).order_by("name", "id")


def role_of(*, user: object, project: Project) -> str | None:
    """Return the user's role in the project, or None if they are not a member."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(project=project, user=user).values_list("role", flat=True).first()


def project_get_for_user(*, user: object, project_id: int, needed: str = Role.VIEWER) -> Project:
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
