"""Per-participant trial order, sides, triplet trials and what the browser may see."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from study.design import DesignSettings, StudyDesign, build_design
from study.errors import StudyError
from study.items import StudyItem
from study.order import (
    ParticipantSchedule,
    Trial,
    build_schedule,
    catch_gaps,
    spread_order,
    trial_counts,
)
from study.seeds import participant_seed
from tests.study.helpers import pair_items, triplet_items

PRACTICE = (
    StudyItem(
        "prac-1", "practice", "", "pair", ("The sun is very hot today.", "The sun are very hot today.")
    ),
    StudyItem(
        "prac-2", "practice", "", "pair", ("My friends like green tea.", "My friends likes green tea.")
    ),
)
FILLERS = (
    StudyItem("fill-1", "filler", "", "pair", ("Birds can fly very high.", "Birds can flies very high.")),
)


def make_design(items: list[StudyItem], **changes: object) -> StudyDesign:
    values: dict[str, object] = {
        "seed": 3,
        "items_per_paradigm": 6,
        "n_lists": 2,
        "target_responses": 10,
        "catch_per_list": 3,
    }
    values.update(changes)
    return build_design(items, DesignSettings(**values), practice=PRACTICE, fillers=FILLERS)  # type: ignore[arg-type]


def adjacent_same(trials: list[Trial] | tuple[Trial, ...]) -> int:
    return sum(1 for a, b in itertools.pairwise(trials) if a.paradigm == b.paradigm)


# -- seeds and determinism --------------------------------------------------------------------


def test_participant_seed_is_recorded_stable_and_per_participant() -> None:
    design = make_design(pair_items({"a": 6, "b": 6, "c": 6}))
    first = build_schedule(design, 0, "PID-1")
    assert first.seed == participant_seed(3, "PID-1")
    assert participant_seed(3, "PID-1") == participant_seed(3, "PID-1")
    assert participant_seed(3, "PID-1") != participant_seed(3, "PID-2")
    assert participant_seed(3, "PID-1") != participant_seed(4, "PID-1")
    assert build_schedule(design, 0, "PID-1") == first
    others = {tuple(t.sentences for t in build_schedule(design, 0, f"P{i}").trials) for i in range(8)}
    assert len(others) == 8


def test_a_stored_design_rebuilds_the_same_schedules() -> None:
    design = make_design(pair_items({"a": 6, "b": 6}) + triplet_items(6))
    stored = StudyDesign.from_dict(json.loads(json.dumps(design.to_dict())))
    for pid in ("PID-1", "PID-2", "5f3c"):
        assert build_schedule(stored, 1, pid) == build_schedule(design, 1, pid)


def test_schedule_round_trips_through_json() -> None:
    design = make_design(pair_items({"a": 6}) + triplet_items(6), triplet_task="rank3", confidence=True)
    schedule = build_schedule(design, 1, "abc")
    again = ParticipantSchedule.from_dict(json.loads(json.dumps(schedule.to_dict())))
    assert again == schedule


# -- order ------------------------------------------------------------------------------------


def test_practice_comes_first_in_the_given_order_then_no_catch_first() -> None:
    design = make_design(pair_items({"a": 6, "b": 6, "c": 6}))
    for pid in range(20):
        trials = build_schedule(design, pid % 2, f"p{pid}").trials
        assert [t.item_id for t in trials[:2]] == ["prac-1", "prac-2"]
        assert all(t.kind == "practice" for t in trials[:2])
        assert trials[2].kind != "catch"
        assert [t.trial_index for t in trials] == list(range(len(trials)))


def test_every_trial_of_the_list_is_shown_once() -> None:
    design = make_design(pair_items({"a": 6, "b": 6, "c": 6}))
    schedule = build_schedule(design, 1, "x")
    kinds = Counter(t.kind for t in schedule.trials)
    assert kinds == {"practice": 2, "experimental": 9, "filler": 1, "catch": 3}
    shown = [t.item_id for t in schedule.trials if t.kind == "experimental"]
    assert sorted(shown) == sorted(design.lists[1].item_ids)
    assert sorted(t.item_id for t in schedule.trials if t.kind == "catch") == sorted(
        c.catch_id for c in design.lists[1].catch
    )


def test_no_two_neighbours_share_a_paradigm_when_the_counts_allow() -> None:
    design = make_design(pair_items({"a": 6, "b": 6, "c": 6}), n_lists=1)
    for pid in range(50):
        trials = build_schedule(design, 0, f"p{pid}").trials
        main = [t for t in trials if t.kind != "practice"]
        assert adjacent_same(main) == 0, [t.paradigm for t in main]


def test_catch_trials_are_spread_and_never_neighbours() -> None:
    design = make_design(pair_items({"a": 6, "b": 6, "c": 6}), n_lists=1, catch_per_list=4)
    for pid in range(50):
        trials = build_schedule(design, 0, f"p{pid}").trials
        kinds = [t.kind for t in trials]
        assert kinds.count("catch") == 4
        assert all(not (a == b == "catch") for a, b in itertools.pairwise(kinds))
        main = kinds[2:]
        assert main[0] != "catch"
        catch_positions = [i for i, k in enumerate(main) if k == "catch"]
        # one catch trial in each quarter of the main block
        quarter = len(main) / 4
        assert sorted({int(p // quarter) for p in catch_positions}) == [0, 1, 2, 3]


@pytest.mark.parametrize("seed", range(30))
def test_spread_order_property_on_random_counts(seed: int) -> None:
    rng = random.Random(seed)
    labels = [rng.choice("abcd") for _ in range(rng.randint(1, 25))]
    order = spread_order(labels, random.Random(seed))
    assert sorted(order) == list(range(len(labels)))
    arranged = [labels[i] for i in order]
    adjacent = sum(1 for a, b in itertools.pairwise(arranged) if a == b)
    most = max(Counter(labels).values())
    # the fewest equal neighbours any order can have
    assert adjacent == max(0, most - (len(labels) - most) - 1)


def test_an_impossible_spread_still_gives_every_trial_once() -> None:
    design = make_design(pair_items({"a": 6, "b": 1}), n_lists=1, catch_per_list=1)
    trials = build_schedule(design, 0, "p").trials
    main = [t for t in trials if t.kind in ("experimental", "filler")]
    assert sorted(t.item_id for t in main) == sorted([*design.lists[0].item_ids, "fill-1"])
    # six 'a' among eight: 'a' leads and closes, so at best three equal neighbours remain
    assert adjacent_same(main) == 3


def test_neighbours_avoid_sharing_a_word_where_they_can() -> None:
    labels = ["a", "b"] * 6
    words = [frozenset({f"w{i // 2}"}) for i in range(12)]  # a_i and b_i share the word w_i
    shared_with, shared_without = 0, 0
    for seed in range(30):
        for given, total in ((words, "with"), (None, "without")):
            order = spread_order(labels, random.Random(seed), given)
            shared = sum(1 for x, y in itertools.pairwise(order) if words[x] & words[y])
            assert all(labels[x] != labels[y] for x, y in itertools.pairwise(order))
            if total == "with":
                assert shared <= 1  # only the very last pick can be forced
                shared_with += shared
            else:
                shared_without += shared
    assert shared_with < shared_without


def test_schedule_keeps_items_with_a_shared_word_apart() -> None:
    items = [
        StudyItem(
            f"{p}-{i}",
            p,
            "",
            "pair",
            (f"The {noun} near the house sees {i} apples.", f"The {noun} near the house see {i} apples."),
            (("subject", noun),),
        )
        for p in "ab"
        for i, noun in enumerate(("dog", "cat", "bird", "horse", "child", "baker"))
    ]
    design = make_design(items, n_lists=1, catch_per_list=1)
    for pid in range(20):
        trials = build_schedule(design, 0, f"p{pid}").trials
        nouns = [design.item(t.item_id).words[0][1] if t.kind == "experimental" else "" for t in trials]
        assert sum(1 for x, y in itertools.pairwise(nouns) if x and x == y) <= 1


def test_trial_counts_per_list() -> None:
    design = make_design(pair_items({"a": 6}) + triplet_items(6), n_lists=2, catch_per_list=2)
    counts = trial_counts(design)
    assert counts == tuple(len(build_schedule(design, i, "p").trials) for i in range(2))
    # 2 practice + 1 filler + 2 catch + 3 pairs + 3 triplets x 3 comparisons
    assert counts == (17, 17)


def test_catch_gaps() -> None:
    rng = random.Random(0)
    assert catch_gaps(10, 0, rng) == []
    for _ in range(50):
        gaps = catch_gaps(10, 3, rng)
        assert len(set(gaps)) == 3 and min(gaps) >= 1 and max(gaps) <= 10
    assert catch_gaps(2, 4, rng) == [1, 1, 2, 2]
    assert catch_gaps(0, 2, rng) == [0, 0]


# -- sides ------------------------------------------------------------------------------------


@pytest.mark.parametrize("pid", [f"p{i}" for i in range(15)])
def test_left_and_right_are_balanced_within_the_participant(pid: str) -> None:
    design = make_design(pair_items({"a": 7, "b": 6, "c": 6}), n_lists=1)  # 19 items: odd
    trials = build_schedule(design, 0, pid).trials
    two = [t for t in trials if t.task == "2afc"]
    left = sum(1 for t in two if t.gold_index == 0)
    assert abs(left - (len(two) - left)) <= 1
    for kind in ("practice", "experimental", "filler", "catch"):
        group = [t for t in two if t.kind == kind]
        group_left = sum(1 for t in group if t.gold_side == "left")
        assert abs(group_left - (len(group) - group_left)) <= 1, kind


def test_gold_points_at_the_acceptable_sentence() -> None:
    design = make_design(pair_items({"a": 6, "b": 6}))
    for trial in build_schedule(design, 0, "p").trials:
        assert trial.gold_index is not None
        good = trial.sentences[trial.gold_index]
        bad = trial.sentences[1 - trial.gold_index]
        assert trial.roles[trial.gold_index] == "good" and trial.roles[1 - trial.gold_index] == "bad"
        if trial.kind == "catch":
            catch = {c.catch_id: c for c in design.lists[0].catch}[trial.item_id]
            assert (good, bad) == (catch.good, catch.bad)
        else:
            assert (good, bad) == design.item(trial.item_id).sentences


# -- triplets ---------------------------------------------------------------------------------


def test_pairwise_triplets_give_one_2afc_trial_per_comparison() -> None:
    design = make_design(triplet_items(6), n_lists=1, catch_per_list=1)
    trials = build_schedule(design, 0, "p").trials
    experimental = [t for t in trials if t.kind == "experimental"]
    assert len(experimental) == 18
    assert Counter(t.comparison for t in experimental) == {
        "corrected-learner": 6,
        "learner-artificial": 6,
        "corrected-artificial": 6,
    }
    assert len({t.analysis_key for t in experimental}) == 18
    for trial in experimental:
        item = design.item(trial.item_id)
        by_role = dict(zip(item.roles, item.sentences, strict=True))
        expected, other = trial.comparison.split("-")
        assert trial.gold_index is not None and trial.task == "2afc"
        assert trial.roles[trial.gold_index] == expected
        assert trial.sentences[trial.gold_index] == by_role[expected]
        assert trial.sentences[1 - trial.gold_index] == by_role[other]


def test_pairwise_triplets_can_ask_for_some_comparisons_only() -> None:
    design = make_design(triplet_items(4), n_lists=1, catch_per_list=1, comparisons=("learner-artificial",))
    experimental = [t for t in build_schedule(design, 0, "p").trials if t.kind == "experimental"]
    assert [t.comparison for t in experimental] == ["learner-artificial"] * 4


def test_rank3_triplets_show_three_sentences_in_shuffled_order_with_the_gold_ranking() -> None:
    design = make_design(triplet_items(6), n_lists=1, catch_per_list=1, triplet_task="rank3")
    orders: Counter[tuple[str, ...]] = Counter()
    for pid in range(30):
        for trial in build_schedule(design, 0, f"p{pid}").trials:
            if trial.kind != "experimental":
                continue
            assert trial.task == "rank3" and trial.gold_index is None and trial.gold_side == ""
            item = design.item(trial.item_id)
            assert tuple(trial.sentences[i] for i in trial.gold_ranking) == item.sentences
            assert tuple(trial.roles[i] for i in trial.gold_ranking) == ("corrected", "learner", "artificial")
            orders[trial.roles] += 1
    assert len(orders) == 6  # every display order occurs


@pytest.mark.parametrize("n", [1, 4, 7, 12])
def test_rank3_positions_are_balanced_within_the_participant(n: int) -> None:
    design = make_design(
        triplet_items(n), n_lists=1, catch_per_list=1, triplet_task="rank3", items_per_paradigm=n
    )
    for pid in range(10):
        ranked = [t for t in build_schedule(design, 0, f"p{pid}").trials if t.task == "rank3"]
        assert len(ranked) == n
        for role in ("corrected", "learner", "artificial"):
            places = Counter(t.roles.index(role) for t in ranked)
            counts = [places[k] for k in range(3)]
            assert max(counts) - min(counts) <= 1, (role, counts)


# -- what the browser sees --------------------------------------------------------------------


def test_public_view_holds_no_gold_paradigm_kind_or_item_id() -> None:
    items = pair_items({"secretparadigm": 6}) + triplet_items(6, paradigm="R:SECRET")
    for task in ("pairwise", "rank3"):
        design = make_design(items, n_lists=1, triplet_task=task, confidence=True)
        schedule = build_schedule(design, 0, "p")
        for trial, view in zip(schedule.trials, schedule.public_view(), strict=True):
            assert set(view) == {"trial_index", "task", "sentences", "confidence"}
            assert view["sentences"] == list(trial.sentences)
            assert view["confidence"] is True
            text = json.dumps({k: v for k, v in view.items() if k != "sentences"})
            for secret in ("gold", "paradigm", "secretparadigm", "R:SECRET", "catch", "practice", "filler"):
                assert secret not in text
            assert trial.item_id not in text


def test_a_list_that_does_not_exist_is_named() -> None:
    design = make_design(pair_items({"a": 6}))
    with pytest.raises(StudyError, match="no list 3"):
        build_schedule(design, 2, "p")
    with pytest.raises(StudyError, match="needs an id"):
        build_schedule(design, 0, " ")
