"""Statistics for accuracies: exact binomial tests, Wilson and bootstrap intervals (optionally
over clusters such as learners), Holm's correction and Fisher's test of a slice against the rest."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
from numpy.typing import NDArray

# Random draws held in memory at once by the bootstrap (int64 indices: ~160 MB). Larger
# problems are drawn in chunks of resamples, so memory stays flat for BLiSS-sized inputs.
_MAX_DRAWS_PER_CHUNK = 20_000_000


def binomial_test(k: int, n: int, p: float = 0.5) -> float:
    """Return the exact two-sided binomial p-value of `k` successes in `n` trials against
    success probability `p` (scipy's `binomtest`; the minimum-likelihood two-sided rule).

    With `n == 0` there is no evidence either way and the p-value is 1.0.

    Raises:
        ValueError: if k is not within 0..n or p is not within 0..1.
    """
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be within 0..1, got {p}")
    if n == 0:
        return 1.0
    from scipy.stats import binomtest  # here, not at the top: scipy.stats takes ~0.5 s to import

    return float(binomtest(int(k), int(n), p).pvalue)


def wilson_interval(k: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Return the Wilson score interval (low, high) of a proportion `k / n`.

    `k` may be fractional (ties counted as half). With `n == 0` the interval is (0.0, 1.0).
    """
    if n <= 0:
        return 0.0, 1.0
    z = float(NormalDist().inv_cdf(0.5 + confidence / 2))
    phat = k / n
    denominator = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denominator
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_ci(
    values: Sequence[float] | NDArray[np.float64],
    *,
    clusters: Sequence[str] | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Return the percentile bootstrap interval (low, high) of the mean of `values`.

    Without `clusters`, items are resampled with replacement. With `clusters` (one label per
    value, e.g. the learner who wrote the sentence), whole clusters are resampled and the
    statistic is the mean over every item of the drawn clusters, so items that share a
    learner are not counted as independent evidence. The generator is `numpy`'s PCG64 seeded
    with `seed`: the same inputs give the same interval.

    Raises:
        ValueError: for no values, a cluster list of another length, or n_resamples < 1.
    """
    return bootstrap_cis(
        [values], clusters=clusters, n_resamples=n_resamples, confidence=confidence, seed=seed
    )[0]


def bootstrap_cis(
    columns: Sequence[Sequence[float] | NDArray[np.float64]],
    *,
    clusters: Sequence[str] | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> list[tuple[float, float]]:
    """Return `bootstrap_ci` of each column (all of one length, over the same items), drawing
    the clusters once for all columns: several metrics of one set of items cost one resampling.

    Raises:
        ValueError: as `bootstrap_ci`, or for columns of different lengths.
    """
    if not columns:
        return []
    if len({len(column) for column in columns}) != 1:
        raise ValueError("bootstrap_cis needs columns of one length")
    data = np.asarray(columns, dtype=np.float64)
    if data.ndim != 2 or data.shape[1] == 0:
        raise ValueError("bootstrap_ci needs non-empty lists of values of one length")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, got {n_resamples}")
    if clusters is not None and len(clusters) != data.shape[1]:
        raise ValueError(f"{len(clusters)} cluster labels for {data.shape[1]} values")
    rng = np.random.default_rng(seed)
    alpha = (1 - confidence) / 2
    means = _resampled_means(data, clusters, n_resamples, rng)
    out = []
    for column in means:
        low, high = np.quantile(column, [alpha, 1 - alpha])
        out.append((float(low), float(high)))
    return out


def _resampled_means(
    data: NDArray[np.float64], clusters: Sequence[str] | None, n_resamples: int, rng: np.random.Generator
) -> NDArray[np.float64]:
    """Return a (columns, n_resamples) array of bootstrap means, resampling clusters (each item
    its own cluster when `clusters` is None) and pooling the drawn clusters' items."""
    if clusters is None:
        index = np.arange(data.shape[1])
    else:
        _, index = np.unique(np.asarray(clusters, dtype=object), return_inverse=True)
    groups = int(index.max()) + 1
    # Each cluster reduces to its per-column sums and its size. Clusters with the same
    # (sums, size) are interchangeable, and how often each such kind is drawn in a resample
    # of `groups` clusters is multinomial: drawing those counts is exact and costs O(kinds)
    # per resample instead of O(clusters) (outcomes are 0, 0.5 or 1, so kinds are few).
    rows = np.empty((groups, data.shape[0] + 1), dtype=np.float64)
    for column, values in enumerate(data):
        rows[:, column] = np.bincount(index, weights=values, minlength=groups)
    rows[:, -1] = np.bincount(index, minlength=groups)
    kinds, counts = np.unique(rows, axis=0, return_counts=True)
    chunk = max(1, _MAX_DRAWS_PER_CHUNK // len(kinds))
    out = np.empty((data.shape[0], n_resamples), dtype=np.float64)
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        drawn = rng.multinomial(groups, counts / groups, size=stop - start)
        totals = drawn @ kinds
        out[:, start:stop] = (totals[:, :-1] / totals[:, -1:]).T
    return out


def holm(p_values: Sequence[float]) -> list[float]:
    """Return Holm's step-down adjusted p-values, in the input order.

    The i-th smallest p-value is multiplied by (m - i + 1), made non-decreasing along the
    sorted order, and capped at 1; reject where the adjusted value is below alpha.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


@dataclass(frozen=True, slots=True)
class SliceVsRest:
    """Fisher's exact test of a slice's success rate against the rest of the items."""

    slice_rate: float  # successes / trials in the slice (nan without trials)
    rest_rate: float
    odds_ratio: float  # (slice odds) / (rest odds); inf or 0 at the extremes, nan when undefined
    p_value: float  # two-sided

    def to_dict(self) -> dict[str, object]:
        return {
            "slice_rate": json_float(self.slice_rate),
            "rest_rate": json_float(self.rest_rate),
            "odds_ratio": json_float(self.odds_ratio),
            "p_value": self.p_value,
        }


def fisher_slice_vs_rest(
    slice_successes: int, slice_trials: int, rest_successes: int, rest_trials: int
) -> SliceVsRest:
    """Return Fisher's exact two-sided test of the 2x2 table (slice vs rest) x (success vs
    failure). A slice is part of the whole, so it is compared with its complement, never with
    the overall rate (which contains it).

    Raises:
        ValueError: if a count of successes is outside 0..trials.
    """
    for k, n in ((slice_successes, slice_trials), (rest_successes, rest_trials)):
        if n < 0 or not 0 <= k <= n:
            raise ValueError(f"need 0 <= successes <= trials, got {k} of {n}")
    table = [
        [slice_successes, slice_trials - slice_successes],
        [rest_successes, rest_trials - rest_successes],
    ]
    if slice_trials == 0 or rest_trials == 0:
        p_value, odds = 1.0, math.nan
    else:
        from scipy.stats import fisher_exact  # imported when used, as in binomial_test

        result = fisher_exact(table, alternative="two-sided")
        p_value, odds = float(result.pvalue), float(result.statistic)
    return SliceVsRest(
        slice_rate=slice_successes / slice_trials if slice_trials else math.nan,
        rest_rate=rest_successes / rest_trials if rest_trials else math.nan,
        odds_ratio=odds,
        p_value=min(1.0, p_value),
    )


def json_float(value: float) -> float | str | None:
    """Return a float JSON can hold: None for nan, "inf"/"-inf" for infinities."""
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value
