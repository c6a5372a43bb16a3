"""Drafts: what a person types in the template editor, kept on the server as it changes.

The editor posts its fields here a moment after each change; reopening the editor offers the
draft back. Saving a version ends the draft. A draft is one person's, per template (or per
project for a template not saved yet), and only the latest state is kept.
"""

from collections.abc import Mapping

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from mpp_studio.accounts.models import Project
from mpp_studio.paradigms.models import Template, TemplateDraft

# Form fields that say what to do rather than what the template is.
_NOT_KEPT = frozenset({"csrfmiddlewaretoken", "action", "draft_of"})
# A template is a few kilobytes; this bounds what one person can make the server keep.
DRAFT_MAX_CHARACTERS = 1_000_000


def draft_save(
    *, project: Project, template: Template | None, user: User, fields: Mapping[str, str]
) -> TemplateDraft:
    """Keep the editor's fields as the user's draft of `template` (None: of a new template).

    Raises:
        ValidationError: the fields are larger than any template (DRAFT_MAX_CHARACTERS).
    """
    kept = {str(name): str(value) for name, value in fields.items() if name not in _NOT_KEPT}
    if sum(len(name) + len(value) for name, value in kept.items()) > DRAFT_MAX_CHARACTERS:
        raise ValidationError(
            f"The draft was not kept: the form holds more than {DRAFT_MAX_CHARACTERS:,} characters."
        )
    try:
        base_version = max(0, int(kept.get("base_version", "0") or 0))
    except ValueError:
        base_version = 0
    draft, _ = TemplateDraft.objects.update_or_create(
        project=project,
        template=template,
        user=user,
        defaults={"fields": kept, "base_version": base_version},
    )
    return draft


def draft_discard(*, project: Project, template: Template | None, user: User) -> None:
    """End the user's draft of `template` (None: of a new template): it was saved or dropped."""
    TemplateDraft.objects.filter(project=project, template=template, user=user).delete()
