"""Acceptability ratings, one sentence at a time: the scale a rating study uses (a Likert scale of
2 to 11 points, or magnitude estimation against a reference sentence), what a valid answer is,
and the one rule deciding whether an answer agrees with the end a sentence is expected at
(a good sentence high, a bad one or a scrambled catch sentence low). Catch trials, practice
feedback and exclusion all ask `RatingScale.agrees` (through `rating_agrees` for a trial).

`RatingJudgement` is the record of one rating answer that exclusion (`study.exclusion`) and the
analysis (`study.ratings`) read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Protocol

from study.errors import StudyError

RatingTask = Literal["rating", "magnitude"]
RATING_TASKS: tuple[RatingTask, ...] = ("rating", "magnitude")
ExpectedEnd = Literal["high", "low"]
RatingRole = Literal["good", "bad"]
RatingKind = Literal["experimental", "catch", "practice", "filler"]
RATING_KINDS: tuple[RatingKind, ...] = ("experimental", "catch", "practice", "filler")

MIN_SCALE_POINTS = 2
MAX_SCALE_POINTS = 11
# The largest magnitude estimate taken: typing 10^7 for a sentence is a slip, not a judgement.
MAX_MAGNITUDE = 1e6


def expected_end(role: str) -> ExpectedEnd:
    """Return the end of the scale a sentence of `role` is expected at: "high" for a good
    sentence, "low" for a bad one (a catch trial's scramble is a bad sentence).

    Raises:
        StudyError: for a role other than "good" or "bad".
    """
    if role == "good":
        return "high"
    if role == "bad":
        return "low"
    raise StudyError(f"A rated sentence is 'good' or 'bad', not {role!r}.")


def _number(value: object) -> float | None:
    """Return `value` as a float when it is an int or float (never a bool), else None; an
    integer too large for a float is infinity (so the range check refuses it)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return float(value)
    except OverflowError:
        return math.inf


@dataclass(frozen=True, slots=True)
class RatingScale:
    """How sentences are rated.

    task: "rating" (a Likert scale 1..scale_points) or "magnitude" (magnitude estimation: any
      positive number, relative to the reference sentence, which is worth `reference_value`).
    scale_points: the points of a Likert scale (2 to 11); unused for magnitude estimation.
    reference_value: the number the reference sentence is worth (magnitude estimation only).
    """

    task: RatingTask
    scale_points: int = 7
    reference_value: float = 100.0

    def __post_init__(self) -> None:
        if self.task not in RATING_TASKS:
            raise StudyError(f"A rating scale is 'rating' or 'magnitude', not {self.task!r}.")
        points = self.scale_points
        if (
            not isinstance(points, int)
            or isinstance(points, bool)
            or not MIN_SCALE_POINTS <= points <= MAX_SCALE_POINTS
        ):
            raise StudyError(
                f"A rating scale has {MIN_SCALE_POINTS} to {MAX_SCALE_POINTS} points, got {points!r}."
            )
        reference = _number(self.reference_value)
        if reference is None or not math.isfinite(reference) or not 0 < reference <= MAX_MAGNITUDE:
            raise StudyError(
                f"The reference sentence's value must be a positive number up to {MAX_MAGNITUDE:g}, "
                f"got {self.reference_value!r}."
            )

    @property
    def midpoint(self) -> float:
        """Return the neutral point: the middle of a Likert scale ((points + 1) / 2, e.g. 4 of
        7 and 3.5 of 6), or the reference value for magnitude estimation."""
        if self.task == "magnitude":
            return float(self.reference_value)
        return (self.scale_points + 1) / 2

    def check(self, value: object) -> float:
        """Return a submitted answer as a number once it is valid: on a Likert scale a whole
        number from 1 to `scale_points` (5.0 reads as 5); for magnitude estimation a finite
        number above 0 and at most 1,000,000.

        Raises:
            StudyError: naming what is wrong with the answer (not a number, NaN or infinite,
                outside the scale, not positive, too large).
        """
        number = _number(value)
        if number is None:
            raise StudyError(f"A rating must be a number, got {value!r}.")
        if not math.isfinite(number):
            raise StudyError(f"A rating must be a finite number, got {value!r}.")
        if self.task == "magnitude":
            if number <= 0:
                raise StudyError(f"A magnitude estimate must be above 0, got {value!r}.")
            if number > MAX_MAGNITUDE:
                raise StudyError(f"A magnitude estimate can be at most {MAX_MAGNITUDE:,.0f}, got {value!r}.")
            return number
        if not number.is_integer() or not 1 <= number <= self.scale_points:
            raise StudyError(f"A rating must be a whole number from 1 to {self.scale_points}, got {value!r}.")
        return number

    def agrees(self, expected: str, value: float) -> bool:
        """Return True when `value` lies on the `expected` side of the midpoint: above it for
        "high", below it for "low". The midpoint itself (4 on a 7-point scale; the reference
        value in magnitude estimation) agrees with neither end.

        This is the one rule for a rating's correctness: catch trials (a scramble rated at or
        above the midpoint is a failed catch), practice feedback and exclusion all use it.

        Raises:
            StudyError: for an expected end other than "high" or "low", or an invalid value.
        """
        number = self.check(value)
        if expected == "high":
            return number > self.midpoint
        if expected == "low":
            return number < self.midpoint
        raise StudyError(f"The expected end of a rating is 'high' or 'low', not {expected!r}.")

    def to_dict(self) -> dict[str, object]:
        """Return the scale as JSON-ready data."""
        return {"task": self.task, "scale_points": self.scale_points, "reference_value": self.reference_value}


class RatedTrial(Protocol):
    """What the rating rules read of a trial (`study.order.Trial` has it)."""

    @property
    def trial_index(self) -> int: ...
    @property
    def task(self) -> str: ...
    @property
    def expected(self) -> str: ...
    @property
    def scale_points(self) -> int: ...
    @property
    def reference_value(self) -> int: ...


def trial_scale(trial: RatedTrial) -> RatingScale:
    """Return the RatingScale of a rating or magnitude trial.

    Raises:
        StudyError: for a trial that takes a choice (2AFC) or a ranking, not a rating.
    """
    if trial.task == "rating":
        return RatingScale("rating", trial.scale_points)
    if trial.task == "magnitude":
        return RatingScale("magnitude", reference_value=trial.reference_value)
    raise StudyError(
        f"Trial {trial.trial_index + 1} is a {trial.task} trial: it takes a choice, not a rating."
    )


def validate_rating(trial: RatedTrial, value: object) -> float:
    """Return the answer `value` to a rating or magnitude trial as a number once it is valid
    (see `RatingScale.check`).

    Raises:
        StudyError: for an invalid answer, or a trial that is not rated.
    """
    return trial_scale(trial).check(value)


def rating_agrees(trial: RatedTrial, value: object) -> bool:
    """Return True when the answer `value` agrees with the end the trial's sentence is expected
    at (`RatingScale.agrees`): a good sentence rated above the midpoint, a bad or scrambled one
    below it. What catch trials, practice feedback and exclusion count as correct.

    Raises:
        StudyError: for an invalid answer, or a trial that is not rated.
    """
    scale = trial_scale(trial)
    return scale.agrees(trial.expected, scale.check(value))


@dataclass(frozen=True, slots=True)
class RatingJudgement:
    """One rating answer, as exclusion and the analysis read it.

    role: the rated sentence's role, "good" or "bad" (a catch trial's scramble is "bad").
    kind: the trial's kind: "experimental" (analysed), "filler" (scaled with, never analysed),
      "catch" (scrambled sentence, for exclusion) or "practice" (left out of everything).
    value: the raw answer (a Likert point, or a magnitude estimate, not yet log-transformed).
    list_id: the participant's list; rt_ms: the response time, when recorded.
    """

    participant_id: str
    item_id: str
    paradigm: str
    phenomenon: str
    role: RatingRole
    kind: RatingKind
    value: float
    list_id: str = ""
    rt_ms: float | None = None

    def __post_init__(self) -> None:
        if self.role not in ("good", "bad"):
            raise StudyError(
                f"Rating of item {self.item_id!r} by {self.participant_id!r}: the role is 'good' or "
                f"'bad', not {self.role!r}."
            )
        if self.kind not in RATING_KINDS:
            raise StudyError(
                f"Rating of item {self.item_id!r} by {self.participant_id!r}: the kind is one of "
                f"{', '.join(RATING_KINDS)}, not {self.kind!r}."
            )

    @property
    def expected(self) -> ExpectedEnd:
        """Return the end this sentence is expected at ("high" for good, "low" for bad)."""
        return expected_end(self.role)
