"""Paying a study's participants on Prolific without storing their Prolific IDs: the researcher
pastes the IDs of the study's submissions (from Prolific), each is hashed as participations are
(`services.pid_hash`), and each gets its participation's status and the analysis' verdict, so
the researcher knows whom to approve and whom to look at before deciding.

With each ID its Prolific submission ID (Prolific's SESSION_ID) may be pasted: a participation
that started with another SESSION_ID is then said to be another submission's, never one to
approve (someone who knew the ID may have started before its owner: the first session wins).

The pasted IDs are read, hashed and answered; they are never stored.
"""

import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from mpp_studio.studies.models import Participation, Study
from mpp_studio.studies.report import participant_key
from mpp_studio.studies.report_ratings import analysis_report
from mpp_studio.studies.services import pid_hash, same_session

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


OTHER_SUBMISSION = "other_submission"  # the ID's participation started with another SESSION_ID


def pasted_submissions(text: str) -> list[tuple[str, str]]:
    """Return (Prolific ID, submission ID) of each non-empty line of "ID, submission" (a comma,
    tab, semicolon or spaces between them), in order, each ID once. A ValidationError on
    `prolific_ids` names a line that does not hold exactly two."""
    pairs: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        parts = [part for part in re.split(r"[\s,;]+", line) if part]
        if not parts:
            continue
        if len(parts) != 2:
            raise ValidationError(
                {
                    "prolific_ids": f"Line {number}: write the participant's Prolific ID, "
                    "then their submission ID."
                }
            )
        pairs.setdefault(parts[0], parts[1])
    _check_ids(list(pairs), [*pairs, *pairs.values()])
    return list(pairs.items())


def pasted_ids(text: str) -> list[str]:
    """Return the distinct Prolific IDs of a pasted text (one a line, or separated by commas,
    semicolons, tabs or spaces), in order. A ValidationError on `prolific_ids` when there are
    none, too many, or one is longer than an ID can be."""
    ids = list(dict.fromkeys(part for part in re.split(r"[\s,;]+", text) if part))
    _check_ids(ids, ids)
    return ids


def _check_ids(ids: list[str], every: list[str]) -> None:
    """Refuse (ValidationError on `prolific_ids`) no ID, more than MAX_IDS, or a value among
    `every` longer than an ID can be."""
    if not ids:
        raise ValidationError({"prolific_ids": "Paste the Prolific IDs of the study's submissions."})
    if len(ids) > MAX_IDS:
        raise ValidationError(
            {"prolific_ids": f"Paste at most {MAX_IDS:,} IDs at a time; there are {len(ids):,}."}
        )
    long = next((i for i in every if len(i) > MAX_ID_LENGTH), None)
    if long is not None:
        raise ValidationError(
            {"prolific_ids": f"“{long[:40]}…” is longer than a Prolific ID ({MAX_ID_LENGTH} characters)."}
        )


def prolific_reconciliation(study: Study, text: str, *, with_submissions: bool = False) -> list[ReconciledId]:
    """Return, for each pasted Prolific ID, its participation's status and the analysis' verdict
    under the study's saved rules (a ValidationError when the text holds no usable IDs). With
    `with_submissions`, each line is an ID and its submission ID, and a participation that
    started with another submission is OTHER_SUBMISSION."""
    submissions = dict(pasted_submissions(text)) if with_submissions else {}
    ids = list(submissions) if with_submissions else pasted_ids(text)
    hashes = {pid: pid_hash(pid) for pid in ids}
    found = {
        p.pid_hash: p
        for p in Participation.objects.filter(study=study, pid_hash__in=set(hashes.values())).only(
            "pid_hash", "session_hash", "status", "completed_at", "token_id"
        )
    }
    verdicts: dict[str, tuple[str, ...]] = {}
    if found:
        try:
            report = analysis_report(study)
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
        if with_submissions and not same_session(participation, submissions[pid]):
            other = "This ID started the study with another Prolific submission: check it before approving."
            rows.append(ReconciledId(pid, OTHER_SUBMISSION, "", True, (other,)))
            continue
        reasons = verdicts.get(participant_key(participation.token_id), ())
        completed = (
            participation.completed_at.strftime("%Y-%m-%d %H:%M UTC") if participation.completed_at else ""
        )
        rows.append(ReconciledId(pid, participation.status, completed, bool(reasons), tuple(reasons)))
    return rows
