"""Paired comparisons of two configurations: the exact McNemar test counted by hand, the
paired bootstrap interval, and Holm's correction across paradigms."""

from __future__ import annotations

import math

import pytest

from scoring.paired import paired_comparison, with_holm


def test_the_exact_mcnemar_test_counts_the_discordant_pairs() -> None:
    # 10 pairs: both right on 4, first only on 1, second only on 5
    first = [1.0] * 4 + [1.0] + [0.0] * 5
    second = [1.0] * 4 + [0.0] + [1.0] * 5
    result = paired_comparison(first, second, bootstrap=0)
    assert (result.n, result.first_better, result.second_better, result.discordant) == (10, 1, 5, 6)
    assert result.difference == pytest.approx(0.4)
    # P(X <= 1 or X >= 5), X ~ Binomial(6, 1/2): (1 + 6 + 6 + 1) / 64
    assert result.p_value == pytest.approx(14 / 64)
    assert (result.ci_low, result.ci_high) == (None, None)


def test_a_tie_lies_between_right_and_wrong() -> None:
    result = paired_comparison([0.5, 0.5, 1.0], [1.0, 0.0, 1.0], bootstrap=0)
    assert (result.first_better, result.second_better) == (1, 1)
    assert result.p_value == 1.0
    assert result.difference == pytest.approx(0.0)


def test_no_discordant_pair_is_no_evidence() -> None:
    result = paired_comparison([1.0, 0.0], [1.0, 0.0], bootstrap=0)
    assert (result.discordant, result.p_value) == (0, 1.0)


def test_the_paired_bootstrap_interval_holds_the_difference_and_is_seeded() -> None:
    first = [1.0, 0.0] * 50
    second = [1.0, 1.0] * 40 + [0.0, 0.0] * 10
    result = paired_comparison(first, second, bootstrap=2000, seed=3)
    assert result.ci_low is not None and result.ci_high is not None
    assert result.ci_low < result.difference < result.ci_high
    assert paired_comparison(first, second, bootstrap=2000, seed=3) == result
    # identical outcomes have a zero-width interval: pairing removes what they share
    same = paired_comparison(first, first, bootstrap=500)
    assert (same.ci_low, same.ci_high) == (0.0, 0.0)


def test_holm_adjusts_across_the_paradigms_present() -> None:
    strong = paired_comparison([0.0] * 12, [1.0] * 12, bootstrap=0)  # p = 2 / 4096
    weak = paired_comparison([0.0, 1.0], [1.0, 0.0], bootstrap=0)  # p = 1
    adjusted = with_holm([strong, None, weak])
    assert adjusted[1] is None
    assert adjusted[0] is not None and adjusted[0].p_holm == pytest.approx(2 * 2 / 4096)
    assert adjusted[2] is not None and adjusted[2].p_holm == 1.0
    assert math.isclose(adjusted[0].p_value, strong.p_value)


@pytest.mark.parametrize(
    ("first", "second", "words"),
    [
        ([1.0], [1.0, 0.0], "1 outcomes of the first configuration against 2"),
        ([], [], "no pairs"),
        ([0.7], [1.0], "not 0.7"),
    ],
)
def test_outcomes_that_cannot_be_compared_are_refused(
    first: list[float], second: list[float], words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        paired_comparison(first, second)
