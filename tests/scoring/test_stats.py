"""Statistics helpers against textbook values: binomial tests, Wilson intervals, bootstrap
intervals (plain and clustered), Holm's correction, Fisher's test of a slice against the rest."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scoring.stats import (
    binomial_test,
    bootstrap_ci,
    bootstrap_cis,
    fisher_slice_vs_rest,
    holm,
    json_float,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("k", "n", "expected"),
    [
        (7, 10, 352 / 1024),  # 2 * (C(10,7)+C(10,8)+C(10,9)+C(10,10)) / 2^10
        (10, 10, 2 / 1024),
        (5, 10, 1.0),
        (0, 1, 1.0),
        (0, 0, 1.0),
    ],
)
def test_binomial_test_matches_exact_two_sided_values(k: int, n: int, expected: float) -> None:
    """The p-value is the exact two-sided binomial probability computed by hand."""
    assert binomial_test(k, n) == pytest.approx(expected)


def test_binomial_test_rejects_impossible_counts() -> None:
    """More successes than trials is an error, not a p-value."""
    with pytest.raises(ValueError, match="0 <= k <= n"):
        binomial_test(11, 10)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),  # Newcombe (1998), Table I, example (a)
        (15, 148, 0.0624, 0.1605),  # example (b)
        (0, 20, 0.0, 0.1611),  # example (c)
        (1, 29, 0.0061, 0.1718),  # example (d)
    ],
)
def test_wilson_interval_matches_newcombe_table(k: int, n: int, low: float, high: float) -> None:
    """Wilson score intervals equal Newcombe's published values to four decimals."""
    got = wilson_interval(k, n)
    assert got[0] == pytest.approx(low, abs=5e-5)
    assert got[1] == pytest.approx(high, abs=5e-5)


def test_wilson_interval_of_nothing_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bootstrap_ci_is_seeded_and_covers_the_mean() -> None:
    """The same seed gives the same interval; the interval holds the sample mean and has the
    width the normal approximation predicts (sd of a proportion of 0.7 over 400 items)."""
    values = [1.0] * 280 + [0.0] * 120
    first = bootstrap_ci(values, n_resamples=4000, seed=3)
    assert first == bootstrap_ci(values, n_resamples=4000, seed=3)
    assert first != bootstrap_ci(values, n_resamples=4000, seed=4)
    assert first[0] < 0.7 < first[1]
    expected_half = 1.96 * math.sqrt(0.7 * 0.3 / 400)
    assert (first[1] - first[0]) / 2 == pytest.approx(expected_half, rel=0.1)


def test_bootstrap_ci_of_a_constant_is_a_point() -> None:
    assert bootstrap_ci([0.5] * 10, n_resamples=50) == (0.5, 0.5)


def test_cluster_bootstrap_widens_the_interval_for_correlated_items() -> None:
    """Items repeated within clusters carry less evidence: the cluster interval is wider than
    the item interval, close to the one of the cluster means alone."""
    rng = np.random.default_rng(0)
    cluster_values = rng.integers(0, 2, size=40).astype(float)
    values = np.repeat(cluster_values, 10)
    labels = [f"learner{i}" for i in range(40) for _ in range(10)]
    items = bootstrap_ci(values, n_resamples=2000, seed=1)
    clustered = bootstrap_ci(values, clusters=labels, n_resamples=2000, seed=1)
    per_cluster = bootstrap_ci(cluster_values, n_resamples=2000, seed=1)
    assert clustered[1] - clustered[0] > 2 * (items[1] - items[0])
    assert clustered[1] - clustered[0] == pytest.approx(per_cluster[1] - per_cluster[0], rel=0.15)


def test_cluster_bootstrap_weights_clusters_by_their_size() -> None:
    """The statistic is the pooled item mean of the drawn clusters, so the interval is centred
    around the item mean (0.9 here), not the mean of cluster means (1/3)."""
    values = [1.0] * 90 + [0.0] * 10
    labels = [f"big{i // 18}" for i in range(90)] + [f"small{i}" for i in range(10)]
    low, high = bootstrap_ci(values, clusters=labels, n_resamples=2000, seed=0)
    assert low < 0.9 < high
    assert (low + high) / 2 > 0.6


def test_bootstrap_ci_rejects_bad_inputs() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        bootstrap_ci([])
    with pytest.raises(ValueError, match="2 cluster labels for 3 values"):
        bootstrap_ci([1.0, 0.0, 1.0], clusters=["a", "b"])


def test_holm_matches_hand_computed_adjustment() -> None:
    """Sorted p-values 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 give 0.02, 0.03, 0.06, 0.04;
    the step-down makes them non-decreasing (0.04 -> 0.06); the input order is kept."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one_and_handles_empty() -> None:
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([]) == []


def test_fisher_slice_vs_rest_matches_the_tea_tasting_example() -> None:
    """Fisher's lady tasting tea, [[3, 1], [1, 3]]: two-sided p = 34/70."""
    result = fisher_slice_vs_rest(3, 4, 1, 4)
    assert result.p_value == pytest.approx(34 / 70)
    assert result.odds_ratio == pytest.approx(9.0)
    assert (result.slice_rate, result.rest_rate) == (0.75, 0.25)


def test_fisher_slice_vs_rest_detects_a_different_slice() -> None:
    assert fisher_slice_vs_rest(90, 100, 500, 1000).p_value < 1e-10
    assert fisher_slice_vs_rest(50, 100, 500, 1000).p_value == pytest.approx(1.0)


def test_fisher_slice_vs_rest_without_rest_is_not_a_test() -> None:
    result = fisher_slice_vs_rest(3, 4, 0, 0)
    assert result.p_value == 1.0
    assert math.isnan(result.odds_ratio)
    assert result.to_dict()["odds_ratio"] is None


def test_json_float_keeps_json_valid() -> None:
    assert json_float(0.25) == 0.25
    assert json_float(math.inf) == "inf"
    assert json_float(math.nan) is None


def test_bootstrap_cis_share_draws_and_match_single_columns() -> None:
    """Several columns resampled together give each column the interval it gets alone."""
    a = [1.0, 0.0, 1.0, 1.0, 0.5, 0.0, 1.0, 1.0] * 5
    b = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0] * 5
    labels = [f"g{i // 4}" for i in range(40)]
    together = bootstrap_cis([a, b], clusters=labels, n_resamples=500, seed=9)
    assert together[0] == bootstrap_ci(a, clusters=labels, n_resamples=500, seed=9)
    assert together[1] != together[0]
    with pytest.raises(ValueError, match="one length"):
        bootstrap_cis([[1.0], [1.0, 0.0]])
