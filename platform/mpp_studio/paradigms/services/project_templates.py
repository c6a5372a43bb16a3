"""Saving project templates: every save adds a version; nothing is ever overwritten."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import signed_in_or_none
from mpp_studio.paradigms.models import Template, TemplateVersion
from mpp_studio.paradigms.project_engine import ProjectTemplateCheck, project_template_check


def template_save(
    *,
    project: Project,
    source_text: str,
    user: User | None,
    template: Template | None = None,
    note: str = "",
    check: ProjectTemplateCheck | None = None,
) -> TemplateVersion:
    """Store the text as the next version of `template` (a new template when None).

    The version is stored with its validation problems and capacity, whatever they are, so an
    author's work is never lost; only a new template needs a readable `uid` to be named by.
    `check` is the engine's check of the text when the caller made it already (an import checks
    its templates against what it is about to store, before its transaction).

    Raises:
        ValidationError: for a new template whose text gives no usable uid, or a uid another
            template of the project already has (message says which field).
    """
    # The engine's check (parsing, the generator, its capacity) runs before the transaction: a
    # write transaction holds the embedded database's lock, and every other save waits for it.
    if check is None:
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
    user: User | None,
    note: str,
) -> TemplateVersion:
    fields = check.fields
    uid = fields.uid.strip() if fields.uid else ""
    if template is None:
        uid = _new_uid(check)
        if Template.objects.filter(project=project, uid=uid).exists():
            raise ValidationError({"source_text": TAKEN_UID.format(uid=uid)})
        template = Template(project=project, uid=uid)
    elif uid and uid != template.uid:
        if Template.objects.filter(project=project, uid=uid).exclude(pk=template.pk).exists():
            raise ValidationError({"source_text": TAKEN_UID.format(uid=uid)})
        template.uid = uid
    _fields_take(template, check)
    template.full_clean()
    template.save()
    number = (template.versions.aggregate(top=Max("number"))["top"] or 0) + 1
    version = _version_of(template, number, check=check, source_text=source_text, user=user, note=note)
    version.full_clean()
    version.save()
    return version


TAKEN_UID = "This project already has a template with uid '{uid}'."


@dataclass(frozen=True, slots=True)
class NewTemplate:
    """A text to store as version 1 of a new project template, with the engine's check of it."""

    source_text: str
    check: ProjectTemplateCheck
    note: str = ""


def templates_create(
    *, project: Project, new: Sequence[NewTemplate], user: User | None
) -> list[TemplateVersion | ValidationError]:
    """Store each text as version 1 of a new project template, all in two inserts: for an import
    of many templates (a ZhoBLiMP project), whose one transaction must stay short. The caller
    holds the transaction and made the checks (before it).

    The rules are those of `template_save` for a new template; each entry gives the version
    stored, or the ValidationError `template_save` would raise (no uid, a uid the project or an
    earlier entry has, a field that does not fit).
    """
    outcomes: list[TemplateVersion | ValidationError] = []
    pending: list[tuple[Template, TemplateVersion]] = []
    uids = [item.check.fields.uid.strip() if item.check.fields.uid else "" for item in new]
    taken = set(
        Template.objects.filter(project=project, uid__in=[u for u in uids if u]).values_list("uid", flat=True)
    )
    for item in new:
        try:
            uid = _new_uid(item.check)
            if uid in taken:
                raise ValidationError({"source_text": TAKEN_UID.format(uid=uid)})
            template = Template(project=project, uid=uid)
            _fields_take(template, item.check)
            template.full_clean(exclude=["project"], validate_constraints=False)
            version = _version_of(
                template, 1, check=item.check, source_text=item.source_text, user=user, note=item.note
            )
            version.full_clean(exclude=["template", "created_by"], validate_constraints=False)
        except ValidationError as exc:
            outcomes.append(exc)
            continue
        taken.add(uid)
        pending.append((template, version))
        outcomes.append(version)
    Template.objects.bulk_create([template for template, _ in pending])
    for template, version in pending:
        version.template = template
    TemplateVersion.objects.bulk_create([version for _, version in pending])
    return outcomes


def _new_uid(check: ProjectTemplateCheck) -> str:
    """Return the uid a new template takes from its text.

    Raises:
        ValidationError: the text gives no usable uid.
    """
    uid = check.fields.uid.strip() if check.fields.uid else ""
    if not uid:
        raise ValidationError(
            {
                "source_text": "The template needs a `uid:` line (letters, digits and _) "
                "before it can be saved."
            }
        )
    return uid


def _fields_take(template: Template, check: ProjectTemplateCheck) -> None:
    """Copy the metadata the text gives onto the template row (lists filter on them)."""
    fields = check.fields
    template.phenomenon = fields.phenomenon or template.phenomenon
    template.language = fields.language or template.language
    template.description = fields.description or template.description


def _version_of(
    template: Template,
    number: int,
    *,
    check: ProjectTemplateCheck,
    source_text: str,
    user: User | None,
    note: str,
) -> TemplateVersion:
    """Return the (unsaved) version `number` of a template, with the check's outcome."""
    return TemplateVersion(
        template=template,
        number=number,
        source_text=source_text,
        engine_hash=check.parsed.content_hash if check.parsed is not None else "",
        problems=[p.to_dict() for p in check.problems],
        capacity_text=check.capacity_text,
        created_by=signed_in_or_none(user),
        note=note,
    )
