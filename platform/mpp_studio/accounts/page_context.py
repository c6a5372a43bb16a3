"""What every page under a project's tabs (`accounts/project_base.html`) is rendered with: the
project and the signed-in user's role in it. The apps' views build their pages on it; no view
module imports another app's views."""

from django.http import HttpRequest

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.selectors import role_of


def project_context(request: HttpRequest, project: Project, **extra: object) -> dict[str, object]:
    """Return the context every page extending accounts/project_base.html needs.

    `project` and `role` (the signed-in user's role string in it); pass `active_tab=...` to mark
    the current tab, and any other keys the page needs.
    """
    return {"project": project, "role": role_of(user=request.user, project=project), **extra}
