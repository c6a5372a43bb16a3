"""Pair accuracy: the tie rule, the score direction of each reduction, cells by paradigm and
phenomenon, length subsets and the sanity warnings."""

from __future__ import annotations

import json

import pytest

from scoring.metrics import AccuracyCell, PairScores, accuracy_cell, pair_outcome, pair_report


@pytest.mark.parametrize(
    ("good", "bad", "higher", "expected"),
    [
        (-3.0, -5.0, True, 1.0),
        (-5.0, -3.0, True, 0.0),
        (2.0, 3.0, False, 1.0),  # bits per token: lower is better
        (3.0, 2.0, False, 0.0),
        (-4.0, -4.0 + 5e-7, True, 0.5),
        (-4.0, -4.0 - 5e-7, False, 0.5),
        (float("-inf"), float("-inf"), True, 0.5),
        (-4.0, float("-inf"), True, 1.0),
    ],
)
def test_pair_outcome_follows_direction_and_ties(
    good: float, bad: float, higher: bool, expected: float
) -> None:
    """The good sentence wins when its score is better in the reduction's direction; scores
    within the tolerance tie and count half."""
    assert pair_outcome(good, bad, higher_is_better=higher) == expected


def test_pair_outcome_tolerance_is_configurable() -> None:
    assert pair_outcome(-4.0, -4.01, higher_is_better=True) == 1.0
    assert pair_outcome(-4.0, -4.01, higher_is_better=True, tie_tolerance=0.1) == 0.5


def test_pair_outcome_rejects_nan() -> None:
    with pytest.raises(ValueError, match="NaN"):
        pair_outcome(float("nan"), -1.0, higher_is_better=True)


def test_accuracy_cell_counts_ties_half_and_tests_untied_pairs() -> None:
    """6 wins, 2 losses and 2 ties: accuracy 7/10; the binomial test is 6 of 8 vs 50%."""
    cell = accuracy_cell([1.0] * 6 + [0.0] * 2 + [0.5] * 2, bootstrap=500, seed=0)
    assert (cell.n, cell.correct, cell.ties) == (10, 7.0, 2)
    assert cell.accuracy == pytest.approx(0.7)
    assert cell.p_value == pytest.approx(2 * (28 + 8 + 1) / 256)  # P(X >= 6 | 8, 0.5), doubled
    assert cell.ci_low <= 0.7 <= cell.ci_high


def test_accuracy_cell_without_bootstrap_uses_wilson() -> None:
    cell = accuracy_cell([1.0] * 81 + [0.0] * 182, bootstrap=0)
    assert (round(cell.ci_low, 4), round(cell.ci_high, 4)) == (0.2553, 0.3662)


def test_accuracy_cell_rejects_other_outcomes() -> None:
    with pytest.raises(ValueError, match=r"0, 0\.5 or 1"):
        accuracy_cell([0.7])
    with pytest.raises(ValueError, match="at least one"):
        accuracy_cell([])


def _items() -> list[PairScores]:
    out = []
    # Paradigm a (phenomenon agr): 8 of 10 right; paradigm b (agr): 5 of 10 with 2 ties;
    # paradigm c (island): 1 of 4 right.
    for i in range(10):
        out.append(PairScores(f"a{i}", "a", "agr", -1.0 if i < 8 else -3.0, -2.0, length_equal=i % 2 == 0))
    for i in range(10):
        good = -1.0 if i < 4 else (-2.0 if i < 6 else -3.0)
        out.append(PairScores(f"b{i}", "b", "agr", good, -2.0, length_equal=True))
    for i in range(4):
        out.append(PairScores(f"c{i}", "c", "island", -1.0 if i == 0 else -3.0, -2.0))
    return out


def test_pair_report_cells_by_paradigm_and_phenomenon() -> None:
    report = pair_report(_items(), reduction="sum", bootstrap=200)
    assert report.higher_is_better is True
    assert report.overall.n == 24
    assert report.overall.correct == pytest.approx(8 + 5 + 1)
    assert {k: v.accuracy for k, v in report.by_paradigm.items()} == pytest.approx(
        {"a": 0.8, "b": 0.5, "c": 0.25}
    )
    assert report.by_paradigm["b"].ties == 2
    assert report.by_phenomenon["agr"].n == 20
    assert report.by_phenomenon["agr"].correct == pytest.approx(13)
    assert report.macro_accuracy == pytest.approx((0.8 + 0.5 + 0.25) / 3)


def test_pair_report_length_subsets() -> None:
    """Pairs with equal and unequal token counts are reported apart; unknown ones counted."""
    report = pair_report(_items(), reduction="sum", bootstrap=0)
    assert report.length_equal is not None and report.length_unequal is not None
    assert report.length_equal.n == 5 + 10
    assert report.length_unequal.n == 5
    assert report.length_unequal.correct == 4  # a1, a3, a5, a7 right; a9 wrong
    assert report.length_unknown == 4


def test_pair_report_without_length_information_has_no_subsets() -> None:
    items = [PairScores(str(i), "u", "p", -1.0, -2.0) for i in range(5)]
    report = pair_report(items, reduction="mean", bootstrap=0)
    assert report.length_equal is None and report.length_unequal is None
    assert report.length_unknown == 5


def test_pair_report_direction_comes_from_the_reduction() -> None:
    """The same numbers read as BPT (a cost) flip every outcome."""
    items = [PairScores(str(i), "u", "p", 1.0, 2.0) for i in range(30)]
    assert pair_report(items, reduction="sum", bootstrap=0).overall.accuracy == 0.0
    assert pair_report(items, reduction="bpt", bootstrap=0).overall.accuracy == 1.0
    assert pair_report(items, reduction="bpt", higher_is_better=True, bootstrap=0).overall.accuracy == 0.0


def test_pair_report_warns_of_flipped_labels() -> None:
    """Accuracy far below chance raises the swapped-labels alarm; near chance does not."""
    flipped = [PairScores(str(i), "u", "p", -2.0 if i < 45 else -1.0, -1.5) for i in range(50)]
    report = pair_report(flipped, reduction="sum", bootstrap=0)
    assert any("swapped" in w for w in report.warnings)
    fair = [PairScores(str(i), "u", "p", -2.0 if i < 26 else -1.0, -1.5) for i in range(50)]
    assert not pair_report(fair, reduction="sum", bootstrap=0).warnings


def test_pair_report_warns_of_many_ties() -> None:
    items = [PairScores(str(i), "u", "p", -1.0, -1.0 if i < 10 else -2.0) for i in range(40)]
    report = pair_report(items, reduction="sum", bootstrap=0)
    assert any("ties" in w for w in report.warnings)


def test_pair_report_is_seeded_and_json_ready() -> None:
    first = pair_report(_items(), reduction="sum", bootstrap=300, seed=5).to_dict()
    assert first == pair_report(_items(), reduction="sum", bootstrap=300, seed=5).to_dict()
    text = json.dumps(first, allow_nan=False)
    data = json.loads(text)
    assert data["by_paradigm"]["b"]["ties"] == 2
    assert set(data["overall"]) == set(AccuracyCell.__dataclass_fields__)


def test_pair_report_names_the_bad_item() -> None:
    items = [PairScores("x7", "u", "p", float("nan"), -1.0)]
    with pytest.raises(ValueError, match="item x7"):
        pair_report(items, reduction="sum")
    with pytest.raises(ValueError, match="no pairs"):
        pair_report([], reduction="sum")
