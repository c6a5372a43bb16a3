"""Minimal-pair accuracy from reduced sentence scores: one explicit tie rule, bootstrap intervals,
exact binomial tests, per-phenomenon and per-paradigm cells, and sanity warnings.

Tie rule (used everywhere in this module): a pair whose two scores differ by at most
`tie_tolerance` is a tie. A tie counts 0.5 towards accuracy, is reported in `ties`, and is left
out of the binomial test (which then tests the untied pairs' wins against 50%). Argmax-style
code gives ties to the first option, usually the good sentence; strict comparisons count them
wrong; half credit is neither optimistic nor pessimistic.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from scoring.items import HIGHER_IS_BETTER, REDUCTIONS
from scoring.stats import binomial_test, bootstrap_ci, wilson_interval

DEFAULT_TIE_TOLERANCE = 1e-6
# Overall accuracy at or below this, and below 50% with p < FLIPPED_P, suggests swapped
# good/bad labels (a BLiMP run below 10% was a flipped comparison; HELM #428) rather than a
# weak model: even unigram baselines stay near chance overall.
FLIPPED_BELOW = 0.35
FLIPPED_P = 0.01
# More ties than this share points at rounding (bf16 logits) or identical sentences.
TIE_WARNING_SHARE = 0.05


@dataclass(frozen=True, slots=True)
class PairScores:
    """One minimal pair's reduced sentence scores (`good`, `bad`: e.g. summed log-probs, or BPT).

    `length_equal` says whether the two sentences have the same number of tokens (None when
    unknown); sum-reduced scores favour the shorter sentence, so both subsets are reported.
    """

    item_id: str
    uid: str
    phenomenon: str
    good: float
    bad: float
    length_equal: bool | None = None


def pair_outcome(
    good: float, bad: float, *, higher_is_better: bool, tie_tolerance: float = DEFAULT_TIE_TOLERANCE
) -> float:
    """Return 1.0 when the good sentence scores better, 0.0 when worse, 0.5 for a tie
    (|good - bad| <= tie_tolerance, or two equal infinite scores).

    Raises:
        ValueError: if a score is NaN.
    """
    if math.isnan(good) or math.isnan(bad):
        raise ValueError(f"a score is NaN (good={good}, bad={bad})")
    if good == bad:
        return 0.5
    margin = good - bad if higher_is_better else bad - good
    if abs(margin) <= tie_tolerance:
        return 0.5
    return 1.0 if margin > 0 else 0.0


@dataclass(frozen=True, slots=True)
class AccuracyCell:
    """Accuracy of a set of pairs.

    `correct` counts ties as 0.5; `accuracy = correct / n`. `ci_low`/`ci_high` is a seeded
    percentile bootstrap interval (Wilson when no resamples were asked for). `p_value` is the
    exact two-sided binomial test of the untied pairs' wins against 50% (1.0 if all tied).
    """

    n: int
    correct: float
    ties: int
    accuracy: float
    ci_low: float
    ci_high: float
    p_value: float

    def to_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "correct": self.correct,
            "ties": self.ties,
            "accuracy": self.accuracy,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "p_value": self.p_value,
        }


def accuracy_cell(
    outcomes: Sequence[float],
    *,
    bootstrap: int = 1000,
    seed: int = 0,
    clusters: Sequence[str] | None = None,
    confidence: float = 0.95,
) -> AccuracyCell:
    """Return the AccuracyCell of per-pair outcomes (1, 0 or 0.5 for a tie).

    `bootstrap` resamples give the interval (0: a Wilson interval instead); `clusters`, one
    label per outcome, makes it a cluster bootstrap.

    Raises:
        ValueError: for no outcomes, or an outcome other than 0, 0.5 or 1.
    """
    n = len(outcomes)
    if n == 0:
        raise ValueError("an accuracy needs at least one pair")
    if any(o not in (0.0, 0.5, 1.0) for o in outcomes):
        raise ValueError("outcomes must be 0, 0.5 or 1")
    ties = sum(1 for o in outcomes if o == 0.5)
    wins = sum(1 for o in outcomes if o == 1.0)
    if bootstrap <= 0:
        return counted_cell(wins, ties, n, confidence=confidence)
    low, high = bootstrap_ci(
        outcomes, clusters=clusters, n_resamples=bootstrap, seed=seed, confidence=confidence
    )
    return _cell(wins, ties, n, low, high)


def counted_cell(wins: int, ties: int, n: int, *, confidence: float = 0.95) -> AccuracyCell:
    """Return the AccuracyCell of `n` pairs of which `wins` were won and `ties` tied, with a
    Wilson interval (the cell `accuracy_cell` gives without resamples).

    Raises:
        ValueError: for no pairs, or counts that do not fit in `n`.
    """
    if n <= 0:
        raise ValueError("an accuracy needs at least one pair")
    if wins < 0 or ties < 0 or wins + ties > n:
        raise ValueError(f"{wins} wins and {ties} ties do not fit in {n} pairs")
    low, high = wilson_interval(wins + 0.5 * ties, n, confidence)
    return _cell(wins, ties, n, low, high)


def _cell(wins: int, ties: int, n: int, low: float, high: float) -> AccuracyCell:
    correct = wins + 0.5 * ties
    return AccuracyCell(
        n=n,
        correct=correct,
        ties=ties,
        accuracy=correct / n,
        ci_low=low,
        ci_high=high,
        p_value=binomial_test(wins, n - ties),
    )


@dataclass(frozen=True, slots=True)
class OutcomeCounts:
    """The outcomes of a group of pairs of one paradigm: `n` pairs, `wins` and `ties` among
    them; `length_equal` says whether their sentences have the same number of tokens (None:
    unknown). What a database counts, so that a report needs no per-pair rows."""

    uid: str
    phenomenon: str
    length_equal: bool | None
    n: int
    wins: int
    ties: int


@dataclass(frozen=True, slots=True)
class PairReport:
    """Accuracy of a set of scored pairs under one reduction.

    `by_paradigm` is keyed by UID, `by_phenomenon` by phenomenon (both sorted). `macro_accuracy`
    is the mean of the per-paradigm accuracies (Zorro's summary); `overall` pools every pair
    (BLiMP's). `length_equal`/`length_unequal` are the pairs whose sentences have the same /
    a different number of tokens (None when no pair is in that subset); `length_unknown` counts
    pairs with no token counts. `warnings` are sanity alarms in words.
    """

    reduction: str
    higher_is_better: bool
    tie_tolerance: float
    overall: AccuracyCell
    by_phenomenon: dict[str, AccuracyCell]
    by_paradigm: dict[str, AccuracyCell]
    macro_accuracy: float
    length_equal: AccuracyCell | None = None
    length_unequal: AccuracyCell | None = None
    length_unknown: int = 0
    bootstrap: int = 1000
    seed: int = 0
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "reduction": self.reduction,
            "higher_is_better": self.higher_is_better,
            "tie_tolerance": self.tie_tolerance,
            "tie_rule": "a tie (|good - bad| <= tie_tolerance) counts 0.5, left out of the binomial test",
            "ci": f"{self.bootstrap} bootstrap resamples, seed {self.seed}" if self.bootstrap else "Wilson",
            "overall": self.overall.to_dict(),
            "macro_accuracy": self.macro_accuracy,
            "by_phenomenon": {k: v.to_dict() for k, v in self.by_phenomenon.items()},
            "by_paradigm": {k: v.to_dict() for k, v in self.by_paradigm.items()},
            "length_equal": self.length_equal.to_dict() if self.length_equal else None,
            "length_unequal": self.length_unequal.to_dict() if self.length_unequal else None,
            "length_unknown": self.length_unknown,
            "warnings": list(self.warnings),
        }


def pair_report(
    items: Sequence[PairScores],
    *,
    reduction: str,
    higher_is_better: bool | None = None,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    bootstrap: int = 1000,
    seed: int = 0,
) -> PairReport:
    """Return the PairReport of `items`, whose scores were reduced with `reduction`.

    `higher_is_better` defaults to the reduction's own direction (log-probs yes, BPT no).

    Raises:
        ValueError: for no items, an unknown reduction, or a NaN score.
    """
    if not items:
        raise ValueError("no pairs to report on")
    if higher_is_better is None:
        if reduction not in HIGHER_IS_BETTER:
            raise ValueError(f"unknown reduction '{reduction}' (choose from {', '.join(REDUCTIONS)})")
        higher_is_better = HIGHER_IS_BETTER[reduction]
    direction = higher_is_better
    outcomes: list[float] = []
    for item in items:
        try:
            outcomes.append(
                pair_outcome(item.good, item.bad, higher_is_better=direction, tie_tolerance=tie_tolerance)
            )
        except ValueError as exc:
            raise ValueError(f"item {item.item_id}: {exc}") from None
    if bootstrap <= 0:
        tally: dict[tuple[str, str, bool | None], list[int]] = {}
        for item, outcome in zip(items, outcomes, strict=True):
            counts = tally.setdefault((item.uid, item.phenomenon, item.length_equal), [0, 0, 0])
            counts[0] += 1
            counts[1] += outcome == 1.0
            counts[2] += outcome == 0.5
        counted = [OutcomeCounts(uid, ph, eq, n, w, t) for (uid, ph, eq), (n, w, t) in tally.items()]
        return counted_report(
            counted, reduction=reduction, higher_is_better=direction, tie_tolerance=tie_tolerance
        )

    def cell(indices: Sequence[int]) -> AccuracyCell:
        return accuracy_cell([outcomes[i] for i in indices], bootstrap=bootstrap, seed=seed)

    everything = range(len(items))
    overall = cell(everything)
    by_phenomenon = {key: cell(idx) for key, idx in _groups(items, lambda it: it.phenomenon).items()}
    by_paradigm = {key: cell(idx) for key, idx in _groups(items, lambda it: it.uid).items()}
    equal = [i for i in everything if items[i].length_equal is True]
    unequal = [i for i in everything if items[i].length_equal is False]
    report = PairReport(
        reduction=reduction,
        higher_is_better=direction,
        tie_tolerance=tie_tolerance,
        overall=overall,
        by_phenomenon=by_phenomenon,
        by_paradigm=by_paradigm,
        macro_accuracy=math.fsum(c.accuracy for c in by_paradigm.values()) / len(by_paradigm),
        length_equal=cell(equal) if equal else None,
        length_unequal=cell(unequal) if unequal else None,
        length_unknown=len(items) - len(equal) - len(unequal),
        bootstrap=bootstrap,
        seed=seed,
    )
    report.warnings.extend(_warnings(report))
    return report


def counted_report(
    counts: Sequence[OutcomeCounts],
    *,
    reduction: str,
    higher_is_better: bool | None = None,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> PairReport:
    """Return the PairReport (Wilson intervals) of pairs counted by group: the report
    `pair_report` gives of the same pairs without resamples.

    Raises:
        ValueError: for no pairs, or an unknown reduction.
    """
    groups = [c for c in counts if c.n > 0]
    if not groups:
        raise ValueError("no pairs to report on")
    if higher_is_better is None:
        if reduction not in HIGHER_IS_BETTER:
            raise ValueError(f"unknown reduction '{reduction}' (choose from {', '.join(REDUCTIONS)})")
        higher_is_better = HIGHER_IS_BETTER[reduction]

    def cell(chosen: Sequence[OutcomeCounts]) -> AccuracyCell:
        return counted_cell(
            sum(c.wins for c in chosen), sum(c.ties for c in chosen), sum(c.n for c in chosen)
        )

    def by(key: Callable[[OutcomeCounts], str]) -> dict[str, AccuracyCell]:
        grouped: dict[str, list[OutcomeCounts]] = {}
        for group in groups:
            grouped.setdefault(key(group), []).append(group)
        return {name: cell(members) for name, members in sorted(grouped.items())}

    by_paradigm = by(lambda c: c.uid)
    equal = [c for c in groups if c.length_equal is True]
    unequal = [c for c in groups if c.length_equal is False]
    report = PairReport(
        reduction=reduction,
        higher_is_better=higher_is_better,
        tie_tolerance=tie_tolerance,
        overall=cell(groups),
        by_phenomenon=by(lambda c: c.phenomenon),
        by_paradigm=by_paradigm,
        macro_accuracy=math.fsum(c.accuracy for c in by_paradigm.values()) / len(by_paradigm),
        length_equal=cell(equal) if equal else None,
        length_unequal=cell(unequal) if unequal else None,
        length_unknown=sum(c.n for c in groups if c.length_equal is None),
        bootstrap=0,
        seed=0,
    )
    report.warnings.extend(_warnings(report))
    return report


def _groups(items: Sequence[PairScores], key: Callable[[PairScores], str]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        groups.setdefault(key(item), []).append(index)
    return dict(sorted(groups.items()))


def _warnings(report: PairReport) -> list[str]:
    out: list[str] = []
    overall = report.overall
    if overall.accuracy <= FLIPPED_BELOW and overall.p_value < FLIPPED_P:
        out.append(
            f"overall accuracy {overall.accuracy:.1%} is far below chance (p = {overall.p_value:.2g}): "
            "check that the good and bad sentences are not swapped (Zorro's files list the bad one first) "
            f"and that the comparison direction fits the reduction '{report.reduction}'"
        )
    if overall.ties / overall.n > TIE_WARNING_SHARE:
        out.append(
            f"{overall.ties:,} of {overall.n:,} pairs ({overall.ties / overall.n:.1%}) are ties within "
            f"{report.tie_tolerance:g}: expected from a word-frequency baseline on word-order or punctuation "
            "contrasts; from a model, a sign of identical sentences or low-precision (bfloat16) scores"
        )
    return out
