"""Curation of a dataset's pairs: a person flags a pair to look at again, or excludes it, always
saying why. Excluded pairs stay stored (and can be brought back) but every export leaves them out
and the dataset card lists them (`exports.records`, `exports.card`)."""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction

from mpp_studio.datasets.models import Pair, PairReview
from mpp_studio.lexicon.validation import text_problem

REASON_LIMIT = PairReview._meta.get_field("reason").max_length or 500
DECISIONS = dict(PairReview.Decision.choices)


@transaction.atomic
def pair_review_set(*, pair: Pair, decision: str, reason: str, user: User | None) -> PairReview:
    """Flag or exclude a pair with the reason (replacing an earlier decision on it).

    Raises:
        ValidationError: {"decision": ...} for a decision other than flagged or excluded;
            {"reason": ...} for a blank, too long or multi-line reason.
    """
    errors: dict[str, str] = {}
    if decision not in DECISIONS:
        errors["decision"] = f"choose one of {', '.join(DECISIONS)}, not '{decision}'"
    reason = " ".join(reason.split()) if "\x00" not in reason else reason
    problem = text_problem(reason, label="reason", limit=REASON_LIMIT)
    if problem is not None:
        errors["reason"] = problem + (" (say why the pair is flagged or excluded)" if not reason else "")
    if errors:
        raise ValidationError(errors)
    review, _ = PairReview.objects.update_or_create(
        pair=pair,
        defaults={
            "dataset_id": pair.paradigm.dataset_id,
            "decision": decision,
            "reason": reason,
            "created_by": user,
        },
    )
    return review


@transaction.atomic
def pair_review_clear(*, pair: Pair) -> bool:
    """Take back the decision on a pair (it is kept and exported again); return whether it had one."""
    deleted, _ = PairReview.objects.filter(pair=pair).delete()
    return bool(deleted)
