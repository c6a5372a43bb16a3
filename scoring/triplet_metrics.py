"""BLiSS triplet metrics (Gao et al., "BLiSS 1.0", section 4.2) from bits per token (lower =
more plausible) of each triplet's corrected, learner and artificial sentence, with intervals,
significance tests and slices by L1, CEFR level, error type and corpus.

Definitions (per item; the metric is the mean over items):

* LP (learner preference): BPT(learner) < BPT(corrected).
* HAP (human vs artificial preference): BPT(learner) < BPT(artificial).
* HAP_tau (robust HAP): BPT(artificial) - BPT(learner) > tau. The paper does not print its
  tau; the default 0.10 bits/token is the public BLiSS toolkit's (`evaluate_model.py`).
* SO (strict order): BPT(corrected) < BPT(learner) < BPT(artificial).

Tie rule: two BPTs within `tie_tolerance` are tied. For LP and HAP a tie counts 0.5, is
reported in `ties`, and is left out of the binomial test and of Fisher's test. HAP_tau is a
threshold (never a tie: `ties` is 0). SO needs both orderings strictly, so an item with either
comparison tied counts 0 (not in order); its ties are reported, and since such an item gets
no half credit, SO's tests use every item. HAP_tau's and SO's tests use every item too.

Significance, as the paper's Table 5 stars: an exact two-sided binomial test against 50% per
cell; and each slice (e.g. one L1) against the other learners (its complement, not the
overall set that contains it) by Fisher's exact test, Holm-corrected across the slices of
one dimension, per metric.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from scoring.stats import (
    binomial_test,
    bootstrap_cis,
    fisher_slice_vs_rest,
    holm,
    json_float,
    wilson_interval,
)

METRICS: tuple[str, ...] = ("LP", "HAP", "HAP_tau", "SO")
SLICE_DIMENSIONS: tuple[str, ...] = ("l1", "cefr", "error_type", "corpus")
DEFAULT_TAU = 0.10  # bits per token (BLiSS toolkit default; the paper gives none)
DEFAULT_TIE_TOLERANCE = 1e-6
DEFAULT_MIN_SLICE = 30
UNKNOWN = "(unknown)"  # the slice of items with no value for a dimension
# Metrics whose ties get half credit (and are left out of the tests).
_HALF_CREDIT = frozenset({"LP", "HAP"})


@dataclass(frozen=True, slots=True)
class TripletScores:
    """One BLiSS triplet's bits per token (lower = more plausible) and its metadata ("" when
    unknown). `learner_id` groups items written by the same learner (cluster bootstrap)."""

    item_id: str
    corrected: float
    learner: float
    artificial: float
    l1: str = ""
    cefr: str = ""
    error_type: str = ""
    corpus: str = ""
    learner_id: str = ""


def _less(a: float, b: float, tolerance: float) -> float:
    """1.0 if a < b beyond the tolerance, 0.0 if a > b beyond it, 0.5 if tied."""
    if a == b or abs(a - b) <= tolerance:
        return 0.5
    return 1.0 if a < b else 0.0


def triplet_outcomes(
    item: TripletScores, *, tau: float = DEFAULT_TAU, tie_tolerance: float = DEFAULT_TIE_TOLERANCE
) -> dict[str, tuple[float, bool]]:
    """Return, per metric, the item's credit (1, 0, or 0.5 for an LP/HAP tie) and whether a
    tie was involved.

    Raises:
        ValueError: if a BPT is NaN.
    """
    values = (item.corrected, item.learner, item.artificial)
    if any(math.isnan(v) for v in values):
        raise ValueError(f"item {item.item_id}: a BPT is NaN ({values})")
    lp = _less(item.learner, item.corrected, tie_tolerance)
    hap = _less(item.learner, item.artificial, tie_tolerance)
    corrected_first = _less(item.corrected, item.learner, tie_tolerance)
    margin = item.artificial - item.learner
    hap_tau = 1.0 if margin > tau else 0.0
    so_tie = corrected_first == 0.5 or hap == 0.5
    so = 1.0 if corrected_first == 1.0 and hap == 1.0 else 0.0
    return {
        "LP": (lp, lp == 0.5),
        "HAP": (hap, hap == 0.5),
        "HAP_tau": (hap_tau, False),
        "SO": (so, so_tie),
    }


@dataclass(frozen=True, slots=True)
class MetricCell:
    """One metric over a set of triplets.

    `value` is the mean credit (LP/HAP ties count 0.5); `wins` counts items with full credit;
    `ties` counts items with a tie involved. `ci_low`/`ci_high`: seeded percentile bootstrap
    (over learners when learner ids are known). `p_value`: exact two-sided binomial of `wins`
    against 50% over the tested items (LP/HAP: the untied ones; HAP_tau/SO: all).
    """

    n: int
    value: float
    ties: int
    ci_low: float
    ci_high: float
    p_value: float
    wins: int

    def to_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "value": self.value,
            "ties": self.ties,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "p_value": self.p_value,
            "wins": self.wins,
        }


@dataclass(frozen=True, slots=True)
class SliceTest:
    """A slice against the other items: Fisher's exact test, and its Holm-adjusted p-value
    across the tested slices of the same dimension (same metric)."""

    slice_rate: float
    rest_rate: float
    odds_ratio: float
    p_value: float
    p_holm: float

    def to_dict(self) -> dict[str, object]:
        return {
            "slice_rate": json_float(self.slice_rate),
            "rest_rate": json_float(self.rest_rate),
            "odds_ratio": json_float(self.odds_ratio),
            "p_value": self.p_value,
            "p_holm": self.p_holm,
        }


@dataclass(frozen=True, slots=True)
class SliceReport:
    """One slice (e.g. l1 = "Spanish"). A slice smaller than the minimum is `suppressed`: its
    size is reported, its metrics and tests are not. `vs_rest` is empty when the slice is all
    the items (nothing to compare with)."""

    n: int
    suppressed: bool
    metrics: dict[str, MetricCell] = field(default_factory=dict)
    vs_rest: dict[str, SliceTest] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "suppressed": self.suppressed,
            "metrics": {k: v.to_dict() for k, v in self.metrics.items()},
            "vs_rest": {k: v.to_dict() for k, v in self.vs_rest.items()},
        }


@dataclass(frozen=True, slots=True)
class TripletReport:
    """BLiSS metrics overall and per slice. `slices[dimension][value]`; dimensions with no value
    on any item are listed in `dimensions_missing` instead."""

    n: int
    tau: float
    tie_tolerance: float
    min_slice: int
    bootstrap: int
    seed: int
    ci_method: str
    overall: dict[str, MetricCell]
    slices: dict[str, dict[str, SliceReport]]
    dimensions_missing: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "n": self.n,
            "tau": self.tau,
            "tie_tolerance": self.tie_tolerance,
            "tie_rule": (
                "BPTs within tie_tolerance are tied; LP/HAP ties count 0.5 and are left out of the tests; "
                "an SO item with a tie counts 0; HAP_tau has no ties"
            ),
            "min_slice": self.min_slice,
            "ci": self.ci_method,
            "overall": {k: v.to_dict() for k, v in self.overall.items()},
            "slices": {
                dim: {name: s.to_dict() for name, s in slices.items()} for dim, slices in self.slices.items()
            },
            "dimensions_missing": list(self.dimensions_missing),
            "warnings": list(self.warnings),
        }


@dataclass(slots=True)
class _Outcomes:
    credit: dict[str, list[float]]
    tie: dict[str, list[bool]]


def metric_cells(
    credit: dict[str, Sequence[float]],
    ties: dict[str, Sequence[bool]],
    *,
    clusters: Sequence[str] | None = None,
    bootstrap: int = 1000,
    seed: int = 0,
) -> dict[str, MetricCell]:
    """Return a MetricCell per metric from per-item credits and tie flags (as
    `triplet_outcomes` gives them), the metrics' bootstrap drawn together.

    Raises:
        ValueError: for no items.
    """
    metrics = list(credit)
    n = len(credit[metrics[0]]) if metrics else 0
    if n == 0:
        raise ValueError("a metric needs at least one item")
    if bootstrap > 0:
        intervals = bootstrap_cis(
            [credit[m] for m in metrics], clusters=clusters, n_resamples=bootstrap, seed=seed
        )
    else:
        intervals = [wilson_interval(math.fsum(credit[m]), n) for m in metrics]
    out: dict[str, MetricCell] = {}
    for metric, (low, high) in zip(metrics, intervals, strict=True):
        wins = sum(1 for c in credit[metric] if c == 1.0)
        n_ties = sum(1 for t in ties[metric] if t)
        tested = n - n_ties if metric in _HALF_CREDIT else n
        out[metric] = MetricCell(
            n=n,
            value=math.fsum(credit[metric]) / n,
            ties=n_ties,
            wins=wins,
            ci_low=low,
            ci_high=high,
            p_value=binomial_test(wins, tested),
        )
    return out


def _trials(metric: str, indices: Sequence[int], outcomes: _Outcomes) -> tuple[int, int]:
    """Return (successes, trials) of the items at `indices` as the tests count them."""
    credit, tie = outcomes.credit[metric], outcomes.tie[metric]
    wins = sum(1 for i in indices if credit[i] == 1.0)
    if metric in _HALF_CREDIT:
        return wins, sum(1 for i in indices if not tie[i])
    return wins, len(indices)


def triplet_report(
    items: Sequence[TripletScores],
    *,
    tau: float = DEFAULT_TAU,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    min_slice: int = DEFAULT_MIN_SLICE,
    bootstrap: int = 1000,
    seed: int = 0,
    dimensions: Sequence[str] = SLICE_DIMENSIONS,
) -> TripletReport:
    """Return the TripletReport of `items`: LP, HAP, HAP_tau and SO overall and per slice of
    each of `dimensions` (attributes of TripletScores).

    Raises:
        ValueError: for no items, a NaN BPT, an unknown dimension or a negative tau.
    """
    if not items:
        raise ValueError("no triplets to report on")
    if tau < 0:
        raise ValueError(f"tau must be >= 0 bits per token, got {tau}")
    for dimension in dimensions:
        if dimension not in SLICE_DIMENSIONS:
            raise ValueError(
                f"unknown slice dimension '{dimension}' (choose from {', '.join(SLICE_DIMENSIONS)})"
            )
    outcomes = _Outcomes({m: [] for m in METRICS}, {m: [] for m in METRICS})
    for item in items:
        for metric, (credit, tie) in triplet_outcomes(item, tau=tau, tie_tolerance=tie_tolerance).items():
            outcomes.credit[metric].append(credit)
            outcomes.tie[metric].append(tie)
    has_learners = any(item.learner_id for item in items)
    # An item without a learner id is its own cluster (the NUL prefix keeps it apart from ids).
    cluster_of = [item.learner_id or f"\x00{index}" for index, item in enumerate(items)]

    def cells(indices: Sequence[int]) -> dict[str, MetricCell]:
        return metric_cells(
            {m: [outcomes.credit[m][i] for i in indices] for m in METRICS},
            {m: [outcomes.tie[m][i] for i in indices] for m in METRICS},
            clusters=[cluster_of[i] for i in indices] if has_learners else None,
            bootstrap=bootstrap,
            seed=seed,
        )

    everything = list(range(len(items)))
    overall = cells(everything)
    slices: dict[str, dict[str, SliceReport]] = {}
    missing: list[str] = []
    warnings: list[str] = []
    for dimension in dimensions:
        groups: dict[str, list[int]] = {}
        for index, item in enumerate(items):
            value = str(getattr(item, dimension)).strip() or UNKNOWN
            groups.setdefault(value, []).append(index)
        if list(groups) == [UNKNOWN]:
            missing.append(dimension)
            continue
        slices[dimension] = _slice_reports(groups, everything, outcomes, cells, min_slice)
        suppressed = [name for name, s in slices[dimension].items() if s.suppressed]
        if suppressed:
            warnings.append(
                f"{len(suppressed)} {dimension} slice(s) with fewer than {min_slice} items are suppressed "
                f"(sizes reported, no metrics): {', '.join(suppressed[:10])}"
                + (" ..." if len(suppressed) > 10 else "")
            )
    for metric in ("LP", "HAP"):
        cell = overall[metric]
        if cell.ties / cell.n > 0.05:
            warnings.append(
                f"{metric}: {cell.ties:,} of {cell.n:,} items are ties "
                f"within {tie_tolerance:g} bits per token"
            )
    if bootstrap <= 0:
        ci_method = "Wilson score interval"
    elif has_learners:
        ci_method = f"cluster bootstrap over learners ({bootstrap} resamples, seed {seed})"
    else:
        ci_method = f"bootstrap over items ({bootstrap} resamples, seed {seed})"
    return TripletReport(
        n=len(items),
        tau=tau,
        tie_tolerance=tie_tolerance,
        min_slice=min_slice,
        bootstrap=bootstrap,
        seed=seed,
        ci_method=ci_method,
        overall=overall,
        slices=slices,
        dimensions_missing=missing,
        warnings=warnings,
    )


def _slice_reports(
    groups: dict[str, list[int]],
    everything: Sequence[int],
    outcomes: _Outcomes,
    cells: Callable[[Sequence[int]], dict[str, MetricCell]],
    min_slice: int,
) -> dict[str, SliceReport]:
    """Return each slice's report: metrics for slices of at least `min_slice` items, and for
    each of those (unless it holds every item) Fisher's test against the rest, Holm-adjusted
    across the tested slices per metric."""
    kept = {name: idx for name, idx in groups.items() if len(idx) >= min_slice}
    tested = [name for name, idx in kept.items() if len(idx) < len(everything)]
    vs_rest: dict[str, dict[str, SliceTest]] = {name: {} for name in kept}
    for metric in METRICS:
        total_wins, total_trials = _trials(metric, everything, outcomes)
        results = []
        for name in tested:
            wins, trials = _trials(metric, kept[name], outcomes)
            results.append(fisher_slice_vs_rest(wins, trials, total_wins - wins, total_trials - trials))
        adjusted = holm([r.p_value for r in results])
        for name, result, p_holm in zip(tested, results, adjusted, strict=True):
            vs_rest[name][metric] = SliceTest(
                slice_rate=result.slice_rate,
                rest_rate=result.rest_rate,
                odds_ratio=result.odds_ratio,
                p_value=result.p_value,
                p_holm=p_holm,
            )
    out: dict[str, SliceReport] = {}
    for name, indices in sorted(groups.items()):
        if name in kept:
            out[name] = SliceReport(
                n=len(indices), suppressed=False, metrics=cells(indices), vs_rest=vs_rest[name]
            )
        else:
            out[name] = SliceReport(n=len(indices), suppressed=True)
    return out
