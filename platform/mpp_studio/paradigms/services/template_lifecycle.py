"""Creating a project template only when it is valid, and deleting a template no dataset uses."""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError

from generator.errors import TemplateError
from mpp_studio.accounts.models import Project
from mpp_studio.paradigms.models import Template, TemplateVersion
from mpp_studio.paradigms.project_engine import project_template_check
from mpp_studio.paradigms.services.project_templates import template_save


@transaction.atomic(durable=True)
def template_create_valid(
    *, project: Project, source_text: str, user: User | None, note: str = ""
) -> TemplateVersion:
    """Store a new template as version 1 if the engine finds no problem in it in this project.

    Raises:
        TemplateError: every problem the engine finds (line, grammar, position); nothing is stored.
        ValidationError: {"source_text": ...} for a missing uid or one the project already has.
    """
    check = project_template_check(project=project, source_text=source_text, file_name="template.yaml")
    if check.problems:
        raise TemplateError(check.problems)
    return template_save(project=project, source_text=source_text, user=user, note=note)


@transaction.atomic(durable=True)
def template_delete(*, template: Template) -> None:
    """Delete a template and all its versions.

    Raises:
        ValidationError: if a dataset holds pairs made from one of its versions (they keep it).
    """
    try:
        template.delete()
    except ProtectedError:
        raise ValidationError(
            f"Template '{template.uid}' cannot be deleted: a dataset holds pairs made from one of its "
            "versions. Delete those datasets first."
        ) from None
