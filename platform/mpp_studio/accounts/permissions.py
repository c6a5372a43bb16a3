"""Role checks for API views: reading needs viewer, writing editor, managing members owner."""

from typing import TYPE_CHECKING

from rest_framework.permissions import SAFE_METHODS, BasePermission

if TYPE_CHECKING:  # rest_framework.views imports the permission classes from settings
    from rest_framework.request import Request
    from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user


def needed_role(request: "Request", view: "APIView") -> str:
    """Return the role a request needs: the view's `write_role` for writes (default editor)."""
    if request.method in SAFE_METHODS:
        return getattr(view, "read_role", Role.VIEWER)
    return getattr(view, "write_role", Role.EDITOR)


class ProjectRolePermission(BasePermission):
    """Loads `view.project` from the URL's `project_id` and checks the user's role in it.

    A user who is not a member gets 404 (the project's existence is not revealed); a member
    whose role is too low gets 403.
    """

    def has_permission(self, request: "Request", view: "APIView") -> bool:
        project_id = view.kwargs.get("project_id")
        if project_id is None:
            return bool(request.user and request.user.is_authenticated)
        project: Project = project_get_for_user(
            user=request.user, project_id=int(project_id), needed=needed_role(request, view)
        )
        view.project = project  # type: ignore[attr-defined]  # the project views read it

        return True
