"""Saving project templates: every save adds a version; nothing is ever overwritten."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from mpp_studio.accounts.models import Project
from mpp_studio.paradigms.models import Template, TemplateVersion
from mpp_studio.paradigms.project_engine import ProjectTemplateCheck, project_template_check


def template_save(
    *,
    project: Project,
    source_text: str,
    user: AbstractBaseUser | None,
    template: Template | None = None,
    note: str = "",
) -> TemplateVersion:
    """Store the text as the next version of `template` (a new template when None).

    The version is stored with its validation problems and capacity, whatever they are, so an
    author's work is never lost; only a new template needs a readable `uid` to be named by.

    Raises:
        ValidationError: for a new template whose text gives no usable uid, or a uid another
            template of the project already has (message says which field).
    """
    # The engine's check (parsing, the generator, its capacity) runs before the transaction: a
    # write transaction holds the embedded database's lock, and every other save waits for it.
    check = project_template_check(
        project=project,
        source_text=source_text,
        file_name=f"{template.uid}.yaml" if template else "template.yaml",
    )
    with transaction.atomic():
        return _version_store(
            project=project, template=template, check=check, source_text=source_text, user=user, note=note
        )


def _version_store(
    *,
    project: Project,
    template: Template | None,
    check: ProjectTemplateCheck,
    source_text: str,
    user: AbstractBaseUser | None,
    note: str,
) -> TemplateVersion:
    fields = check.fields
    uid = fields.uid.strip() if fields.uid else ""
    if template is None:
        if not uid:
            raise ValidationError(
                {
                    "source_text": "The template needs a `uid:` line (letters, digits and _) "
                    "before it can be saved."
                }
            )
        if Template.objects.filter(project=project, uid=uid).exists():
            raise ValidationError({"source_text": f"This project already has a template with uid '{uid}'."})
        template = Template(project=project, uid=uid)
    elif uid and uid != template.uid:
        if Template.objects.filter(project=project, uid=uid).exclude(pk=template.pk).exists():
            raise ValidationError({"source_text": f"This project already has a template with uid '{uid}'."})
        template.uid = uid
    template.phenomenon = fields.phenomenon or template.phenomenon
    template.language = fields.language or template.language
    template.description = fields.description or template.description
    template.full_clean()
    template.save()
    number = (template.versions.aggregate(top=Max("number"))["top"] or 0) + 1
    version = TemplateVersion(
        template=template,
        number=number,
        source_text=source_text,
        engine_hash=check.parsed.content_hash if check.parsed is not None else "",
        problems=[p.to_dict() for p in check.problems],
        capacity_text=check.capacity_text,
        created_by=user if user is not None and user.is_authenticated else None,
        note=note,
    )
    version.full_clean()
    version.save()
    return version
