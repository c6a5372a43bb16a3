"""Paying a study's participants on Prolific without storing their Prolific IDs: the researcher
pastes the IDs of the study's submissions (from Prolific), each is hashed as participations are
(`services.pid_hash`), and each gets its participation's status and the analysis' verdict, so
the researcher knows whom to approve and whom to look at before deciding.

The pasted IDs are read, hashed and answered; they are never stored.
"""

import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from mpp_studio.studies.models import Participation, Study
from mpp_studio.studies.report import participant_key, study_report
from mpp_studio.studies.report_ratings import rating_report
from mpp_studio.studies.services import RATED_TASKS, pid_hash

MAX_IDS = 5_000
MAX_ID_LENGTH = 100


@dataclass(frozen=True, slots=True)
class ReconciledId:
    """One pasted Prolific ID: its participation's status ("not_found" when it never started
    this study), when it completed, and whether the analysis keeps its answers (`reasons` say
    why not, in words; empty when analysed or not checked)."""

    prolific_id: str
    status: str
    completed_at: str
    excluded: bool
    reasons: tuple[str, ...]

    @property
    def to_approve(self) -> bool:
        """Return True when the submission completed and the analysis keeps it."""
        return self.status == Participation.Status.COMPLETED and not self.excluded


def pasted_ids(text: str) -> list[str]:
    """Return the distinct Prolific IDs of a pasted text (one a line, or separated by commas,
    semicolons, tabs or spaces), in order. A ValidationError on `prolific_ids` when there are
    none, too many, or one is longer than an ID can be."""
    ids = list(dict.fromkeys(part for part in re.split(r"[\s,;]+", text) if part))
    if not ids:
        raise ValidationError({"prolific_ids": "Paste the Prolific IDs of the study's submissions."})
    if len(ids) > MAX_IDS:
        raise ValidationError(
            {"prolific_ids": f"Paste at most {MAX_IDS:,} IDs at a time; there are {len(ids):,}."}
        )
    long = next((i for i in ids if len(i) > MAX_ID_LENGTH), None)
    if long is not None:
        raise ValidationError(
            {"prolific_ids": f"“{long[:40]}…” is longer than a Prolific ID ({MAX_ID_LENGTH} characters)."}
        )
    return ids


def prolific_reconciliation(study: Study, text: str) -> list[ReconciledId]:
    """Return, for each pasted Prolific ID, its participation's status and the analysis' verdict
    under the study's saved rules (a ValidationError when the text holds no usable IDs)."""
    ids = pasted_ids(text)
    hashes = {pid: pid_hash(pid) for pid in ids}
    found = {
        p.pid_hash: p
        for p in Participation.objects.filter(study=study, pid_hash__in=set(hashes.values())).only(
            "pid_hash", "status", "completed_at", "token_id"
        )
    }
    verdicts: dict[str, tuple[str, ...]] = {}
    if found:
        try:
            report = rating_report(study) if study.task in RATED_TASKS else study_report(study)
        except ValidationError:
            report = None
        exclusion = report.analysis.exclusion if report is not None else None
        if exclusion is not None:
            verdicts = {q.participant_id: q.messages for q in exclusion.participants if q.excluded}
    rows = []
    for pid in ids:
        participation = found.get(hashes[pid])
        if participation is None:
            rows.append(ReconciledId(pid, "not_found", "", False, ()))
            continue
        reasons = verdicts.get(participant_key(participation.token_id), ())
        completed = (
            participation.completed_at.strftime("%Y-%m-%d %H:%M UTC") if participation.completed_at else ""
        )
        rows.append(ReconciledId(pid, participation.status, completed, bool(reasons), tuple(reasons)))
    return rows
