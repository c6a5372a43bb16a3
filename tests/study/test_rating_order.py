"""Rating and magnitude trials: each participant's schedule, what the browser sees, the check
of a submitted value, and the one rule for a rating's agreement with the expected end."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import pytest

from study.design import DesignSettings, StudyDesign, build_design
from study.errors import StudyError
from study.items import StudyItem
from study.order import ParticipantSchedule, Trial, build_schedule, trial_counts
from study.rating_scale import RatingScale, expected_end, rating_agrees, trial_scale, validate_rating
from tests.study.helpers import pair_items

PRACTICE = (
    StudyItem(
        "prac-1", "practice", "", "pair", ("The sun is very hot today.", "The sun are very hot today.")
    ),
)
FILLERS = (
    StudyItem("fill-1", "filler", "", "pair", ("Birds can fly very high.", "Birds can flies very high.")),
    StudyItem("fill-2", "filler", "", "pair", ("We often eat fresh bread.", "We often eats fresh bread.")),
)
REFERENCE = "The guests who the waiter served was happy."


def make_design(task: str = "rating", **changes: object) -> StudyDesign:
    values: dict[str, object] = {
        "seed": 3,
        "items_per_paradigm": 6,
        "n_lists": 2,
        "target_responses": 10,
        "catch_per_list": 2,
        "task": task,
        "reference_sentence": REFERENCE if task == "magnitude" else "",
    }
    values.update(changes)
    return build_design(
        pair_items({"a": 6, "b": 6, "c": 6}),
        DesignSettings(**values),  # type: ignore[arg-type]
        practice=PRACTICE,
        fillers=FILLERS,
    )


def rating_trial(
    task: str = "rating", expected: str = "high", points: int = 7, reference: int = 100
) -> Trial:
    return Trial(
        trial_index=4,
        item_id="a-1",
        kind="experimental",
        task=task,  # type: ignore[arg-type]
        sentences=("The dog sleeps.",),
        gold_index=None,
        gold_ranking=(),
        roles=("good",) if expected == "high" else ("bad",),
        paradigm="a",
        phenomenon="agreement",
        expected=expected,
        scale_points=points if task == "rating" else 0,
        reference_sentence=REFERENCE if task == "magnitude" else "",
        reference_value=reference if task == "magnitude" else 0,
    )


# -- schedules --------------------------------------------------------------------------------


@pytest.mark.parametrize("task", ["rating", "magnitude"])
def test_schedule_shows_one_sentence_per_trial_with_its_expected_end(task: str) -> None:
    """Every trial is a rating of one sentence; good sentences expect high, bad and catch low."""
    design = make_design(task)
    schedule = build_schedule(design, 1, "p-1")
    for trial in schedule.trials:
        assert trial.task == task and len(trial.sentences) == 1 and trial.gold_index is None
        assert trial.roles in (("good",), ("bad",))
        assert trial.expected == ("high" if trial.roles == ("good",) else "low")
        assert trial.gold_side == ""
    assert len(schedule.trials) == trial_counts(design)[1]


def test_schedule_holds_the_lists_sentences_catch_fillers_and_practice() -> None:
    """The list's items come as the sentence the list holds; each filler and practice item as
    both sentences; each catch trial as its scramble alone, expected low; practice first."""
    design = make_design()
    schedule = build_schedule(design, 0, "p-7")
    kinds = Counter(t.kind for t in schedule.trials)
    assert kinds == {"experimental": 18, "filler": 4, "practice": 2, "catch": 2}
    assert [t.kind for t in schedule.trials[:2]] == ["practice", "practice"]
    assert {t.roles[0] for t in schedule.trials if t.kind == "practice"} == {"good", "bad"}
    shown = {(t.item_id, t.roles[0]) for t in schedule.trials if t.kind == "experimental"}
    assert shown == set(design.lists[0].entries())
    fillers = Counter((t.item_id, t.sentences[0]) for t in schedule.trials if t.kind == "filler")
    assert set(fillers) == {(f.item_id, s) for f in FILLERS for s in f.sentences}
    catch = [t for t in schedule.trials if t.kind == "catch"]
    assert sorted((t.item_id, t.sentences[0]) for t in catch) == sorted(
        (c.catch_id, c.bad) for c in design.lists[0].catch
    )
    assert all(t.expected == "low" and t.roles == ("bad",) for t in catch)
    assert schedule.trials[2].kind != "catch"


def test_schedule_spreads_paradigms_and_is_reproducible() -> None:
    """No two neighbouring experimental trials share a paradigm when counts allow, and the same
    participant gets the same order again."""
    design = make_design()
    schedule = build_schedule(design, 0, "p-2")
    assert schedule == build_schedule(design, 0, "p-2")
    main = [t for t in schedule.trials if t.kind in ("experimental", "filler")]
    assert all(a.paradigm != b.paradigm for a, b in itertools.pairwise(main))


@pytest.mark.parametrize("task", ["rating", "magnitude"])
def test_public_view_leaks_no_role_or_expected_end(task: str) -> None:
    """The browser sees index, task, the sentence, confidence and the scale (or the reference),
    never the role, the expected end, the paradigm or the item."""
    design = make_design(task, scale_points=5)
    schedule = build_schedule(design, 0, "p-3")
    for trial in schedule.trials:
        view = trial.public_view()
        if task == "rating":
            assert view == {
                "trial_index": trial.trial_index,
                "task": "rating",
                "sentences": list(trial.sentences),
                "confidence": False,
                "scale_points": 5,
            }
        else:
            assert view == {
                "trial_index": trial.trial_index,
                "task": "magnitude",
                "sentences": list(trial.sentences),
                "confidence": False,
                "reference_sentence": REFERENCE,
                "reference_value": 100,
            }
        text = json.dumps({k: v for k, v in view.items() if k != "sentences"})
        for secret in ("good", "bad", "high", "low", "expected", "role", trial.item_id, "catch"):
            assert secret not in text


@pytest.mark.parametrize("task", ["rating", "magnitude"])
def test_rating_schedule_round_trips_and_2afc_trials_keep_their_old_dict(task: str) -> None:
    """A rating schedule reads back equal; a 2AFC trial's dict has no rating keys."""
    schedule = build_schedule(make_design(task), 1, "p-4")
    assert ParticipantSchedule.from_dict(json.loads(json.dumps(schedule.to_dict()))) == schedule
    assert {"expected", "scale_points"} <= set(schedule.trials[0].to_dict())
    plain = build_schedule(make_design("2afc"), 0, "p-4").trials[0].to_dict()
    assert not {"expected", "scale_points", "reference_sentence", "reference_value"} & set(plain)
    assert Trial.from_dict(plain).expected == ""


# -- validating and judging an answer ---------------------------------------------------------


@pytest.mark.parametrize("value", [1, 4, 7, 7.0])
def test_a_likert_answer_from_1_to_the_scale_points_is_valid(value: object) -> None:
    """A whole number on the scale is taken (5.0 reads as 5)."""
    assert validate_rating(rating_trial(), value) == float(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (8, "whole number from 1 to 7"),
        (0, "whole number from 1 to 7"),
        (-1, "whole number from 1 to 7"),
        (3.5, "whole number from 1 to 7"),
        (math.nan, "finite"),
        (math.inf, "finite"),
        (True, "must be a number"),
        ("5", "must be a number"),
        (None, "must be a number"),
    ],
)
def test_a_likert_answer_off_the_scale_is_refused_in_words(value: object, words: str) -> None:
    """Values off a 7-point scale, NaN, infinities, booleans and text are refused."""
    with pytest.raises(StudyError, match=words):
        validate_rating(rating_trial(), value)


@pytest.mark.parametrize("value", [0.5, 1, 100, 250.75, 1e6])
def test_a_positive_finite_magnitude_is_valid(value: float) -> None:
    """Magnitude estimates are any positive number up to a million."""
    assert validate_rating(rating_trial("magnitude"), value) == value


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (0, "above 0"),
        (-3, "above 0"),
        (math.nan, "finite"),
        (math.inf, "finite"),
        (-math.inf, "finite"),
        (1e6 + 1, "at most 1,000,000"),
        (False, "must be a number"),
    ],
)
def test_a_magnitude_that_is_not_positive_finite_or_sane_is_refused(value: object, words: str) -> None:
    """Zero, negatives, NaN, infinities, absurdly large numbers and booleans are refused."""
    with pytest.raises(StudyError, match=words):
        validate_rating(rating_trial("magnitude"), value)


@pytest.mark.parametrize(
    ("points", "expected", "value", "agrees"),
    [
        (7, "high", 5, True),
        (7, "high", 4, False),
        (7, "low", 4, False),
        (7, "low", 3, True),
        (7, "low", 7, False),
        (6, "high", 4, True),
        (6, "low", 3, True),
        (2, "high", 2, True),
        (2, "low", 1, True),
    ],
)
def test_rating_agrees_above_or_below_the_midpoint_never_on_it(
    points: int, expected: str, value: int, agrees: bool
) -> None:
    """High means above the midpoint, low below it; the midpoint agrees with neither."""
    assert rating_agrees(rating_trial("rating", expected, points), value) is agrees


@pytest.mark.parametrize(
    ("expected", "value", "agrees"),
    [("high", 150, True), ("high", 100, False), ("low", 100, False), ("low", 20, True), ("low", 101, False)],
)
def test_magnitude_agrees_compared_with_the_reference_value(
    expected: str, value: float, agrees: bool
) -> None:
    """In magnitude estimation the reference value is the midpoint."""
    assert rating_agrees(rating_trial("magnitude", expected), value) is agrees


def test_a_2afc_trial_takes_no_rating() -> None:
    """Asking a 2AFC trial for a rating is a StudyError in words."""
    trial = build_schedule(make_design("2afc"), 0, "p-1").trials[0]
    with pytest.raises(StudyError, match="takes a choice, not a rating"):
        rating_agrees(trial, 5)
    with pytest.raises(StudyError, match="takes a choice, not a rating"):
        trial_scale(trial)


def test_rating_scale_refuses_bad_settings_and_bad_expected_ends() -> None:
    """A scale checks its own points and reference; an expected end is high or low."""
    with pytest.raises(StudyError, match="2 to 11 points"):
        RatingScale("rating", 1)
    with pytest.raises(StudyError, match="positive number"):
        RatingScale("magnitude", reference_value=0)
    with pytest.raises(StudyError, match="'high' or 'low'"):
        RatingScale("rating").agrees("middle", 3)
    with pytest.raises(StudyError, match="'good' or 'bad'"):
        expected_end("filler")
    assert (
        RatingScale("rating", 6).midpoint == 3.5
        and RatingScale("magnitude", reference_value=50).midpoint == 50
    )


def test_trial_rating_judgement_carries_the_trial_and_checks_the_value() -> None:
    """A trial turns an answer into the RatingJudgement the analysis reads."""
    judgement = rating_trial(expected="low").rating_judgement("p-9", 2, list_id="1", rt_ms=900.0)
    assert (judgement.item_id, judgement.role, judgement.kind, judgement.value) == (
        "a-1",
        "bad",
        "experimental",
        2.0,
    )
    assert judgement.expected == "low" and judgement.list_id == "1"
    with pytest.raises(StudyError, match="1 to 7"):
        rating_trial().rating_judgement("p-9", 9)
