"""Writes that follow a validation study's analysis: saving its rules, publishing the
per-paradigm summary into each dataset's `validation` field (which the card writer shows), and
`revalidation_create`, a new draft study of the flagged paradigms only."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from mpp_studio.datasets.models import Dataset
from mpp_studio.studies.analysis_rules import AnalysisRules, rules_from_data
from mpp_studio.studies.models import Study
from mpp_studio.studies.report_exports import validation_summary
from mpp_studio.studies.report_ratings import (
    AnalysisReport,
    RatingReport,
    analysis_report,
    rating_validation_summary,
)
from mpp_studio.studies.services import (
    DESIGN_FIELDS,
    TEXT_FIELDS,
    dataset_items,
    study_design_store,
)
from study.items import StudyItem


def rules_save(*, study: Study, data: dict[str, Any]) -> AnalysisRules:
    """Validate and save the researcher's rules on the study; return them."""
    rules = rules_from_data(data)
    study.analysis_rules = rules.to_dict()
    study.save(update_fields=["analysis_rules", "updated_at"])
    return rules


def validation_publish(*, study: Study, report: AnalysisReport | None = None) -> list[Dataset]:
    """Write the validation summary of the study's paradigms into each of its datasets'
    `validation` (the dataset page and card show it): agreement with gold, or for a rating
    study its good-minus-bad differences; return the datasets written. A study without
    analysed answers is a ValidationError."""
    report = report or analysis_report(study)
    analysed = (
        bool(report.analysis.items)
        if isinstance(report, RatingReport)
        else report.analysis.overall is not None
    )
    if not analysed:
        raise ValidationError("No analysed answers yet: there is nothing to publish.")
    written = []
    with transaction.atomic():
        for dataset in study.datasets.all():
            uids = set(dataset.paradigms.values_list("uid", flat=True))
            summary = (
                rating_validation_summary(report, uids)
                if isinstance(report, RatingReport)
                else validation_summary(report, uids)
            )
            if not summary["paradigms"]:
                continue
            dataset.validation = summary
            dataset.save(update_fields=["validation", "updated_at"])
            written.append(dataset)
    if not written:
        raise ValidationError("None of the study's datasets has an analysed paradigm.")
    return written


# What a re-validation does not copy: it is a new Prolific study, with its own STUDY_ID,
# completion code and completion URL (the model's defaults: blank, a fresh code, blank).
NEW_RUN_FIELDS = ("name", "prolific_study_id", "completion_code", "prolific_completion_url")


def revalidation_create(
    *,
    study: Study,
    paradigms: Sequence[str],
    datasets: Sequence[Dataset] | None = None,
    created_by: User | None = None,
    now: datetime | None = None,
) -> Study:
    """Return a new draft study with the same settings as `study`, whose items come only from
    `paradigms` (uids) of `datasets` (default: the study's own; choose a regenerated dataset to
    validate its new pairs). It records the study it follows up and the paradigm filter.

    Raises:
        ValidationError: no paradigm chosen, a dataset of another project, or none of the
            datasets has items of those paradigms (naming them), or the engine's reason.
    """
    wanted = [p for p in dict.fromkeys(paradigms) if p]
    if not wanted:
        raise ValidationError("Choose at least one paradigm to validate again.")
    chosen = list(datasets) if datasets is not None else list(study.datasets.all())
    if not chosen:
        raise ValidationError({"datasets": "Choose at least one dataset."})
    foreign = [d.name for d in chosen if d.project_id != study.project_id]
    if foreign:
        raise ValidationError({"datasets": f"Not datasets of this project: {', '.join(foreign)}."})
    items: list[StudyItem] = [i for i in dataset_items(chosen) if i.paradigm in wanted]
    missing = sorted(set(wanted) - {i.paradigm for i in items})
    if not items:
        raise ValidationError(
            {"datasets": f"The chosen datasets have no items of the paradigms {', '.join(wanted)}."}
        )
    copy = Study(
        project=study.project,
        created_by=created_by,
        name=f"{study.name} (re-validation {(now or timezone.now()):%Y-%m-%d})"[:200],
        revalidation_of=study,
        paradigm_filter=wanted,
        analysis_rules=study.analysis_rules,
        **{k: getattr(study, k) for k in (*DESIGN_FIELDS, *TEXT_FIELDS) if k not in NEW_RUN_FIELDS},
    )
    study_design_store(copy, items)
    with transaction.atomic():
        copy.save()
        copy.datasets.set(chosen)
    if missing:
        copy.missing_paradigms = missing  # type: ignore[attr-defined]  # for the page's message
    return copy
