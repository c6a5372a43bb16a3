"""The rating analysis (z-scores per participant, item and paradigm differences, naturalness,
flags), the exclusion of raters, and simulated studies whose planted differences it recovers."""

from __future__ import annotations

import json
import math
import statistics

import pytest

from scoring.stats import holm
from study.agreement import ParticipantInfo
from study.errors import StudyError
from study.exclusion import REASON_CATCH, REASON_FILLERS, ExclusionRules, exclude_raters
from study.rating_scale import RatingJudgement, RatingKind, RatingRole
from study.ratings import (
    ITEM_GOOD_LOW,
    ITEM_NO_DIFFERENCE,
    PARADIGM_GOOD_UNNATURAL,
    PARADIGM_NOT_RELIABLE,
    PARADIGM_SMALL_DIFFERENCE,
    PARADIGM_TOO_FEW_ITEMS,
    RatingAnalysisSettings,
    RatingScale,
    analyse_rating_study,
    analyse_ratings,
)
from tests.study.rating_simulation import RatingModel, rating_design, simulate_ratings

LIKERT = RatingScale("rating", 7)
MAGNITUDE = RatingScale("magnitude", reference_value=100)


def r(
    participant: str,
    item: str,
    role: RatingRole,
    value: float,
    kind: RatingKind = "experimental",
    paradigm: str = "A",
) -> RatingJudgement:
    return RatingJudgement(participant, item, paradigm, "X", role, kind, value, list_id=participant[-1])


# p1 (list 1) rates i1 good, i2 bad; p2 (list 2) the other way; both rate a filler pair.
P1 = [
    r("p1", "i1", "good", 6),
    r("p1", "i2", "bad", 2),
    r("p1", "f", "good", 5, "filler"),
    r("p1", "f", "bad", 3, "filler"),
]
P2 = [
    r("p2", "i1", "bad", 3),
    r("p2", "i2", "good", 7),
    r("p2", "f", "good", 6, "filler"),
    r("p2", "f", "bad", 2, "filler"),
]


def z(value: float, values: list[float]) -> float:
    return (value - statistics.fmean(values)) / statistics.stdev(values)


# -- z-scores, items, paradigms ---------------------------------------------------------------


def test_item_difference_is_mean_z_of_good_minus_mean_z_of_bad_across_participants() -> None:
    """Each participant is z-scored over their experimental and filler ratings; an item's
    difference subtracts one participant's z of the bad sentence from another's of the good."""
    analysis = analyse_ratings(P1 + P2, LIKERT)
    items = {i.item_id: i for i in analysis.items}
    p1, p2 = [6.0, 2, 5, 3], [3.0, 7, 6, 2]
    assert items["i1"].good_mean_z == pytest.approx(z(6, p1))
    assert items["i1"].bad_mean_z == pytest.approx(z(3, p2))
    assert items["i1"].difference == pytest.approx(z(6, p1) - z(3, p2))
    assert items["i2"].difference == pytest.approx(z(7, p2) - z(2, p1))
    assert (items["i1"].n_good, items["i1"].n_bad, items["i1"].good_mean_raw) == (1, 1, 6.0)
    assert [s.participant_id for s in analysis.participants if s.scaled] == ["p1", "p2"]
    assert analysis.participants[0].mean == pytest.approx(4.0) and analysis.participants[0].n_ratings == 4


def test_practice_and_catch_ratings_are_not_z_scored() -> None:
    """Adding practice and catch ratings changes no z-score."""
    extra = [
        r("p1", "prac", "good", 1, "practice"),
        r("p1", "c1", "bad", 1, "catch"),
        r("p2", "c1", "bad", 7, "catch"),
    ]
    plain, more = analyse_ratings(P1 + P2, LIKERT), analyse_ratings(P1 + P2 + extra, LIKERT)
    assert plain.items == more.items and plain.participants == more.participants


def test_paradigm_difference_interval_and_t_test_are_over_items() -> None:
    """The paradigm's difference is the mean of item differences, its interval a t interval and
    its p the one-sided one-sample t test (as scipy computes them)."""
    from scipy import stats

    analysis = analyse_ratings(P1 + P2, LIKERT)
    diffs = [i.difference for i in analysis.items if i.difference is not None]
    (paradigm,) = analysis.paradigms
    assert paradigm.difference == pytest.approx(statistics.fmean(diffs))
    low, high = stats.t.interval(0.95, len(diffs) - 1, loc=statistics.fmean(diffs), scale=stats.sem(diffs))
    assert (paradigm.ci_low, paradigm.ci_high) == (pytest.approx(low), pytest.approx(high))
    expected = stats.ttest_1samp(diffs, 0.0, alternative="greater")
    assert paradigm.p_value == pytest.approx(expected.pvalue) and paradigm.p_holm == pytest.approx(
        expected.pvalue
    )
    assert paradigm.t_statistic == pytest.approx(expected.statistic)
    assert (paradigm.sign_positive, paradigm.sign_negative, paradigm.sign_p) == (2, 0, 0.25)
    assert (
        paradigm.n_items == paradigm.n_compared == 2
        and paradigm.n_participants == 2
        and paradigm.n_ratings == 4
    )
    # Two items: p < .05 but an interval wide enough to reach below 0.
    assert paradigm.p_holm < 0.05 and paradigm.ci_low is not None and paradigm.ci_low < 0
    assert paradigm.flagged and paradigm.reasons == (PARADIGM_SMALL_DIFFERENCE,)


def test_magnitude_estimates_are_log_transformed_before_z_scoring() -> None:
    """Magnitude values enter as logs; the raw means are geometric means."""
    values = {"i1": 400.0, "i2": 25.0, "fg": 200.0, "fb": 50.0}
    ratings = [
        r("p1", "i1", "good", values["i1"]),
        r("p1", "i2", "bad", values["i2"]),
        r("p1", "f", "good", values["fg"], "filler"),
        r("p1", "f", "bad", values["fb"], "filler"),
    ]
    analysis = analyse_ratings(ratings, MAGNITUDE)
    logs = [math.log(v) for v in values.values()]
    items = {i.item_id: i for i in analysis.items}
    assert items["i1"].good_mean_z == pytest.approx(z(math.log(400), logs))
    assert items["i1"].good_mean_raw == pytest.approx(400.0)
    assert analysis.paradigms[0].good_mean_raw == pytest.approx(400.0)


def test_a_participant_without_variance_is_reported_and_left_out() -> None:
    """All-equal ratings (or a single one) give no z-scores: reported, not counted in items."""
    flat = [r("p3", "i1", "good", 4), r("p3", "i2", "bad", 4), r("p3", "f", "good", 4, "filler")]
    lone = [r("p4", "i1", "good", 7)]
    analysis = analyse_ratings(P1 + P2 + flat + lone, LIKERT)
    assert analysis.unscaled_ids == ("p3", "p4")
    by_id = {s.participant_id: s for s in analysis.participants}
    assert not by_id["p3"].scaled and by_id["p3"].sd == 0.0 and "same rating (4)" in by_id["p3"].message
    assert by_id["p4"].n_ratings == 1 and "only one" in by_id["p4"].message
    assert {i.item_id: i.n_good for i in analysis.items} == {"i1": 1, "i2": 1}


def test_holm_adjusts_across_paradigms_and_one_item_is_too_few() -> None:
    """p_holm is Holm's adjustment over the paradigms with a test; a paradigm with one compared
    item has no interval or test and is flagged as too few."""
    ratings = []
    for paradigm, shift in (("A", 0), ("B", 1)):
        for n in range(3):
            ratings += [
                r(f"p{n}a", f"{paradigm}{n}", "good", 6 - shift, paradigm=paradigm),
                r(f"p{n}b", f"{paradigm}{n}", "bad", 2 + n % 2, paradigm=paradigm),
            ]
    ratings += [r("p0a", "C0", "good", 5, paradigm="C"), r("p0b", "C0", "bad", 4, paradigm="C")]
    for person in {x.participant_id for x in ratings}:
        ratings += [r(person, "f", "good", 7, "filler"), r(person, "f", "bad", 1, "filler")]
    analysis = analyse_ratings(ratings, LIKERT)
    by_name = {p.paradigm: p for p in analysis.paradigms}
    tested = [by_name["A"], by_name["B"]]
    assert [p.p_holm for p in tested] == pytest.approx(holm([p.p_value or 1.0 for p in tested]))
    assert by_name["C"].p_value is None and by_name["C"].ci_low is None and by_name["C"].p_holm is None
    assert by_name["C"].flagged and by_name["C"].reasons == (PARADIGM_TOO_FEW_ITEMS,)


def test_items_not_rated_good_above_bad_or_with_a_low_good_sentence_are_flagged() -> None:
    """An item whose difference is not above 0 is flagged; so is one whose good sentence is
    rated below the participants' average."""
    ratings = P1 + P2 + [r("p1", "i3", "good", 3), r("p2", "i3", "bad", 6)]
    flags = {f.item_id: f for f in analyse_ratings(ratings, LIKERT).item_flags}
    assert set(flags) == {"i3"}
    assert flags["i3"].reasons == (ITEM_NO_DIFFERENCE, ITEM_GOOD_LOW)
    assert "not rated above its bad one" in flags["i3"].messages[0]


def test_a_sentence_rated_twice_or_an_invalid_value_is_refused_by_name() -> None:
    """Duplicates and values off the scale are StudyErrors naming the participant and item."""
    with pytest.raises(StudyError, match="'p1' rated the good sentence of item 'i1' twice"):
        analyse_ratings([*P1, r("p1", "i1", "good", 5)], LIKERT)
    with pytest.raises(StudyError, match=r"'p1', item 'i1'.*1 to 7"):
        analyse_ratings([r("p1", "i1", "good", 9)], LIKERT)
    with pytest.raises(StudyError, match="role is 'good' or 'bad'"):
        r("p1", "i1", "filler", 3)  # type: ignore[arg-type]


def test_analysis_settings_are_checked() -> None:
    """Alpha and confidence lie between 0 and 1."""
    with pytest.raises(StudyError, match="alpha"):
        RatingAnalysisSettings(alpha=1.5)
    with pytest.raises(StudyError, match="finite"):
        RatingAnalysisSettings(min_difference=math.nan)


def test_no_ratings_give_an_empty_analysis() -> None:
    """Nothing to analyse gives empty tuples, and a JSON-ready dict."""
    analysis = analyse_ratings([], LIKERT)
    assert analysis.items == () and analysis.paradigms == () and analysis.participants == ()
    assert json.loads(json.dumps(analysis.to_dict(), allow_nan=False))["paradigms"] == []


# -- exclusion --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scale", "catch_value", "failed"),
    [
        (LIKERT, 3, False),
        (LIKERT, 4, True),
        (LIKERT, 7, True),
        (MAGNITUDE, 99, False),
        (MAGNITUDE, 100, True),
    ],
)
def test_a_catch_scramble_rated_at_or_above_the_midpoint_is_a_failed_catch(
    scale: RatingScale, catch_value: float, failed: bool
) -> None:
    """A scramble must be rated below the midpoint (the reference value in magnitude estimation)."""
    ratings = [r("p1", "c1", "bad", 1, "catch"), r("p1", "c2", "bad", catch_value, "catch")]
    result = exclude_raters(ratings, scale)
    (check,) = result.participants
    assert (REASON_CATCH in check.reasons) is failed
    assert check.catch_total == 2 and check.catch_correct == (1 if failed else 2) and check.left_share is None


def test_exclude_raters_judges_fillers_and_keeps_lists() -> None:
    """Filler accuracy uses the same rule; a participant's list comes from their ratings."""
    ratings = [*P1, r("p1", "c", "bad", 1, "catch"), r("p2", "f2", "good", 4, "filler")]
    result = exclude_raters(ratings, LIKERT, ExclusionRules(min_filler_accuracy=1.0))
    by_id = {p.participant_id: p for p in result.participants}
    assert by_id["p1"].filler_correct == 2 and not by_id["p1"].excluded and by_id["p1"].list_id == "1"
    assert REASON_FILLERS in by_id["p2"].reasons
    assert by_id["p1"].items_answered == 2 and by_id["p1"].items_correct == 2


def test_analyse_rating_study_leaves_out_excluded_and_incomplete_participants() -> None:
    """The whole-study call excludes first, then analyses the rest, keeping the flow."""
    ratings = [*P1, *P2, r("p1", "c", "bad", 2, "catch"), r("p2", "c", "bad", 6, "catch")]
    analysis = analyse_rating_study(ratings, LIKERT, participants=[ParticipantInfo("p3", completed=False)])
    assert analysis.exclusion is not None and analysis.exclusion.analysed_ids == {"p1"}
    assert [s.participant_id for s in analysis.participants] == ["p1"]
    data = json.loads(json.dumps(analysis.to_dict(), allow_nan=False))
    assert data["flow"]["started"] == 3 and data["flow"]["analysed"] == 1
    assert set(data) == {
        "task",
        "scale",
        "settings",
        "method",
        "flow",
        "flow_by_list",
        "exclusions",
        "participants",
        "unscaled",
        "paradigms",
        "items",
        "paradigm_flags",
        "item_flags",
    }


# -- simulated studies ------------------------------------------------------------------------


EFFECTS = {"big": 2.0, "mid": 1.2, "small": 0.8, "none": 0.0, "odd": 1.2}
BASE = {"odd": -1.2}  # the "odd" paradigm's good sentences sound worse than average


@pytest.mark.parametrize(
    ("task", "n_lists", "seed"),
    [("rating", 2, 2), ("rating", 3, 4), ("magnitude", 2, 5), ("magnitude", 3, 3)],
)
def test_analysis_recovers_planted_differences_from_simulated_participants(
    task: str, n_lists: int, seed: int
) -> None:
    """Participants with their own bias, scale use and noise, two of them inattentive: the
    inattentive fail their catch trials, exactly the no-difference paradigm is flagged, exactly
    the odd one is unnatural, and each difference is close to the planted one in z units."""
    design = rating_design(dict.fromkeys(EFFECTS, 12), task, n_lists=n_lists, seed=seed)
    model = RatingModel(design, EFFECTS, base=BASE, seed=seed)
    simulated = simulate_ratings(model, 12, inattentive=("p1-3", "p2-5"), seed=seed)
    analysis = analyse_rating_study(simulated.ratings, design.settings.rating_scale())
    assert analysis.exclusion is not None
    assert {p.participant_id for p in analysis.exclusion.participants if p.excluded} == {"p1-3", "p2-5"}
    assert analysis.unscaled_ids == ()
    by_name = {p.paradigm: p for p in analysis.paradigms}
    assert {p.paradigm for p in analysis.paradigms if p.flagged} == {"none"}
    assert set(by_name["none"].reasons) <= {PARADIGM_NOT_RELIABLE, PARADIGM_SMALL_DIFFERENCE}
    assert {p.paradigm for p in analysis.paradigms if p.unnatural} == {"odd"}
    assert by_name["odd"].reasons == (PARADIGM_GOOD_UNNATURAL,)
    for name, paradigm in by_name.items():
        assert paradigm.difference == pytest.approx(simulated.expected_z_difference[name], abs=0.25)
        assert paradigm.n_items == paradigm.n_compared == 12
    assert by_name["big"].difference > by_name["mid"].difference > by_name["small"].difference  # type: ignore[operator]
    assert json.loads(json.dumps(analysis.to_dict(), allow_nan=False))["paradigm_flags"] == ["none", "odd"]


def test_simulated_likert_answers_stay_on_the_scale_and_magnitudes_positive() -> None:
    """The simulator answers as the validator requires (it goes through Trial.rating_judgement)."""
    for task in ("rating", "magnitude"):
        design = rating_design({"a": 4, "b": 4}, task)
        simulated = simulate_ratings(RatingModel(design, {"a": 1.0}), 2, inattentive=("p1-1",))
        values = [x.value for x in simulated.ratings]
        assert (
            all(1 <= v <= 7 and v == int(v) for v in values)
            if task == "rating"
            else all(v > 0 for v in values)
        )
        assert len(simulated.schedules) == 4 and simulated.planted == {"a": 1.0, "b": 0.0}
