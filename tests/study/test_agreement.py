"""Agreement with gold: per item, paradigm, phenomenon and overall, checked against numbers
worked out by hand (tests/study/tiny_study.py), the Wilson worked examples of the validation
notes, the tie rules and Holm's order."""

from __future__ import annotations

import math

import pytest

from study.agreement import (
    Judgement,
    agreement_with_gold,
    analysed_responses,
    majority_credit,
    one_sided_binomial,
)
from study.items import item_sort_key
from tests.study.tiny_study import tiny_judgements

ANALYSED = frozenset({"p1", "p2", "p3"})


def _responses(
    item: str, correct: int, n: int, paradigm: str = "P", phenomenon: str = "X"
) -> list[Judgement]:
    """Return n judgements of one item by distinct participants, `correct` of them right."""
    return [Judgement(item, f"{item}-r{j}", j < correct, paradigm, "X") for j in range(n)]


@pytest.mark.parametrize(
    ("correct", "n", "low", "high"),
    [(19, 22, 0.667, 0.953), (28, 28, 0.879, 1.000), (15, 22, 0.473, 0.836)],
)
def test_wilson_intervals_match_the_worked_examples(correct: int, n: int, low: float, high: float) -> None:
    """The item and paradigm Wilson intervals reproduce the notes' worked examples to 3 places."""
    gold = agreement_with_gold(_responses("i", correct, n), bootstrap_resamples=0)
    item, paradigm = gold.items[0], gold.paradigms[0]
    assert (round(item.wilson_low, 3), round(item.wilson_high, 3)) == (low, high)
    assert (round(paradigm.wilson_low, 3), round(paradigm.wilson_high, 3)) == (low, high)


def test_tiny_study_items_by_hand() -> None:
    """Per item: x/n, accuracy, majority credit and observed rater agreement P_i."""
    gold = agreement_with_gold(analysed_responses(tiny_judgements(), ANALYSED), bootstrap_resamples=0)
    got = {i.item_id: (i.correct, i.n, i.majority, i.tie, i.observed_agreement) for i in gold.items}
    assert got == {
        "i1": (3, 3, 1.0, False, 1.0),  # (9 + 0 - 3) / 6
        "i2": (2, 3, 1.0, False, pytest.approx(1 / 3)),  # (4 + 1 - 3) / 6
        "i3": (1, 3, 0.0, False, pytest.approx(1 / 3)),
        "i4": (1, 2, 0.5, True, 0.0),  # (1 + 1 - 2) / 2
    }
    assert [i.disagrees for i in gold.items] == [False, False, True, True]
    assert gold.items[1].accuracy == pytest.approx(2 / 3)


def test_tiny_study_paradigms_by_hand() -> None:
    """Per paradigm: micro, macro, majority, one-sided binomial p and Holm across paradigms."""
    gold = agreement_with_gold(analysed_responses(tiny_judgements(), ANALYSED), bootstrap_resamples=0)
    a, b = gold.paradigms
    assert (a.name, a.phenomenon, a.n_items, a.n_responses, a.n_participants, a.correct) == (
        "A",
        "X",
        2,
        6,
        3,
        5,
    )
    assert a.micro == pytest.approx(5 / 6)
    assert a.macro == pytest.approx((1 + 2 / 3) / 2)
    assert (a.majority_correct, a.majority_accuracy) == (2.0, 1.0)
    assert a.p_value == pytest.approx(7 / 64)  # P(X >= 5 | 6): (C(6,5) + C(6,6)) / 2^6
    assert (b.name, b.n_items, b.n_responses, b.correct) == ("B", 2, 5, 2)
    assert b.micro == pytest.approx(0.4)
    assert b.macro == pytest.approx((1 / 3 + 1 / 2) / 2)
    assert (b.majority_correct, b.majority_accuracy) == (0.5, 0.25)
    assert b.p_value == pytest.approx(26 / 32)  # 1 - (C(5,0) + C(5,1)) / 2^5
    assert a.p_holm == pytest.approx(2 * 7 / 64)
    assert b.p_holm == pytest.approx(26 / 32)


def test_tiny_study_phenomenon_and_overall_by_hand() -> None:
    """Phenomenon X holds every item: individual 7/11, aggregate 2.5/4, macro 0.625."""
    gold = agreement_with_gold(analysed_responses(tiny_judgements(), ANALYSED), bootstrap_resamples=0)
    (phenomenon,) = gold.phenomena
    overall = gold.overall
    assert overall is not None
    for group in (phenomenon, overall):
        assert (group.correct, group.n_responses, group.n_items) == (7, 11, 4)
        assert group.micro == pytest.approx(7 / 11)
        assert group.macro == pytest.approx((1 + 2 / 3 + 1 / 3 + 1 / 2) / 4)
        assert group.majority_accuracy == pytest.approx(2.5 / 4)
        assert group.p_value == pytest.approx(562 / 2048)  # sum C(11, k), k = 7..11
    assert (phenomenon.level, phenomenon.name, phenomenon.phenomenon) == ("phenomenon", "X", "")
    assert (overall.level, overall.name) == ("overall", "all")


def test_tie_rule_fail_counts_an_even_split_as_wrong() -> None:
    """Under "fail" the tied item i4 earns 0, so paradigm B's majority accuracy drops to 0."""
    responses = analysed_responses(tiny_judgements(), ANALYSED)
    half = agreement_with_gold(responses, tie="half", bootstrap_resamples=0)
    fail = agreement_with_gold(responses, tie="fail", bootstrap_resamples=0)
    assert [i.majority for i in fail.items] == [1.0, 1.0, 0.0, 0.0]
    assert fail.paradigms[1].majority_accuracy == 0.0
    assert half.paradigms[1].majority_accuracy == 0.25
    assert fail.overall is not None and half.overall is not None
    assert (fail.overall.majority_accuracy, half.overall.majority_accuracy) == (0.5, 0.625)
    assert fail.overall.micro == half.overall.micro  # the tie rule touches majority votes only


@pytest.mark.parametrize(
    ("correct", "n", "tie", "expected"),
    [(3, 5, "half", 1.0), (2, 5, "half", 0.0), (2, 4, "half", 0.5), (2, 4, "fail", 0.0), (1, 1, "fail", 1.0)],
)
def test_majority_credit(correct: int, n: int, tie: str, expected: float) -> None:
    """More than half right earns 1, fewer 0, an even split the tie rule's credit."""
    assert majority_credit(correct, n, tie) == expected  # type: ignore[arg-type]


def test_majority_credit_rejects_an_unknown_tie_rule() -> None:
    """A typo in the tie rule is an error naming the choices."""
    with pytest.raises(ValueError, match="half, fail"):
        majority_credit(1, 2, "coin")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tie rule"):
        agreement_with_gold(_responses("i", 1, 2), tie="coin")  # type: ignore[arg-type]


def test_one_sided_binomial_by_hand() -> None:
    """P(X >= k | n, 0.5), and 1.0 without responses."""
    assert one_sided_binomial(5, 5) == pytest.approx(1 / 32)
    assert one_sided_binomial(4, 5) == pytest.approx(6 / 32)  # the notes' 0.1875
    assert one_sided_binomial(18, 25) < 0.05 < one_sided_binomial(17, 25)  # the notes' 18/25
    assert one_sided_binomial(0, 3) == 1.0
    assert one_sided_binomial(0, 0) == 1.0


def test_holm_adjusts_paradigms_in_order_of_their_p_values() -> None:
    """Three paradigms: the smallest p is multiplied by 3, the next by 2, the largest by 1,
    whatever the alphabetical order."""
    responses = _responses("x", 10, 10, "a") + _responses("y", 5, 10, "b") + _responses("z", 8, 10, "c")
    gold = agreement_with_gold(responses, bootstrap_resamples=0)
    p = {g.name: (g.p_value, g.p_holm) for g in gold.paradigms}
    assert p["a"] == pytest.approx((1 / 1024, 3 / 1024))
    assert p["c"] == pytest.approx((56 / 1024, 112 / 1024))
    assert p["b"] == pytest.approx((638 / 1024, 638 / 1024))


def test_holm_keeps_adjusted_values_monotone() -> None:
    """A larger raw p never gets a smaller adjusted p than a smaller one (step-down max)."""
    responses = _responses("x", 9, 10, "a") + _responses("y", 9, 10, "b") + _responses("z", 10, 10, "c")
    gold = agreement_with_gold(responses, bootstrap_resamples=0)
    p = {g.name: g.p_holm for g in gold.paradigms}
    assert p["c"] == pytest.approx(3 / 1024)
    assert p["a"] == p["b"] == pytest.approx(2 * 11 / 1024)


def test_analysed_responses_leave_out_catch_practice_filler_and_excluded() -> None:
    """Only the analysed participants' experimental trials enter the agreement."""
    responses = analysed_responses(tiny_judgements(), ANALYSED)
    assert len(responses) == 11
    assert {r.item_id for r in responses} == {"i1", "i2", "i3", "i4"}
    assert {r.participant_id for r in responses} == set(ANALYSED)


def test_a_participant_answering_an_item_twice_is_named() -> None:
    """A resent answer counted twice would inflate n: it is an error naming who and what."""
    twice = [Judgement("i1", "p1", True, "A"), Judgement("i1", "p1", False, "A")]
    with pytest.raises(ValueError, match="participant 'p1' answered item 'i1' twice"):
        analysed_responses(twice, frozenset({"p1"}))


def test_an_item_in_two_paradigms_is_named() -> None:
    """An item carries one paradigm and phenomenon."""
    mixed = [Judgement("i1", "p1", True, "A", "X"), Judgement("i1", "p2", True, "B", "X")]
    with pytest.raises(ValueError, match="item 'i1' is labelled paradigm 'A'"):
        analysed_responses(mixed, frozenset({"p1", "p2"}))


def test_no_responses_give_an_empty_result() -> None:
    """Nothing to analyse is an empty result, not an error."""
    gold = agreement_with_gold([])
    assert (gold.items, gold.paradigms, gold.phenomena, gold.overall) == ((), (), (), None)


def test_bootstrap_resamples_participants() -> None:
    """One participant: every resample is that participant, so the interval is the point.
    With several, the seeded interval is reproducible and brackets the micro accuracy."""
    single = [Judgement(f"i{k}", "p1", k < 3, "A") for k in range(5)]
    overall = agreement_with_gold(single, bootstrap_resamples=200).overall
    assert overall is not None
    assert overall.bootstrap_low == pytest.approx(0.6) and overall.bootstrap_high == pytest.approx(0.6)
    responses = analysed_responses(tiny_judgements(), ANALYSED)
    first = agreement_with_gold(responses, bootstrap_resamples=500, seed=3).overall
    again = agreement_with_gold(responses, bootstrap_resamples=500, seed=3).overall
    assert first is not None and again is not None
    assert (first.bootstrap_low, first.bootstrap_high) == (again.bootstrap_low, again.bootstrap_high)
    assert first.bootstrap_low is not None and first.bootstrap_high is not None
    assert first.bootstrap_low <= first.micro <= first.bootstrap_high
    assert first.bootstrap_low < first.bootstrap_high
    off = agreement_with_gold(responses, bootstrap_resamples=0).overall
    assert off is not None and off.bootstrap_low is None and off.bootstrap_high is None


def test_item_dict_is_complete() -> None:
    """The item dict carries every number the export needs."""
    gold = agreement_with_gold(_responses("i", 2, 3), bootstrap_resamples=0)
    row = gold.items[0].to_dict()
    assert row["correct"] == 2 and row["n"] == 3 and row["disagrees"] is False
    assert math.isclose(float(row["accuracy"]), 2 / 3)  # type: ignore[arg-type]


def test_items_are_listed_in_the_order_a_reader_counts() -> None:
    judgements = [j for item in ("2380", "227", "1128", "1022") for j in _responses(item, 1, 1)]
    result = agreement_with_gold(judgements)
    assert [i.item_id for i in result.items] == ["227", "1022", "1128", "2380"]
    assert sorted(["catch-1-10", "catch-1-2", "x"], key=item_sort_key) == ["catch-1-2", "catch-1-10", "x"]
