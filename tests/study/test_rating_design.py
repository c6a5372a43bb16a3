"""Rating and magnitude-estimation designs: settings, Latin-square lists (no list holds both
sentences of a pair), balance of good and bad sentences, and the stored design."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from study.design import DesignSettings, StudyDesign, StudyList, build_design
from study.errors import StudyError
from study.rating_lists import build_rating_lists
from study.rating_scale import RatingScale
from tests.study.helpers import pair_items, triplet_items


def settings(**changes: object) -> DesignSettings:
    values: dict[str, object] = {
        "seed": 7,
        "items_per_paradigm": 6,
        "n_lists": 2,
        "target_responses": 10,
        "catch_per_list": 2,
        "task": "rating",
    }
    values.update(changes)
    return DesignSettings(**values)  # type: ignore[arg-type]


# -- settings ---------------------------------------------------------------------------------


def test_settings_default_to_2afc_with_a_seven_point_scale() -> None:
    """Old settings get task 2afc and the rating defaults, and 2AFC has no rating scale."""
    plain = DesignSettings(seed=1, items_per_paradigm=2, n_lists=1, target_responses=3)
    assert (plain.task, plain.scale_points, plain.reference_sentence, plain.reference_value) == (
        "2afc",
        7,
        "",
        100,
    )
    assert not plain.rated
    with pytest.raises(StudyError, match="no rating scale"):
        plain.rating_scale()


@pytest.mark.parametrize("points", [1, 12, 0, True, 7.0, "7"])
def test_settings_refuse_a_scale_outside_2_to_11_points(points: object) -> None:
    """A scale needs 2 to 11 whole points."""
    with pytest.raises(StudyError, match="2 to 11 points"):
        settings(scale_points=points)


@pytest.mark.parametrize("points", [2, 5, 11])
def test_settings_take_a_scale_of_2_to_11_points(points: int) -> None:
    """The rating scale of the settings has their points."""
    assert settings(scale_points=points).rating_scale() == RatingScale("rating", points)


def test_magnitude_needs_a_reference_sentence() -> None:
    """Magnitude estimation without a reference sentence is refused in words."""
    with pytest.raises(StudyError, match="needs a reference sentence"):
        settings(task="magnitude", reference_sentence="   ")
    scale = settings(task="magnitude", reference_sentence="The dog barks.", reference_value=50).rating_scale()
    assert scale == RatingScale("magnitude", reference_value=50)


@pytest.mark.parametrize("value", [0, -5, True, 2.5, 10**7])
def test_magnitude_refuses_a_reference_value_that_is_not_a_positive_whole_number(value: object) -> None:
    """The reference value is a whole number from 1 to 1,000,000."""
    with pytest.raises(StudyError, match="reference sentence's value"):
        settings(task="magnitude", reference_sentence="The dog barks.", reference_value=value)


def test_an_unknown_task_is_refused_naming_the_tasks() -> None:
    """The task is 2afc, rating or magnitude."""
    with pytest.raises(StudyError, match="2afc, rating, magnitude"):
        settings(task="likert")


@pytest.mark.parametrize(
    ("task", "n_lists", "replication"), [("rating", 1, 1), ("rating", 3, 2), ("magnitude", 5, 3)]
)
def test_rating_needs_two_lists_per_replication(task: str, n_lists: int, replication: int) -> None:
    """An item's two sentences need replication lists each: fewer than 2r lists is refused."""
    with pytest.raises(StudyError, match=f"at least {2 * replication} lists, not {n_lists}"):
        settings(task=task, n_lists=n_lists, replication=replication, reference_sentence="Ref.")


@pytest.mark.parametrize("task", ["rating", "magnitude"])
def test_rating_refuses_triplets_by_name(task: str) -> None:
    """Rating works on pairs only; triplets among the items, practice or fillers are named."""
    ref = {"reference_sentence": "The dog barks."} if task == "magnitude" else {}
    with pytest.raises(StudyError, match=r"minimal pairs only.*'t-0'"):
        build_design(pair_items({"a": 4}) + triplet_items(2), settings(task=task, **ref))
    with pytest.raises(StudyError, match="filler is a learner triplet"):
        build_design(pair_items({"a": 4}), settings(task=task, **ref), fillers=triplet_items(1))


# -- lists ------------------------------------------------------------------------------------


CASES = [(2, 1, 6), (3, 1, 7), (4, 1, 5), (4, 2, 7), (5, 2, 9), (6, 3, 11), (7, 3, 4), (8, 2, 13)]


@pytest.mark.parametrize(("n_lists", "replication", "k"), CASES)
def test_no_list_holds_both_sentences_of_a_pair(n_lists: int, replication: int, k: int) -> None:
    """Each list holds an item once; over lists its good sentence is in r lists and its bad one
    in r others."""
    items = pair_items({"a": 20, "b": 20, "c": 20})
    for seed in range(4):
        design = build_design(
            items, settings(seed=seed, items_per_paradigm=k, n_lists=n_lists, replication=replication)
        )
        shown: Counter[tuple[str, str]] = Counter()
        for study_list in design.lists:
            assert len(set(study_list.item_ids)) == len(study_list.item_ids)
            assert len(study_list.conditions) == len(study_list.item_ids)
            shown.update(study_list.entries())
        for item in design.items:
            assert shown[(item.item_id, "good")] == replication
            assert shown[(item.item_id, "bad")] == replication


@pytest.mark.parametrize(("n_lists", "replication", "k"), CASES)
def test_each_list_holds_as_many_good_as_bad_sentences_per_paradigm(
    n_lists: int, replication: int, k: int
) -> None:
    """Per paradigm per list, good and bad differ by at most one, and so do whole lists; the
    paradigm counts stay balanced across lists."""
    items = pair_items({"a": 20, "b": 20, "c": 20})
    for seed in range(4):
        design = build_design(
            items, settings(seed=seed, items_per_paradigm=k, n_lists=n_lists, replication=replication)
        )
        report = design.balance()
        assert report.balanced and report.max_condition_gap <= 1 and report.max_spread <= 1
        for paradigm in ("a", "b", "c"):
            for good, bad in zip(report.good[paradigm], report.bad[paradigm], strict=True):
                assert abs(good - bad) <= 1
            assert sum(report.good[paradigm]) == sum(report.bad[paradigm]) == k * replication


def test_balance_report_lists_good_and_bad_counts_only_for_rating() -> None:
    """The rating balance report adds good, bad and the largest gap; 2AFC keeps its old keys."""
    items = pair_items({"a": 6, "b": 6})
    rated = build_design(items, settings()).balance().to_dict()
    assert rated["good"] == {"a": [3, 3], "b": [3, 3]} and rated["bad"] == {"a": [3, 3], "b": [3, 3]}
    assert rated["max_condition_gap"] == 0 and rated["balanced"] is True
    plain = build_design(items, settings(task="2afc")).balance().to_dict()
    assert set(plain) == {"counts", "spread", "list_sizes", "max_spread", "balanced"}


def test_rating_lists_are_the_same_for_the_same_seed_and_differ_between_seeds() -> None:
    """The deal is reproducible and seeded."""
    items = pair_items({"a": 9, "b": 9})
    first = build_rating_lists(items, 4, seed=3)
    assert build_rating_lists(list(reversed(items)), 4, seed=3) == first
    assert len({build_rating_lists(items, 4, seed=s) for s in range(6)}) > 1


def test_rating_lists_refuse_too_few_lists_and_triplets() -> None:
    """The dealer checks what the settings check, for direct callers."""
    with pytest.raises(StudyError, match="at least 4 lists"):
        build_rating_lists(pair_items({"a": 4}), 3, seed=1, replication=2)
    with pytest.raises(StudyError, match="minimal pairs only"):
        build_rating_lists(triplet_items(2), 2, seed=1)


def test_a_list_with_conditions_of_the_wrong_length_or_name_is_refused() -> None:
    """A stored list's conditions name one sentence per item."""
    with pytest.raises(StudyError, match="2 items but 1 conditions"):
        StudyList(0, ("a", "b"), conditions=("good",))
    with pytest.raises(StudyError, match="'good' or 'bad', not 'fine'"):
        StudyList(0, ("a",), conditions=("fine",))  # type: ignore[arg-type]


# -- catch trials, participants, stored design ------------------------------------------------


def test_rating_design_keeps_catch_trials_and_participant_counts() -> None:
    """Each list gets its catch trials; the target counts ratings of each sentence."""
    design = build_design(
        pair_items({"a": 8, "b": 8}), settings(n_lists=4, replication=2, target_responses=9)
    )
    assert all(len(s.catch) == 2 for s in design.lists)
    assert design.participants_per_list() == 5 and design.participants_needed() == 20


@pytest.mark.parametrize("task", ["rating", "magnitude"])
def test_rating_design_round_trips_through_json(task: str) -> None:
    """to_dict/from_dict keep the task, scale, reference and each list's conditions."""
    ref = {"reference_sentence": "The dog barks.", "reference_value": 50} if task == "magnitude" else {}
    design = build_design(pair_items({"a": 6, "b": 5}), settings(task=task, scale_points=5, **ref))
    data = json.loads(json.dumps(design.to_dict()))
    assert data["lists"][0]["conditions"] and data["settings"]["task"] == task
    again = StudyDesign.from_dict(data)
    assert again.to_dict() == design.to_dict()
    assert again.lists == design.lists and again.settings == design.settings


def test_an_old_2afc_design_without_the_new_fields_still_loads() -> None:
    """A version-1 dict written before rating existed reads back as the same 2AFC design."""
    design = build_design(pair_items({"a": 6}), settings(task="2afc"))
    data = design.to_dict()
    for key in ("scale_points", "reference_sentence", "reference_value"):
        del data["settings"][key]
    assert all("conditions" not in s for s in data["lists"])
    again = StudyDesign.from_dict(data)
    assert again == design and again.settings.task == "2afc" and again.lists[0].conditions == ()
