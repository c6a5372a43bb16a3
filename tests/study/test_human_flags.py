"""Flags: paradigm presets and thresholds, split or majority-wrong items, and words that recur in
disagreeing items, shrunk towards the study's accuracy (tiny study worked out by hand)."""

from __future__ import annotations

import pytest
from scipy.stats import beta

from study.agreement import ItemInfo, Judgement, WordUse, agreement_with_gold, analysed_responses
from study.human_flags import (
    BLIMP_RULE,
    ITEM_MAJORITY_DISAGREES,
    ITEM_SPLIT,
    ITEM_TIE,
    ZHOBLIMP_RULE,
    FlagSettings,
    ParadigmRule,
    flag_items,
    flag_paradigms,
    paradigm_preset,
    word_agreement,
)
from tests.study.tiny_study import tiny_items, tiny_judgements

GOLD = agreement_with_gold(
    analysed_responses(tiny_judgements(), frozenset({"p1", "p2", "p3"})), bootstrap_resamples=0
)
PRIOR = 7 / 11  # the tiny study's individual accuracy


def _paradigm(outcomes: list[tuple[int, int]], name: str = "P") -> list[Judgement]:
    """Return judgements of one paradigm whose items have the given (correct, n) counts."""
    return [
        Judgement(f"{name}{k}", f"r{j}", j < correct, name, "X")
        for k, (correct, n) in enumerate(outcomes)
        for j in range(n)
    ]


def test_zhoblimp_preset_flags_micro_accuracy_below_0_70() -> None:
    """Paradigm B (2 of 5 = 0.4) is flagged with its disagreeing items; A (5/6) is not."""
    (flag,) = flag_paradigms(GOLD.paradigms, GOLD.items, FlagSettings())
    assert (flag.paradigm, flag.phenomenon, flag.rules) == ("B", "X", ("ZhoBLiMP",))
    assert flag.messages == (
        "Micro accuracy is 40.0% (2 of 5 responses chose the gold sentence), below 70% (ZhoBLiMP).",
    )
    assert flag.disagreeing_item_ids == ("i3", "i4")


def test_zhoblimp_threshold_boundary() -> None:
    """0.70 exactly passes (kept); 0.68 fails, as ZhoBLiMP's excluded paradigms (acc <= 0.682)."""
    kept = agreement_with_gold(_paradigm([(7, 10)]), bootstrap_resamples=0)
    dropped = agreement_with_gold(_paradigm([(15, 22)]), bootstrap_resamples=0)
    settings = FlagSettings(paradigm_rules=(ZHOBLIMP_RULE,))
    assert flag_paradigms(kept.paradigms, kept.items, settings) == ()
    assert len(flag_paradigms(dropped.paradigms, dropped.items, settings)) == 1


def test_blimp_preset_needs_the_majority_on_4_of_5_items() -> None:
    """4 of 5 majority-correct items pass; 3 of 5 fail; a tie (3.5 of 5 under "half") fails."""
    settings = FlagSettings(paradigm_rules=(BLIMP_RULE,))
    four = agreement_with_gold(_paradigm([(3, 5)] * 4 + [(1, 5)]), bootstrap_resamples=0)
    three = agreement_with_gold(_paradigm([(3, 5)] * 3 + [(1, 5)] * 2), bootstrap_resamples=0)
    tie = agreement_with_gold(_paradigm([(3, 4)] * 3 + [(2, 4), (0, 4)]), bootstrap_resamples=0)
    assert flag_paradigms(four.paradigms, four.items, settings) == ()
    (flag,) = flag_paradigms(three.paradigms, three.items, settings)
    assert flag.messages == ("The majority sided with gold on 3 of 5 items (60%), below 80% (BLiMP).",)
    (tie_flag,) = flag_paradigms(tie.paradigms, tie.items, settings)
    assert "3.5 of 5 items" in tie_flag.messages[0]


def test_presets_take_the_researchers_threshold() -> None:
    """A preset with another value keeps its metric; unknown presets and metrics are refused."""
    assert paradigm_preset("blimp", 0.6) == ParadigmRule("majority_share", 0.6, "BLiMP")
    assert paradigm_preset("zhoblimp") is ZHOBLIMP_RULE
    relaxed = FlagSettings(paradigm_rules=(paradigm_preset("zhoblimp", 0.35),))
    assert flag_paradigms(GOLD.paradigms, GOLD.items, relaxed) == ()
    with pytest.raises(ValueError, match="zhoblimp, blimp"):
        paradigm_preset("climp")
    with pytest.raises(ValueError, match="unknown paradigm metric"):
        ParadigmRule("median", 0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="between 0 and 1"):
        ParadigmRule("micro", 70)


def test_macro_rule_and_several_rules_at_once() -> None:
    """Paradigm B: macro 5/12 < 0.5 and majority share 0.25 < 0.8; both rules are named."""
    settings = FlagSettings(paradigm_rules=(ParadigmRule("macro", 0.5), BLIMP_RULE))
    (flag,) = flag_paradigms(GOLD.paradigms, GOLD.items, settings)
    assert flag.rules == ("macro", "BLiMP")
    assert flag.messages[0] == "Mean item accuracy is 41.7%, below 50%."


def test_chance_rule_uses_holm_adjusted_p_values() -> None:
    """Paradigm A's raw p is 7/64 and Holm's 14/64: not below 0.2 after correction, so flagged
    as not above chance even though its accuracy passes the threshold."""
    settings = FlagSettings(paradigm_rules=(), chance_alpha=0.2)
    flags = {f.paradigm: f for f in flag_paradigms(GOLD.paradigms, GOLD.items, settings)}
    assert set(flags) == {"A", "B"}
    assert flags["A"].rules == ("chance",)
    assert "0.219 after Holm" in flags["A"].messages[0]
    assert (
        flag_paradigms(GOLD.paradigms, GOLD.items, FlagSettings(paradigm_rules=(), chance_alpha=0.25))[
            0
        ].paradigm
        == "B"
    )


def test_items_flagged_for_majority_tie_and_split() -> None:
    """i1 (3/3) is clean; i2 (2/3) splits (P_i 1/3); i3 (1/3) has the majority against gold and
    splits; i4 (1/2) ties and splits (P_i 0). Words come from the item's provenance."""
    flags = {f.item_id: f for f in flag_items(GOLD.items, tiny_items(), FlagSettings())}
    assert set(flags) == {"i2", "i3", "i4"}
    assert flags["i2"].reasons == (ITEM_SPLIT,)
    assert flags["i3"].reasons == (ITEM_MAJORITY_DISAGREES, ITEM_SPLIT)
    assert (
        flags["i3"].messages[0] == "The majority chose the other sentence (1 of 3 chose the gold sentence)."
    )
    assert flags["i4"].reasons == (ITEM_TIE, ITEM_SPLIT)
    assert flags["i4"].words == (WordUse("N1", "gnu"), WordUse("V", "runs"))
    off = flag_items(GOLD.items, tiny_items(), FlagSettings(min_item_agreement=None))
    assert [f.item_id for f in off] == ["i3", "i4"]


def test_a_word_in_two_disagreeing_items_is_flagged_and_one_in_agreeing_items_is_not() -> None:
    """'gnu' (N1) fills i3 and i4, both disagreeing: 2 of 5 chose gold, shrunk with a prior
    worth 10 responses at 7/11: (2 + 70/11) / 15 = 92/165 = 0.558 < 0.70. 'dog' fills only
    agreeing items; 'sleeps' and 'runs' are each in one disagreeing item."""
    words = {(w.position, w.word): w for w in word_agreement(GOLD.items, tiny_items(), PRIOR, FlagSettings())}
    gnu = words[("N1", "gnu")]
    assert gnu.flagged
    assert (gnu.correct, gnu.n, gnu.item_ids, gnu.disagreeing_item_ids) == (2, 5, ("i3", "i4"), ("i3", "i4"))
    assert gnu.paradigms == ("B",)
    assert gnu.accuracy == pytest.approx(0.4)
    assert gnu.shrunk_accuracy == pytest.approx(92 / 165)
    assert gnu.p_below_threshold == pytest.approx(beta.cdf(0.7, 2 + 70 / 11, 3 + 40 / 11))
    assert "'gnu' at position N1" in gnu.message and "i3, i4" in gnu.message and "paradigm B" in gnu.message
    dog = words[("N1", "dog")]
    assert (dog.flagged, dog.correct, dog.n, dog.disagreeing_item_ids, dog.message) == (False, 5, 6, (), "")
    assert not words[("V", "sleeps")].flagged
    assert words[("V", "runs")].disagreeing_item_ids == ("i4",)
    assert next(iter(words)) == ("N1", "gnu")  # flagged words come first


def test_a_word_above_the_threshold_after_shrinking_is_not_flagged() -> None:
    """At threshold 0.5, 'gnu' (0.558 shrunk) passes although its raw accuracy is 0.4; without
    a prior (strength 0) the raw 0.4 is used and it is flagged again."""
    words = word_agreement(GOLD.items, tiny_items(), PRIOR, FlagSettings(word_threshold=0.5))
    assert not any(w.flagged for w in words)
    raw = word_agreement(GOLD.items, tiny_items(), PRIOR, FlagSettings(word_threshold=0.5, prior_strength=0))
    (gnu,) = [w for w in raw if w.flagged]
    assert (gnu.word, gnu.shrunk_accuracy) == ("gnu", pytest.approx(0.4))


def test_min_disagreeing_items_is_settable() -> None:
    """With one disagreeing item enough, 'runs' (3 of 5, shrunk (3 + 70/11) / 15 = 0.624) is
    flagged too; 'sleeps' (4 of 6, shrunk (4 + 70/11) / 16 = 0.648) also."""
    words = word_agreement(GOLD.items, tiny_items(), PRIOR, FlagSettings(min_disagreeing_items=1))
    flagged = {(w.position, w.word): w.shrunk_accuracy for w in words if w.flagged}
    assert flagged == {
        ("N1", "gnu"): pytest.approx(92 / 165),
        ("V", "runs"): pytest.approx((3 + 70 / 11) / 15),
        ("V", "sleeps"): pytest.approx((4 + 70 / 11) / 16),
    }


def test_words_pool_items_across_paradigms_and_skip_items_without_responses() -> None:
    """A word shared by items of two paradigms names both; an item nobody answered adds nothing."""
    items = [*tiny_items(), ItemInfo("i9", "C", "X", (WordUse("N1", "gnu"),))]
    shared = [*items[:2], ItemInfo("i3", "B", "X", (WordUse("N1", "dog"), WordUse("N1", "dog")))]
    words = {(w.position, w.word): w for w in word_agreement(GOLD.items, items, PRIOR, FlagSettings())}
    assert words[("N1", "gnu")].item_ids == ("i3", "i4")
    pooled = {(w.position, w.word): w for w in word_agreement(GOLD.items, shared, PRIOR, FlagSettings())}
    dog = pooled[("N1", "dog")]
    assert (dog.paradigms, dog.item_ids, dog.n) == (("A", "B"), ("i1", "i2", "i3"), 9)
    loose = FlagSettings(min_disagreeing_items=1)  # dog: (6 + 70/11) / 19 = 0.651 < 0.70
    (flagged,) = [w for w in word_agreement(GOLD.items, shared, PRIOR, loose) if w.word == "dog"]
    assert flagged.flagged and "(i3; paradigms A, B)" in flagged.message


def test_no_items_no_flags() -> None:
    """An empty study flags nothing."""
    empty = agreement_with_gold([])
    assert flag_paradigms(empty.paradigms, empty.items, FlagSettings()) == ()
    assert flag_items(empty.items, tiny_items(), FlagSettings()) == ()
    assert word_agreement(empty.items, tiny_items(), 0.5, FlagSettings()) == ()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"chance_alpha": 0.0}, "chance_alpha"),
        ({"word_threshold": 1.2}, "word_threshold"),
        ({"prior_strength": -1.0}, "prior_strength"),
        ({"min_disagreeing_items": 0}, "min_disagreeing_items"),
    ],
)
def test_impossible_flag_settings_are_refused(settings: dict[str, float], message: str) -> None:
    """Settings that cannot work are errors naming the setting."""
    with pytest.raises(ValueError, match=message):
        FlagSettings(**settings)  # type: ignore[arg-type]
