"""Count a template's problems and capacity again after a vocabulary it names has changed.

A template version stores its check (problems, the capacity in words) as counted when it was
saved; the template list and the new-dataset form show it. When a vocabulary grows, shrinks or is
renamed (lexicon's `vocabulary_changed`), `templates_recount_request` marks the latest versions
of the project's templates that name it and queues `paradigms.recount_templates`, whose run
(`templates_recount_run`) checks each marked version against the project as it is and stores the
outcome. Counting is the slow part of a check, so it runs on a worker, never in the request that
saved an item. Safe to run twice: a version marked again while it was counted stays marked.
"""

import logging

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from mpp_studio.paradigms.models import TemplateVersion
from mpp_studio.paradigms.project_engine import template_version_check
from vocab.lexicon import Vocabulary as Lexicon

logger = logging.getLogger(__name__)


def templates_recount_request(*, project_id: int, name: str) -> int:
    """Mark the latest version of each of the project's templates whose text names `name` (a
    vocabulary that changed) and queue their recount; return how many were marked."""
    from mpp_studio.paradigms.tasks import recount_templates

    latest = (
        TemplateVersion.objects.filter(template=OuterRef("template")).order_by("-number").values("pk")[:1]
    )
    with transaction.atomic():
        marked = TemplateVersion.objects.filter(
            template__project_id=project_id, pk=Subquery(latest), source_text__contains=name
        ).update(recount_requested_at=timezone.now())
        if marked:
            recount_templates.delay_on_commit(project_id)
    return marked


def templates_recount_run(*, project_id: int) -> int:
    """Check every marked version of the project's templates again and store its problems and
    capacity; return how many were stored. Each version is its own short transaction."""
    lexicons: dict[int, Lexicon] = {}
    stored = 0
    marked = TemplateVersion.objects.filter(
        template__project_id=project_id, recount_requested_at__isnull=False
    ).select_related("template", "template__project")
    for version in marked.order_by("template__uid"):
        check = template_version_check(version, lexicons=lexicons)
        stored += TemplateVersion.objects.filter(
            pk=version.pk, recount_requested_at=version.recount_requested_at
        ).update(
            problems=[problem.to_dict() for problem in check.problems],
            capacity_text=check.capacity_text,
            recount_requested_at=None,
        )
    logger.info("recounted %s template version(s) of project %s", stored, project_id)
    return stored


def recount_on_vocabulary_change(sender: object, *, project_id: int, name: str, **kwargs: object) -> None:
    """Receive lexicon's `vocabulary_changed`: mark and queue the templates that name it."""
    templates_recount_request(project_id=project_id, name=name)
