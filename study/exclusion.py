"""Participant exclusion for native-speaker validation studies, and the CONSORT-style flow.

Exclusion here decides only which participants' answers enter the *analysis*; it is not a
payment decision. Prolific allows a submission to be rejected (not paid) only after at least two
failed fair attention checks, while an analysis may rightly exclude on stricter grounds (one
failed catch trial, answering too fast, always choosing the same side). Nothing here says who is
paid; the platform records that on its own.

Rating studies (Likert or magnitude estimation) go through the same rules with `exclude_raters`:
each rating counts as correct when `RatingScale.agrees` says it lies on the side of the midpoint
its sentence is expected at, so a catch trial's scramble rated at or above the midpoint is a
failed catch (and a filler's good sentence rated at or below it a wrong filler). Ratings have no
sides, so the position-bias rule never applies to them.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from study.agreement import Judgement, ParticipantInfo, as_dict
from study.errors import StudyError
from study.rating_scale import RatingJudgement, RatingScale

REASON_INCOMPLETE = "incomplete"
REASON_CATCH = "catch_trials"
REASON_FILLERS = "filler_accuracy"
REASON_TOO_FAST = "too_fast"
REASON_POSITION_BIAS = "position_bias"
REASON_TOO_FEW_ITEMS = "too_few_items"
# The order the flow report lists reasons in.
EXCLUSION_REASONS = (
    REASON_INCOMPLETE,
    REASON_CATCH,
    REASON_FILLERS,
    REASON_TOO_FAST,
    REASON_POSITION_BIAS,
    REASON_TOO_FEW_ITEMS,
)


@dataclass(frozen=True, slots=True)
class ExclusionRules:
    """Which participants' answers enter the analysis (never who is paid). None turns a rule off.

    - `min_catch_accuracy`: share of catch trials answered correctly (default 1.0: all of them);
      a participant without catch trials is not judged by this rule.
    - `min_filler_accuracy`: the same for filler trials with a known answer.
    - `min_median_rt_ms`: median response time over non-practice trials; below it is too fast
      to have read both sentences.
    - `max_left_share_deviation`: |share of left choices - 0.5| above it is a position bias
      (sides are randomised, so an attentive participant stays near 0.5).
    - `min_items_answered`: experimental items answered.
    - `include_incomplete`: analyse participants who did not complete (they still face the rules).
    """

    min_catch_accuracy: float | None = 1.0
    min_filler_accuracy: float | None = None
    min_median_rt_ms: float | None = None
    max_left_share_deviation: float | None = None
    min_items_answered: int | None = None
    include_incomplete: bool = False

    def __post_init__(self) -> None:
        for name in ("min_catch_accuracy", "min_filler_accuracy"):
            value = getattr(self, name)
            if value is not None and not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} is a share between 0 and 1, got {value}")
        if self.max_left_share_deviation is not None and not 0.0 <= self.max_left_share_deviation <= 0.5:
            raise ValueError(
                f"max_left_share_deviation is between 0 and 0.5, got {self.max_left_share_deviation}"
            )
        if self.min_median_rt_ms is not None and self.min_median_rt_ms < 0:
            raise ValueError(f"min_median_rt_ms cannot be negative, got {self.min_median_rt_ms}")
        if self.min_items_answered is not None and self.min_items_answered < 0:
            raise ValueError(f"min_items_answered cannot be negative, got {self.min_items_answered}")

    def to_dict(self) -> dict[str, object]:
        """Return the rules as a JSON-ready dict."""
        return as_dict(self)


@dataclass(frozen=True, slots=True)
class ParticipantQC:
    """One participant's checks. `reasons` are `EXCLUSION_REASONS` codes (empty: analysed);
    `messages` say the same in words, one per reason."""

    participant_id: str
    list_id: str
    completed: bool
    items_answered: int
    items_correct: int
    catch_correct: int
    catch_total: int
    filler_correct: int
    filler_total: int
    median_rt_ms: float | None
    left_share: float | None
    reasons: tuple[str, ...]
    messages: tuple[str, ...]

    @property
    def excluded(self) -> bool:
        """Return True when the participant's answers are left out of the analysis."""
        return bool(self.reasons)

    def to_dict(self) -> dict[str, object]:
        """Return the checks as a JSON-ready dict (also the participants CSV row)."""
        return as_dict(self, excluded=self.excluded)


@dataclass(frozen=True, slots=True)
class ExclusionFlow:
    """CONSORT-style counts: started -> completed -> checked -> excluded -> analysed.

    `checked` is completed, plus the incomplete when the rules include them. A participant
    failing two rules counts under both in `excluded_by_reason` but once in `excluded`.
    `list_id` is "" for the whole study, else the list these counts are for.
    """

    list_id: str
    started: int
    completed: int
    checked: int
    excluded: int
    excluded_by_reason: dict[str, int]
    analysed: int

    def to_dict(self) -> dict[str, object]:
        """Return the counts as a JSON-ready dict."""
        return as_dict(self)


@dataclass(frozen=True, slots=True)
class ExclusionResult:
    """Every participant's checks (sorted by id), the flow overall and per list (sorted)."""

    participants: tuple[ParticipantQC, ...]
    flow: ExclusionFlow
    flow_by_list: tuple[ExclusionFlow, ...]

    @property
    def analysed_ids(self) -> frozenset[str]:
        """Return the ids of the participants whose answers are analysed."""
        return frozenset(p.participant_id for p in self.participants if not p.excluded)


def _short(correct: int, total: int, minimum: float | None) -> bool:
    """Return True when a share rule is set, applies (some trials) and is not met."""
    return minimum is not None and total > 0 and correct / total < minimum


def _check(info: ParticipantInfo, trials: Sequence[Judgement], rules: ExclusionRules) -> ParticipantQC:
    """Return the ParticipantQC of one participant's trials under `rules`."""
    main = [t for t in trials if not t.is_practice]
    experimental = [t for t in main if t.is_experimental]
    catch = [t for t in main if t.is_catch]
    fillers = [t for t in main if t.is_filler]
    times = [t.rt_ms for t in main if t.rt_ms is not None]
    sides = [t.chose_left for t in main if t.chose_left is not None]
    median_rt = float(statistics.median(times)) if times else None
    left_share = sum(sides) / len(sides) if sides else None
    catch_correct = sum(t.correct for t in catch)
    filler_correct = sum(t.correct for t in fillers)
    failed: dict[str, str] = {}
    if not info.completed and not rules.include_incomplete:
        failed[REASON_INCOMPLETE] = "Did not complete the study."
    if _short(catch_correct, len(catch), rules.min_catch_accuracy):
        failed[REASON_CATCH] = (
            f"Answered {catch_correct} of {len(catch)} catch trials correctly "
            f"(needs {rules.min_catch_accuracy:.0%})."
        )
    if _short(filler_correct, len(fillers), rules.min_filler_accuracy):
        failed[REASON_FILLERS] = (
            f"Answered {filler_correct} of {len(fillers)} fillers correctly "
            f"(needs {rules.min_filler_accuracy:.0%})."
        )
    floor = rules.min_median_rt_ms
    if floor is not None and median_rt is not None and median_rt < floor:
        failed[REASON_TOO_FAST] = f"Median response time {median_rt:.0f} ms is below {floor:.0f} ms."
    spread = rules.max_left_share_deviation
    if spread is not None and left_share is not None and abs(left_share - 0.5) > spread:
        failed[REASON_POSITION_BIAS] = (
            f"Chose the left sentence on {left_share:.0%} of trials (allowed 50% ± {spread:.0%})."
        )
    if rules.min_items_answered is not None and len(experimental) < rules.min_items_answered:
        failed[REASON_TOO_FEW_ITEMS] = (
            f"Answered {len(experimental)} items (needs {rules.min_items_answered})."
        )
    return ParticipantQC(
        participant_id=info.participant_id,
        list_id=info.list_id,
        completed=info.completed,
        items_answered=len(experimental),
        items_correct=sum(t.correct for t in experimental),
        catch_correct=catch_correct,
        catch_total=len(catch),
        filler_correct=filler_correct,
        filler_total=len(fillers),
        median_rt_ms=median_rt,
        left_share=left_share,
        reasons=tuple(failed),
        messages=tuple(failed.values()),
    )


def _flow(list_id: str, participants: Sequence[ParticipantQC], rules: ExclusionRules) -> ExclusionFlow:
    """Return the ExclusionFlow counts of `participants`."""
    completed = sum(p.completed for p in participants)
    checked = [p for p in participants if p.completed or rules.include_incomplete]
    by_reason = {
        reason: sum(reason in p.reasons for p in checked)
        for reason in EXCLUSION_REASONS
        if reason != REASON_INCOMPLETE
    }
    excluded = sum(p.excluded for p in checked)
    return ExclusionFlow(
        list_id=list_id,
        started=len(participants),
        completed=completed,
        checked=len(checked),
        excluded=excluded,
        excluded_by_reason=by_reason,
        analysed=len(checked) - excluded,
    )


def exclude_participants(
    judgements: Iterable[Judgement],
    rules: ExclusionRules | None = None,
    participants: Iterable[ParticipantInfo] = (),
) -> ExclusionResult:
    """Return every participant's checks under `rules` (default: all catch trials correct) and
    the CONSORT-style flow, overall and per list. `participants` adds who started, who completed
    and their lists; anyone else with judgements counts as started and completed in list ""."""
    rules = rules or ExclusionRules()
    infos = {p.participant_id: p for p in participants}
    trials: dict[str, list[Judgement]] = defaultdict(list)
    for judgement in judgements:
        trials[judgement.participant_id].append(judgement)
        infos.setdefault(judgement.participant_id, ParticipantInfo(judgement.participant_id))
    checks = tuple(_check(infos[pid], trials.get(pid, []), rules) for pid in sorted(infos))
    lists: dict[str, list[ParticipantQC]] = defaultdict(list)
    for check in checks:
        lists[check.list_id].append(check)
    return ExclusionResult(
        participants=checks,
        flow=_flow("", checks, rules),
        flow_by_list=tuple(_flow(list_id, lists[list_id], rules) for list_id in sorted(lists)),
    )


def rating_checks(ratings: Iterable[RatingJudgement], scale: RatingScale) -> list[Judgement]:
    """Return each rating as the Judgement the exclusion rules read: correct when the rating
    agrees with the end its sentence is expected at (`RatingScale.agrees`: a good sentence
    above the midpoint, a bad or scrambled one below it; the midpoint agrees with neither), no
    side chosen, and the trial's kind and response time.

    Raises:
        StudyError: for a rating that is not a valid answer on `scale`, naming it.
    """
    out = []
    for rating in ratings:
        try:
            correct = scale.agrees(rating.expected, rating.value)
        except StudyError as error:
            raise StudyError(
                f"Participant {rating.participant_id!r}, item {rating.item_id!r}: {error}"
            ) from None
        out.append(
            Judgement(
                item_id=rating.item_id,
                participant_id=rating.participant_id,
                correct=correct,
                paradigm=rating.paradigm,
                phenomenon=rating.phenomenon,
                rt_ms=rating.rt_ms,
                chose_left=None,
                is_catch=rating.kind == "catch",
                is_practice=rating.kind == "practice",
                is_filler=rating.kind == "filler",
            )
        )
    return out


def exclude_raters(
    ratings: Iterable[RatingJudgement],
    scale: RatingScale,
    rules: ExclusionRules | None = None,
    participants: Iterable[ParticipantInfo] = (),
) -> ExclusionResult:
    """Return the exclusion checks and flow of a rating study, as `exclude_participants` does for
    2AFC, each rating judged by `rating_checks` (catch trials: the scramble rated below the
    midpoint; `items_correct`: experimental ratings on their sentence's expected side). A
    participant with no `ParticipantInfo` takes the list of their ratings.

    Raises:
        StudyError: for a rating that is not a valid answer on `scale`.
    """
    ratings = list(ratings)
    infos = {p.participant_id: p for p in participants}
    for rating in ratings:
        infos.setdefault(
            rating.participant_id, ParticipantInfo(rating.participant_id, list_id=rating.list_id)
        )
    return exclude_participants(rating_checks(ratings, scale), rules, infos.values())
