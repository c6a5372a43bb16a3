"""Sampling, balanced lists, replication, participant counts and the stored design."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from study.design import (
    DesignSettings,
    StudyDesign,
    build_design,
    build_lists,
    practice_items,
    sample_items,
)
from study.errors import StudyError
from study.items import StudyItem, item_from_pair_record, item_from_triplet_record
from tests.study.helpers import pair_items, triplet_items


def settings(**changes: object) -> DesignSettings:
    values: dict[str, object] = {
        "seed": 7,
        "items_per_paradigm": 5,
        "n_lists": 3,
        "target_responses": 20,
        "catch_per_list": 2,
    }
    values.update(changes)
    return DesignSettings(**values)  # type: ignore[arg-type]


# -- sampling ---------------------------------------------------------------------------------


def test_sampling_is_the_same_for_the_same_seed_whatever_the_input_order() -> None:
    items = pair_items({"a": 30, "b": 30, "c": 4})
    first, _ = sample_items(items, 5, seed=11)
    again, _ = sample_items(list(reversed(items)), 5, seed=11)
    assert [i.item_id for i in first] == [i.item_id for i in again]


def test_sampling_differs_between_seeds() -> None:
    items = pair_items({"a": 40, "b": 40})
    draws = {tuple(i.item_id for i in sample_items(items, 5, seed=s)[0]) for s in range(6)}
    assert len(draws) == 6


def test_sampling_takes_k_per_paradigm_and_reports_a_short_paradigm() -> None:
    items = pair_items({"a": 30, "b": 30, "c": 3})
    chosen, report = sample_items(items, 5, seed=1)
    per_paradigm = Counter(i.paradigm for i in chosen)
    assert per_paradigm == {"a": 5, "b": 5, "c": 3}
    by_name = {r.paradigm: r for r in report}
    assert by_name["c"].available == 3 and by_name["c"].shortfall == 2
    assert by_name["a"].shortfall == 0 and by_name["a"].available == 30
    assert set(by_name["c"].item_ids) == {"c-0", "c-1", "c-2"}


def test_adding_a_paradigm_leaves_the_other_samples_alone() -> None:
    base = pair_items({"a": 30, "b": 30})
    more = base + pair_items({"z": 30})
    before = [i.item_id for i in sample_items(base, 4, seed=3)[0] if i.paradigm in "ab"]
    after = [i.item_id for i in sample_items(more, 4, seed=3)[0] if i.paradigm in "ab"]
    assert before == after


def test_duplicate_item_ids_are_refused_by_name() -> None:
    items = pair_items({"a": 2}) + pair_items({"a": 1})
    with pytest.raises(StudyError, match="'a-0' appears twice"):
        sample_items(items, 5, seed=0)


# -- lists ------------------------------------------------------------------------------------


def test_seven_items_over_three_lists_are_balanced_within_one() -> None:
    items = pair_items({"a": 7, "b": 7, "c": 7, "d": 7})
    design = build_design(items, settings(items_per_paradigm=7, n_lists=3))
    report = design.balance()
    for paradigm, counts in report.counts.items():
        assert sorted(counts) == [2, 2, 3], paradigm
        assert report.spread[paradigm] == 1
    assert report.max_spread == 1 and report.balanced
    assert max(report.list_sizes) - min(report.list_sizes) <= 1
    ids = [i for s in design.lists for i in s.item_ids]
    assert sorted(ids) == sorted(i.item_id for i in design.items)  # each item in exactly one list


@pytest.mark.parametrize(("k", "n", "r"), [(7, 3, 1), (5, 4, 1), (7, 3, 2), (5, 5, 3), (1, 4, 1), (9, 2, 2)])
def test_every_paradigm_gets_floor_or_ceil_of_k_r_over_n_in_each_list(k: int, n: int, r: int) -> None:
    items = pair_items({"a": k, "b": k, "c": k})
    lists = build_lists(items, n, seed=5, replication=r)
    low, high = (k * r) // n, -(-(k * r) // n)
    for paradigm in "abc":
        for ids in lists:
            assert low <= sum(1 for i in ids if i.startswith(paradigm)) <= high
    copies = Counter(i for ids in lists for i in ids)
    assert set(copies.values()) == {r}
    for ids in lists:
        assert len(ids) == len(set(ids))  # an item never twice in one list
    sizes = [len(ids) for ids in lists]
    assert max(sizes) - min(sizes) <= 1


def test_replication_puts_each_item_in_r_lists_and_divides_the_participants() -> None:
    items = pair_items({"a": 6, "b": 6})
    design = build_design(
        items, settings(items_per_paradigm=6, n_lists=4, replication=2, target_responses=25)
    )
    copies = Counter(i for s in design.lists for i in s.item_ids)
    assert set(copies.values()) == {2}
    assert design.participants_per_list() == 13  # ceil(25 / 2)
    assert design.participants_needed() == 4 * 13


def test_participants_needed_without_replication() -> None:
    design = build_design(
        pair_items({"a": 6}), settings(items_per_paradigm=6, n_lists=3, target_responses=20)
    )
    assert design.participants_needed() == 60


def test_lists_differ_by_seed_but_not_for_the_same_seed() -> None:
    items = pair_items({"a": 9, "b": 9})
    assert build_lists(items, 3, seed=1) == build_lists(items, 3, seed=1)
    assert len({build_lists(items, 3, seed=s) for s in range(5)}) > 1


def test_too_many_lists_for_the_items_is_a_clear_error() -> None:
    with pytest.raises(StudyError, match="cannot fill 5 lists"):
        build_design(pair_items({"a": 2}), settings(items_per_paradigm=2, n_lists=5))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"n_lists": 0}, "number of lists"),
        ({"items_per_paradigm": 0}, "items per paradigm"),
        ({"replication": 4}, "at most 3 lists"),
        ({"catch_method": "rotate"}, "catch-trial method"),
        ({"triplet_task": "likert"}, "triplet task"),
        ({"comparisons": ("corrected-learner", "good-bad")}, "comparisons"),
        ({"target_responses": True}, "target responses"),
    ],
)
def test_bad_settings_say_which_setting(changes: dict[str, object], message: str) -> None:
    with pytest.raises(StudyError, match=message):
        settings(**changes)


def test_an_item_with_the_wrong_number_of_sentences_is_named() -> None:
    with pytest.raises(StudyError, match=r"Item 'x1' is a triplet and needs 3 sentences"):
        StudyItem("x1", "p", "ph", "triplet", ("a", "b"))
    with pytest.raises(StudyError, match="the bad sentence is empty"):
        StudyItem("x2", "p", "ph", "pair", ("Good.", " "))


# -- catch trials in the design ---------------------------------------------------------------


def test_each_list_gets_its_catch_trials_from_items_it_does_not_show() -> None:
    items = pair_items({"a": 6, "b": 6})
    design = build_design(items, settings(items_per_paradigm=6, n_lists=3, catch_per_list=3))
    for study_list in design.lists:
        assert len(study_list.catch) == 3
        shown = {design.item(i).good for i in study_list.item_ids}
        for catch in study_list.catch:
            assert catch.good not in shown
            assert catch.bad != catch.good
            assert catch.source in {i.item_id for i in design.items}
        assert len({c.good for c in study_list.catch}) == 3


def test_hand_written_catch_pairs_come_first_and_are_dealt_round_the_lists() -> None:
    pairs = [
        ("I like tea.", "Tea like I the."),
        ("She is here.", "Here she is is is."),
        ("We ran.", "Ran we the."),
    ]
    design = build_design(
        pair_items({"a": 6}), settings(items_per_paradigm=6, n_lists=3, catch_per_list=2), catch_pairs=pairs
    )
    seen: Counter[str] = Counter()
    for study_list in design.lists:
        assert [c.method for c in study_list.catch] == ["hand-written", "hand-written"]
        seen.update(c.good for c in study_list.catch)
    assert set(seen.values()) == {2}  # 6 slots over 3 pairs: each pair used twice


def test_hand_written_catch_pairs_are_topped_up_with_scrambles() -> None:
    design = build_design(
        pair_items({"a": 6}),
        settings(items_per_paradigm=6, n_lists=2, catch_per_list=3),
        catch_pairs=[("I like tea.", "Tea like I the.")],
    )
    for study_list in design.lists:
        assert [c.method for c in study_list.catch] == ["hand-written", "shuffle", "shuffle"]


def test_a_broken_hand_written_catch_pair_is_named() -> None:
    with pytest.raises(StudyError, match="Catch pair 2 shows the same sentence twice"):
        build_design(
            pair_items({"a": 3}),
            settings(items_per_paradigm=3, n_lists=1),
            catch_pairs=[("A b c.", "C b a."), ("Same.", "Same.")],
        )


def test_too_short_sentences_for_catch_trials_is_a_clear_error() -> None:
    short = [StudyItem(f"s{i}", "p", "", "pair", ("It rains.", "It rain.")) for i in range(4)]
    with pytest.raises(StudyError, match="at least 4 words"):
        build_design(short, settings(items_per_paradigm=4, n_lists=1))


# -- storage ----------------------------------------------------------------------------------


def test_design_round_trips_through_json() -> None:
    items = pair_items({"a": 5, "b": 4}) + triplet_items(4)
    practice = [
        StudyItem("prac-1", "practice", "", "pair", ("The sun is hot today.", "The sun are hot today."))
    ]
    fillers = [
        StudyItem("fill-1", "filler", "", "pair", ("Birds can fly very high.", "Birds can flies very high."))
    ]
    design = build_design(
        items,
        settings(items_per_paradigm=4, n_lists=2, triplet_task="rank3", confidence=True),
        practice=practice,
        fillers=fillers,
        catch_pairs=[("I like tea a lot.", "Lot a tea like I.")],
    )
    stored = json.loads(json.dumps(design.to_dict()))
    again = StudyDesign.from_dict(stored)
    assert again == design
    assert again.to_dict() == design.to_dict()
    assert again.item("prac-1") == practice[0]
    assert again.settings.triplet_task == "rank3" and again.settings.confidence
    assert again.items[0].words == design.items[0].words


def test_other_json_is_refused_in_words() -> None:
    with pytest.raises(StudyError, match="not a stored study design"):
        StudyDesign.from_dict({"items": []})
    data = build_design(pair_items({"a": 3}), settings(items_per_paradigm=3, n_lists=1)).to_dict()
    data["version"] = 99
    with pytest.raises(StudyError, match="version 99"):
        StudyDesign.from_dict(data)
    data["version"] = 1
    del data["lists"]
    with pytest.raises(StudyError, match="incomplete or damaged"):
        StudyDesign.from_dict(data)


def test_practice_and_filler_ids_must_not_clash_with_items() -> None:
    items = pair_items({"a": 3})
    with pytest.raises(StudyError, match="'a-0'"):
        build_design(items, settings(items_per_paradigm=3, n_lists=1), practice=[items[0]])


# -- records ----------------------------------------------------------------------------------


def test_items_from_generator_and_triplet_records() -> None:
    pair = item_from_pair_record(
        {
            "sentence_good": "The dog runs.",
            "sentence_bad": "The dog run.",
            "UID": "sva_simple",
            "phenomenon": "agreement",
            "pairID": "3",
            "item_id": "ab12",
            "provenance": {"fillers": {"good": {"subj": "dog#1", "verb": "run#2"}, "bad": {}}},
        }
    )
    assert pair.item_id == "ab12" and pair.paradigm == "sva_simple" and pair.kind == "pair"
    assert pair.sentences == ("The dog runs.", "The dog run.")
    assert pair.words == (("subj", "dog#1"), ("verb", "run#2"))
    triplet = item_from_triplet_record(
        {
            "UID": "wi-7",
            "corrected": "She goes home.",
            "learner_error": "She go home.",
            "artificial_error": "She going home.",
            "error_type": "R:VERB:SVA",
        }
    )
    assert triplet.kind == "triplet" and triplet.paradigm == "R:VERB:SVA"
    assert triplet.roles == ("corrected", "learner", "artificial")
    with pytest.raises(StudyError, match="neither 'item_id' nor 'pairID'"):
        item_from_pair_record({"sentence_good": "A.", "sentence_bad": "B."})


# -- practice ---------------------------------------------------------------------------------


def test_practice_items_come_from_what_the_sample_leaves_over_paradigm_by_paradigm() -> None:
    items = pair_items({"a": 8, "b": 8, "c": 8})
    chosen = settings(items_per_paradigm=5)
    sampled, _ = sample_items(items, 5, 7)
    practice = practice_items(items, chosen, 3)
    assert len(practice) == 3 and not {p.item_id for p in practice} & {i.item_id for i in sampled}
    assert sorted(p.paradigm for p in practice) == ["a", "b", "c"]
    assert practice_items(items, chosen, 3) == practice  # seeded
    assert practice_items(items, chosen, 0) == []


def test_too_few_items_left_for_practice_is_a_clear_error() -> None:
    with pytest.raises(StudyError, match="Only 3 items are left over for practice after sampling 5"):
        practice_items(pair_items({"a": 6, "b": 6, "c": 6}), settings(items_per_paradigm=5), 4)
