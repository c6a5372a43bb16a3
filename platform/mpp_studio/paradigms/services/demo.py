"""The demo project: the shipped library, imported for the demo user so they can generate at once."""


from django.contrib.auth.models import User

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.services import project_create
from mpp_studio.paradigms.selectors import template_latest_list
from mpp_studio.paradigms.services.library_into_project import LibraryImportReport, library_templates_import

DEMO_PROJECT_NAME = "Demo project"


def demo_project_ensure(*, user: User) -> tuple[Project, LibraryImportReport | None]:
    """Return the user's demo project, creating it with every valid shipped paradigm if absent.

    Returns:
        The project and the import report (None when the project already existed; it is left
        as the user made it).
    """
    existing = Project.objects.filter(name=DEMO_PROJECT_NAME, memberships__user=user).first()
    if existing is not None:
        return existing, None
    project = project_create(
        name=DEMO_PROJECT_NAME,
        description="The shipped English and Chinese example paradigms, with their vocabularies "
        "and phrases. Generate a dataset from them, or change them and see the preview.",
        created_by=user,
    )
    valid = [t for t in template_latest_list() if not t.problems]
    return project, library_templates_import(project=project, templates=valid, user=user)
