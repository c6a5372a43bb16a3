"""Participant exclusion: each rule on its own, several at once, incomplete sessions, and the
CONSORT-style flow overall and per list."""

from __future__ import annotations

import pytest

from study.agreement import Judgement, ParticipantInfo
from study.exclusion import (
    REASON_CATCH,
    REASON_FILLERS,
    REASON_INCOMPLETE,
    REASON_POSITION_BIAS,
    REASON_TOO_FAST,
    REASON_TOO_FEW_ITEMS,
    ExclusionRules,
    exclude_participants,
)
from tests.study.tiny_study import tiny_judgements

# Every rule off, so a test can switch on exactly one.
OFF = ExclusionRules(min_catch_accuracy=None)


def _trials(
    participant: str,
    *,
    items: int = 4,
    catch: tuple[bool, ...] = (True, True),
    fillers: tuple[bool, ...] = (),
    rt_ms: float = 2000.0,
    left: int = 2,
) -> list[Judgement]:
    """Return a participant's trials: `items` experimental ones (the first `left` answered on the
    left side), catch and filler trials with the given outcomes, and a very fast practice trial."""
    out = [Judgement("practice", participant, False, rt_ms=10.0, chose_left=True, is_practice=True)]
    out += [
        Judgement(f"i{k}", participant, True, "A", "X", rt_ms=rt_ms, chose_left=k < left)
        for k in range(items)
    ]
    out += [Judgement(f"c{k}", participant, ok, rt_ms=rt_ms, is_catch=True) for k, ok in enumerate(catch)]
    out += [Judgement(f"f{k}", participant, ok, rt_ms=rt_ms, is_filler=True) for k, ok in enumerate(fillers)]
    return out


def _reasons(judgements: list[Judgement], rules: ExclusionRules) -> dict[str, tuple[str, ...]]:
    return {p.participant_id: p.reasons for p in exclude_participants(judgements, rules).participants}


def test_catch_trials_default_needs_all_correct() -> None:
    """Default rules: one failed catch trial of two excludes; the message says how many."""
    judgements = _trials("good") + _trials("bad", catch=(True, False))
    result = exclude_participants(judgements)
    bad = {p.participant_id: p for p in result.participants}["bad"]
    assert bad.reasons == (REASON_CATCH,)
    assert bad.messages == ("Answered 1 of 2 catch trials correctly (needs 100%).",)
    assert (bad.catch_correct, bad.catch_total) == (1, 2)
    assert result.analysed_ids == frozenset({"good"})


def test_catch_share_can_be_relaxed_and_a_participant_without_catch_trials_is_not_judged() -> None:
    """At 0.5, one of two is enough; with no catch trials the rule does not apply."""
    judgements = _trials("half", catch=(True, False)) + _trials("none", catch=())
    assert _reasons(judgements, ExclusionRules(min_catch_accuracy=0.5)) == {"half": (), "none": ()}
    assert _reasons(judgements, ExclusionRules())["none"] == ()


def test_filler_accuracy_rule() -> None:
    """Fillers with a known answer: 1 of 3 is below 0.5, 2 of 3 is not."""
    judgements = _trials("low", fillers=(True, False, False)) + _trials("ok", fillers=(True, True, False))
    reasons = _reasons(judgements, ExclusionRules(min_catch_accuracy=None, min_filler_accuracy=0.5))
    assert reasons == {"low": (REASON_FILLERS,), "ok": ()}


def test_too_fast_uses_the_median_without_practice_trials() -> None:
    """The floor compares the median response time of non-practice trials; the 10 ms practice
    trial does not drag a careful participant down."""
    judgements = _trials("fast", rt_ms=300.0) + _trials("careful", rt_ms=2000.0)
    result = exclude_participants(judgements, ExclusionRules(min_catch_accuracy=None, min_median_rt_ms=800))
    checks = {p.participant_id: p for p in result.participants}
    assert checks["fast"].reasons == (REASON_TOO_FAST,)
    assert checks["fast"].messages == ("Median response time 300 ms is below 800 ms.",)
    assert checks["careful"].reasons == ()
    assert checks["careful"].median_rt_ms == 2000.0


def test_median_response_time_by_hand() -> None:
    """Median of 100, 200, 900, 1000 ms (practice left out) is 550 ms."""
    judgements = [
        Judgement("p", "x", True, rt_ms=5.0, is_practice=True),
        *(Judgement(f"i{k}", "x", True, "A", rt_ms=t) for k, t in enumerate((100.0, 900.0, 200.0, 1000.0))),
        Judgement("i9", "x", True, "A", rt_ms=None),
    ]
    (check,) = exclude_participants(judgements, OFF).participants
    assert check.median_rt_ms == 550.0


def test_position_bias_rule() -> None:
    """Left on 9 of 10 trials deviates 0.4 from 0.5 (excluded at 0.3); 7 of 10 deviates 0.2."""
    judgements = _trials("biased", items=10, left=9, catch=()) + _trials("fine", items=10, left=7, catch=())
    result = exclude_participants(
        judgements, ExclusionRules(min_catch_accuracy=None, max_left_share_deviation=0.3)
    )
    checks = {p.participant_id: p for p in result.participants}
    assert checks["biased"].reasons == (REASON_POSITION_BIAS,)
    assert checks["biased"].left_share == pytest.approx(0.9)
    assert checks["fine"].reasons == ()
    assert checks["fine"].left_share == pytest.approx(0.7)


def test_min_items_answered_counts_experimental_trials_only() -> None:
    """Catch, filler and practice trials are not items answered."""
    judgements = _trials("short", items=2, fillers=(True,)) + _trials("full", items=4)
    reasons = _reasons(judgements, ExclusionRules(min_catch_accuracy=None, min_items_answered=3))
    assert reasons == {"short": (REASON_TOO_FEW_ITEMS,), "full": ()}


def test_rules_switched_off_exclude_nobody() -> None:
    """With every rule off, a careless participant is still analysed."""
    judgements = _trials("careless", items=1, catch=(False,), rt_ms=50.0, left=1)
    assert _reasons(judgements, OFF) == {"careless": ()}


def test_a_participant_failing_two_rules_counts_under_both_but_once_in_total() -> None:
    """The flow counts reasons per rule and participants once."""
    judgements = _trials("both", catch=(False, True), rt_ms=100.0) + _trials("ok")
    result = exclude_participants(judgements, ExclusionRules(min_median_rt_ms=500))
    assert _reasons(judgements, ExclusionRules(min_median_rt_ms=500))["both"] == (
        REASON_CATCH,
        REASON_TOO_FAST,
    )
    flow = result.flow
    assert (flow.started, flow.completed, flow.checked, flow.excluded, flow.analysed) == (2, 2, 2, 1, 1)
    assert flow.excluded_by_reason[REASON_CATCH] == 1
    assert flow.excluded_by_reason[REASON_TOO_FAST] == 1
    assert flow.excluded_by_reason[REASON_POSITION_BIAS] == 0


def test_incomplete_participants_drop_out_before_the_checks() -> None:
    """A participant who did not complete is not analysed unless the rules include them; they
    count as started but not completed, and not as excluded by a check."""
    judgements = _trials("done") + _trials("left-early", items=1)
    infos = [
        ParticipantInfo("left-early", completed=False),
        ParticipantInfo("never-answered", completed=False),
    ]
    result = exclude_participants(judgements, ExclusionRules(), infos)
    checks = {p.participant_id: p for p in result.participants}
    assert checks["left-early"].reasons == (REASON_INCOMPLETE,)
    assert checks["never-answered"].items_answered == 0
    flow = result.flow
    assert (flow.started, flow.completed, flow.checked, flow.excluded, flow.analysed) == (3, 1, 1, 0, 1)
    assert REASON_INCOMPLETE not in flow.excluded_by_reason
    included = exclude_participants(
        judgements, ExclusionRules(include_incomplete=True, min_items_answered=2), infos
    )
    assert included.analysed_ids == frozenset({"done"})
    assert {p.participant_id: p.reasons for p in included.participants}["left-early"] == (
        REASON_TOO_FEW_ITEMS,
    )
    assert (included.flow.checked, included.flow.excluded, included.flow.analysed) == (3, 2, 1)


def test_flow_per_list() -> None:
    """Counts per list show list balance after exclusion; unknown participants are in list ""."""
    judgements = _trials("a1") + _trials("a2", catch=(False,)) + _trials("b1") + _trials("x")
    infos = [
        ParticipantInfo("a1", list_id="L1"),
        ParticipantInfo("a2", list_id="L1"),
        ParticipantInfo("b1", list_id="L2"),
    ]
    result = exclude_participants(judgements, ExclusionRules(), infos)
    by_list = {f.list_id: (f.started, f.excluded, f.analysed) for f in result.flow_by_list}
    assert by_list == {"": (1, 0, 1), "L1": (2, 1, 1), "L2": (1, 0, 1)}
    assert result.flow.to_dict()["analysed"] == 3


def test_tiny_study_excludes_only_the_participant_with_a_failed_catch_trial() -> None:
    """In the hand-computed study p4 fails catch2; the wrong practice and filler answers of
    everyone else do not matter under the default rules."""
    result = exclude_participants(tiny_judgements())
    assert result.analysed_ids == frozenset({"p1", "p2", "p3"})
    p1 = result.participants[0]
    assert (p1.items_answered, p1.items_correct, p1.filler_total, p1.left_share) == (4, 4, 1, 1.0)


def test_no_judgements_give_an_empty_flow() -> None:
    """Nothing collected yet is zeros, not an error."""
    result = exclude_participants([])
    assert result.participants == ()
    assert (result.flow.started, result.flow.analysed) == (0, 0)
    assert result.flow_by_list == ()


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"min_catch_accuracy": 1.5}, "min_catch_accuracy is a share"),
        ({"min_filler_accuracy": -0.1}, "min_filler_accuracy is a share"),
        ({"max_left_share_deviation": 0.7}, "between 0 and 0.5"),
        ({"min_median_rt_ms": -1}, "cannot be negative"),
        ({"min_items_answered": -2}, "cannot be negative"),
    ],
)
def test_impossible_rules_are_refused_in_words(rules: dict[str, float], message: str) -> None:
    """A rule that cannot be met is an error naming the rule."""
    with pytest.raises(ValueError, match=message):
        ExclusionRules(**rules)  # type: ignore[arg-type]


def test_participant_dict_lists_reasons_and_messages() -> None:
    """The participant dict carries the reason codes and messages as lists, and `excluded`."""
    judgements = _trials("both", catch=(False,), rt_ms=100.0)
    (check,) = exclude_participants(judgements, ExclusionRules(min_median_rt_ms=500)).participants
    row = check.to_dict()
    assert row["reasons"] == ["catch_trials", "too_fast"]
    assert row["messages"] == list(check.messages)
    assert row["excluded"] is True
