"""Creating a project template only when it is valid, duplicating one, and deleting a template no
dataset uses."""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError

from generator.document import DocumentError, text_with_uid
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


def template_duplicate(*, template: Template, user: User | None) -> TemplateVersion:
    """Store the latest version of a template as version 1 of a new one, `<uid>_copy` (or
    `_copy2`, ... when taken); the original and its versions are left as they are.

    Raises:
        ValidationError: the template has no version, or its text cannot be given another uid.
    """
    latest = template.latest_version()
    if latest is None:
        raise ValidationError(f"Template '{template.uid}' has no version to copy.")
    taken = set(
        Template.objects.filter(project=template.project, uid__startswith=f"{template.uid}_copy").values_list(
            "uid", flat=True
        )
    )
    uid = next(
        candidate
        for n in range(1, len(taken) + 2)
        if (candidate := f"{template.uid}_copy" + (str(n) if n > 1 else "")) not in taken
    )
    try:
        text = text_with_uid(latest.source_text, uid)
    except DocumentError as exc:
        raise ValidationError(
            f"Template '{template.uid}' was not copied: version {latest.number} cannot be read ({exc})."
        ) from None
    return template_save(
        project=template.project,
        source_text=text,
        user=user,
        note=f"A copy of {template.uid}, version {latest.number}.",
    )


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
