"""Generation: reproducibility, uniqueness policies, capacity, shortfalls, languages, output."""

from __future__ import annotations

import orjson
import pytest

from generator import errors as E
from generator.capacity import Capacity, capacity_bound
from generator.errors import GenerationError
from generator.generate import GenerationStats, Generator
from generator.inflection import inflect
from tests.generator.builders import agreement_template, build, generator_for
from vocab.lexicon import Vocabulary, make_item

HEAD = "uid: gen\nphenomenon: subject_verb_agreement\nlanguage: en\n"

AGREEMENT = agreement_template("gen")


def lines(generator: Generator, n: int, seed: int) -> bytes:
    return b"".join(generator.jsonl_lines(n, seed))


def test_generate_is_byte_identical_for_a_seed(en_vocab: Vocabulary) -> None:
    first = lines(generator_for(AGREEMENT, en_vocab), 40, 11)
    second = lines(generator_for(AGREEMENT, en_vocab), 40, 11)
    assert first == second
    assert lines(generator_for(AGREEMENT, en_vocab), 40, 12) != first


def test_generate_pair_ids_are_deterministic_and_distinct(en_vocab: Vocabulary) -> None:
    records = [orjson.loads(x) for x in lines(generator_for(AGREEMENT, en_vocab), 30, 1).splitlines()]
    assert [r["pairID"] for r in records] == [str(i) for i in range(30)]
    assert len({r["item_id"] for r in records}) == 30


def test_generate_good_sentences_unique_by_default(en_vocab: Vocabulary) -> None:
    pairs = list(generator_for(AGREEMENT, en_vocab).pairs(60, 2))
    assert len({p.good for p in pairs}) == 60
    assert all(p.good != p.bad for p in pairs)


def test_generate_unique_pair_policy_allows_repeated_good(en_vocab: Vocabulary) -> None:
    text = (
        HEAD
        + """\
good:
  - {id: noun, lexical: {pos: NN, animate: "0"}}
bad:
  - {id: other, lexical: {pos: NN, animate: "1"}}
"""
    )
    generator = generator_for(text, en_vocab)
    assert generator.capacity("good").count == 3
    assert generator.capacity("pair").count == 15
    pairs = list(generator.pairs(15, 0, unique="pair"))
    assert len({(p.good, p.bad) for p in pairs}) == 15 and len({p.good for p in pairs}) == 3
    with pytest.raises(GenerationError) as caught:
        list(generator.pairs(4, 0))
    assert caught.value.problem.code == E.E_SHORTFALL
    assert "at most 3 different good sentences" in str(caught.value)


def test_generate_capacity_counts_agreement_exactly(en_vocab: Vocabulary) -> None:
    text = (
        HEAD
        + """\
options: {distinct_words: false}
good:
  - {id: det, lexical: {pos: DT}}
  - {id: adj, lexical: {pos: JJ}}
  - {id: det2, matched: det, on: number, lexical: {pos: DT}}
bad:
  - {same: det}
  - {same: adj}
  - {mismatched: det, on: number, lexical: {pos: DT}}
"""
    )
    capacity = generator_for(text, en_vocab).capacity()
    # det: 4 choices; det2 agrees in number: 2 each; adj: 3 => 24
    assert capacity.count == 24 and capacity.exact and capacity.complete


def test_generate_mismatch_really_disagrees(en_vocab: Vocabulary) -> None:
    text = (
        HEAD
        + """\
good:
  - {id: d1, lexical: {pos: DT}}
  - {id: d2, matched: d1, on: number, lexical: {pos: DT}}
bad:
  - {same: d1}
  - {id: d3, mismatched: d1, on: number, lexical: {pos: DT}}
"""
    )
    number = {"this": "sg", "that": "sg", "these": "pl", "those": "pl"}
    for pair in generator_for(text, en_vocab).pairs(4, 4):
        good, bad = [w.lower() for w in pair.words_good], [w.lower() for w in pair.words_bad]
        assert number[good[0]] == number[good[1]]
        assert number[bad[0]] != number[bad[1]]


def test_generate_capacity_is_exact_under_the_repeated_word_rule(en_vocab: Vocabulary) -> None:
    """Two slots over the same two words: 4 combinations, of which the rule keeps 2."""
    text = (
        HEAD
        + """\
good:
  - {id: a, lexical: {pos: DT, number: sg}}
  - {id: b, lexical: {pos: DT, number: sg}}
bad:
  - {move: b}
  - {same: a}
"""
    )
    generator = generator_for(text, en_vocab)
    capacity = generator.capacity()
    assert capacity.count == 2 and capacity.exact and capacity.describe() == "2"
    assert len(list(generator.pairs(2, 0))) == 2
    with pytest.raises(GenerationError) as caught:
        list(generator.pairs(3, 0))
    assert "can make at most 2 different good sentences" in str(caught.value)


SHORT = (
    HEAD
    + """\
good:
  - {id: noun, lexical: {pos: NN, animate: "0"}}
bad:
  - {id: other, lexical: {pos: NN, animate: "1"}}
"""
)


def test_as_many_as_possible_makes_every_pair_the_capacity_allows_and_says_why_it_stopped(
    en_vocab: Vocabulary,
) -> None:
    generator = generator_for(SHORT, en_vocab)
    stats = GenerationStats()
    made = list(generator.pairs(10, 0, stats=stats, as_many_as_possible=True))
    assert len(made) == 3 == generator.capacity("good").count
    assert stats.short is not None and stats.short.code == E.E_SHORTFALL
    assert "at most 3 different good sentences" in stats.short.message
    # The same pairs as asking for exactly the capacity: the seed decides them, not the count.
    assert [(p.good, p.bad) for p in made] == [(p.good, p.bad) for p in generator.pairs(3, 0)]
    # Enough capacity: the flag changes nothing.
    enough = GenerationStats()
    assert len(list(generator.pairs(2, 0, stats=enough, as_many_as_possible=True))) == 2
    assert enough.short is None


def test_without_as_many_as_possible_a_short_template_makes_nothing(en_vocab: Vocabulary) -> None:
    made: list[object] = []
    with pytest.raises(GenerationError) as caught:
        made.extend(generator_for(SHORT, en_vocab).pairs(10, 0))
    assert caught.value.problem.code == E.E_SHORTFALL and made == []


def test_as_many_as_possible_keeps_what_tries_made_when_they_run_out() -> None:
    items = [
        make_item(id="bat1", form="bat", lemma="bat", pos="NN", features={"animate": "1"}),
        make_item(id="bat2", form="bat", lemma="bat", pos="NN", features={"animate": "1"}),
        make_item(id="red", form="red", pos="JJ", features={"animate": "1"}),
    ]
    text = HEAD + (
        "good:\n  - {id: adj, lexical: {pos: JJ}}\n"
        "  - {id: noun, matched: adj, on: animate, lexical: {pos: NN}}\n"
        "bad:\n  - {move: noun}\n  - {same: adj}\n"
    )
    stats = GenerationStats()
    generator = generator_for(text, Vocabulary(items, name="homographs", language="en"))
    made = list(generator.pairs(5, 0, stats=stats, as_many_as_possible=True))
    assert len(made) == 1
    assert stats.short is not None and "made only 1 of 5 unique pairs" in stats.short.message


def test_generate_shortfall_reports_reasons_when_capacity_overestimates() -> None:
    """Homographs: the count sees two items, the sentences are the same; tries report why."""
    items = [
        make_item(id="bat1", form="bat", lemma="bat", pos="NN", features={"animate": "1"}),
        make_item(id="bat2", form="bat", lemma="bat", pos="NN", features={"animate": "1"}),
        make_item(id="red", form="red", pos="JJ", features={"animate": "1"}),
    ]
    vocabulary = Vocabulary(items, name="homographs", language="en")
    text = (
        HEAD
        + """\
good:
  - {id: adj, lexical: {pos: JJ}}
  - {id: noun, matched: adj, on: animate, lexical: {pos: NN}}
bad:
  - {move: noun}
  - {same: adj}
"""
    )
    generator = generator_for(text, vocabulary)
    assert generator.capacity().count == 2
    with pytest.raises(GenerationError) as caught:
        list(generator.pairs(2, 0))
    message = str(caught.value)
    assert "made only 1 of 2 unique pairs" in message
    assert "the sentence had already been made" in message


def test_generate_max_item_reuse_caps_each_word(en_vocab: Vocabulary) -> None:
    text = AGREEMENT.replace("good:\n", "options: {max_item_reuse: 6}\ngood:\n")
    pairs = list(generator_for(text, en_vocab).pairs(20, 0))
    counts: dict[str, int] = {}
    for pair in pairs:
        for item in set(pair.fillers["good"].values()) | set(pair.fillers["bad"].values()):
            counts[item] = counts.get(item, 0) + 1
    assert max(counts.values()) <= 6


def test_generate_reuse_cap_counts_within_one_run(en_vocab: Vocabulary) -> None:
    # A run that reaches the cap must not leave words removed for the next run on the same
    # generator: the same seed gives the same pairs, and the capacity is that of the template.
    text = AGREEMENT.replace("good:\n", "options: {max_item_reuse: 6}\ngood:\n")
    generator = generator_for(text, en_vocab)
    capacity = generator.capacity().count
    first = [(p.good, p.bad) for p in generator.pairs(20, 0)]
    assert generator.capacity().count == capacity
    assert [(p.good, p.bad) for p in generator.pairs(20, 0)] == first
    assert [(p.good, p.bad) for p in generator_for(text, en_vocab).pairs(20, 0)] == first


def test_generate_reports_exhausted_reuse_cap(en_vocab: Vocabulary) -> None:
    text = AGREEMENT.replace("good:\n", "options: {max_item_reuse: 3}\ngood:\n")
    with pytest.raises(GenerationError) as caught:
        list(generator_for(text, en_vocab).pairs(20, 0))  # 4 determiners x 3 uses = 12 pairs at most
    assert "made only 12 of 20" in str(caught.value)
    assert "a word had reached options.max_item_reuse" in str(caught.value)


def test_generate_english_capitalises_and_attaches_punctuation(en_vocab: Vocabulary) -> None:
    pair = next(generator_for(AGREEMENT, en_vocab).pairs(1, 0))
    assert pair.good[0].isupper() and pair.good.endswith(".") and " ." not in pair.good
    assert pair.words_good[-1] == "."


def test_generate_chinese_has_no_spaces_and_jieba_words(zh_vocab: Vocabulary) -> None:
    template = build("""\
uid: classifier_test
phenomenon: classifier
language: zh
good:
  - {direct: 我买了一}
  - {id: cl, lexical: {pos: M}}
  - {id: noun, matched: cl, on: classifier, lexical: {pos: NN}}
  - {direct: 。}
bad:
  - {same: "1"}
  - {id: cl_bad, mismatched: noun, on: classifier, lexical: {pos: M}}
  - {same: noun}
  - {same: "4"}
""")
    generator = Generator(template, zh_vocab)
    assert generator.capacity().count == 9  # the noun-classifier combinations in the vocabulary
    for pair in generator.pairs(9, 0):
        assert " " not in pair.good and pair.good.startswith("我买了一")
        assert "".join(pair.words_good) == pair.good
        assert pair.words_good[:3] == ("我", "买", "了")  # jieba splits inside the literal
        [(edit, good, bad, _)] = pair.critical_region
        assert edit.type == "substitution" and good.tokens == bad.tokens


def test_generate_record_is_blimp_compatible_with_provenance(en_vocab: Vocabulary) -> None:
    generator = generator_for(AGREEMENT, en_vocab)
    record = orjson.loads(next(generator.jsonl_lines(1, 9)))
    for field in ("sentence_good", "sentence_bad", "UID", "phenomenon", "pairID"):
        assert field in record
    assert isinstance(record["pairID"], str)
    provenance = record["provenance"]
    assert provenance["seed"] == 9 and provenance["vocabulary_version"] == en_vocab.version
    assert provenance["template_version"] == generator.template.content_hash
    assert set(provenance["fillers"]["good"]) == {"det", "noun", "verb"}
    region = record["critical_region"][0]
    assert region["type"] == "substitution" and region["good"]["positions"] == ["verb"]


def test_generate_content_hash_ignores_comments_and_layout(en_vocab: Vocabulary) -> None:
    flowing = build(AGREEMENT)
    commented = build("# a comment\n" + AGREEMENT.replace("good:\n", "good:   # the good grammar\n"))
    changed = build(AGREEMENT.replace("VBZ", "VBD"))
    assert flowing.content_hash == commented.content_hash != changed.content_hash


def test_generate_paradigm_stream_does_not_depend_on_other_paradigms(en_vocab: Vocabulary) -> None:
    a = lines(generator_for(AGREEMENT, en_vocab), 10, 5)
    other = generator_for(AGREEMENT.replace("uid: gen", "uid: other"), en_vocab)
    list(other.pairs(10, 5))
    assert lines(generator_for(AGREEMENT, en_vocab), 10, 5) == a


def test_generate_recursive_phrase_respects_max_depth(en_vocab: Vocabulary) -> None:
    text = (
        HEAD
        + """\
options: {max_depth: 3}
phrases:
  NP:
    - [{direct: the}, {id: head, lexical: {pos: NN}}]
    - [{direct: the}, {id: head, lexical: {pos: NN}}, {direct: near}, {phrase: NP}]
good:
  - {id: subj, phrase: NP}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
bad:
  - {same: subj}
  - {same: verb, form: VBP}
"""
    )
    text = text.replace("options: {max_depth: 3}", "options: {max_depth: 3, distinct_words: false}")
    pairs = list(generator_for(text, en_vocab).pairs(40, 1))
    depths = {p.good.lower().count("near") for p in pairs}
    assert max(depths) <= 2 and len(depths) > 1


@pytest.mark.parametrize(
    ("lemma", "tag", "expected"),
    [
        ("dog", "NNS", "dogs"),
        ("child", "NNS", "children"),
        ("go", "VBD", "went"),
        ("be", "VBZ", "is"),
        ("be", "VBP", "are"),
        ("ice cream", "NNS", "ice creams"),
        ("information", "NNS", None),
        ("advice", "NNS", None),
        ("glorp", "NNS", None),
        ("be", "VBD", None),
    ],
)
def test_inflection_uses_dictionary_forms_only(lemma: str, tag: str, expected: str | None) -> None:
    assert inflect(lemma, tag) == expected


def test_generate_uncapped_positions_do_not_count_towards_reuse_cap(en_vocab: Vocabulary) -> None:
    """Closed-class words marked `uncapped` may repeat; the cap still limits the open classes."""
    text = AGREEMENT.replace("good:\n", "options: {max_item_reuse: 5}\ngood:\n").replace(
        "{id: det, lexical: {pos: DT}}", "{id: det, lexical: {pos: DT}, uncapped: true}"
    )
    pairs = list(generator_for(text, en_vocab).pairs(20, 0))  # 4 verbs x 5 uses = 20
    dets = [p.fillers["good"]["det"] for p in pairs]
    assert max(dets.count(d) for d in set(dets)) > 5
    verbs = [p.fillers["good"]["verb"] for p in pairs]
    assert max(verbs.count(v) for v in set(verbs)) <= 5


def test_generate_reuse_cap_fails_fast_once_no_word_is_left(en_vocab: Vocabulary) -> None:
    text = AGREEMENT.replace("good:\n", "options: {max_item_reuse: 2}\ngood:\n")
    generator = generator_for(text, en_vocab)
    with pytest.raises(GenerationError) as caught:
        list(generator.pairs(100, 0))
    assert "made only 8 of 100" in str(caught.value)  # 4 determiners x 2 uses
    assert "in 2,000 tries" not in str(caught.value)  # it stopped long before the budget


def test_generate_region_narrows_to_the_changed_word_of_a_multiword_item() -> None:
    items = [
        make_item(id="dogs", form="dogs", lemma="dog", pos="NN"),
        make_item(id="sit_down", form="sit down", lemma="sit down", pos="VB"),
    ]
    text = (
        HEAD
        + """\
good:
  - {id: n, lexical: {pos: NN}}
  - {id: v, lexical: {pos: VB}, form: VBP}
  - {direct: "."}
bad:
  - {same: n}
  - {same: v, form: VBZ}
  - {same: "3"}
"""
    )
    pair = next(generator_for(text, Vocabulary(items, name="mw", language="en")).pairs(1, 0))
    assert (pair.good, pair.bad) == ("Dogs sit down.", "Dogs sits down.")
    [(_, good, bad, _)] = pair.critical_region
    assert good.tokens == (1, 2) and pair.bad[bad.chars[0] : bad.chars[1]] == "sits"
    assert good.positions == ("v",)


def test_generate_noun_and_verb_homographs_are_different_words() -> None:
    items = [
        make_item(id="画v", form="画", lemma="画", pos="VV"),
        make_item(id="画n", form="画", lemma="画", pos="NN"),
        make_item(id="幅", form="幅", pos="M"),
        make_item(id="张", form="张", pos="M"),
    ]
    template = build("""\
uid: homograph
phenomenon: classifier
language: zh
good:
  - {direct: 小明}
  - {id: v, lexical: {pos: VV}}
  - {direct: 了一}
  - {id: m, lexical: {pos: M}}
  - {id: n, lexical: {pos: NN}}
bad:
  - {same: "1"}
  - {same: v}
  - {same: "3"}
  - {mismatched: m, on: form, lexical: {pos: M}}
  - {same: n}
""")
    generator = Generator(template, Vocabulary(items, name="zh", language="zh"))
    assert {p.good for p in generator.pairs(2, 0)} == {"小明画了一幅画", "小明画了一张画"}


def test_inflection_overrides_suppletive_and_zero_plurals() -> None:
    assert inflect("person", "NNS") == "people"
    assert inflect("fish", "NNS") is None and inflect("sheep", "NNS") is None


def test_generate_repeated_word_rule_holds_for_positions_matched_on_id() -> None:
    # `b2` is the same word as `b` by design, but `b` must still differ from `a`.
    vocabulary = Vocabulary([make_item(id=w, form=w, pos="NN") for w in ("dog", "cat")], name="v")
    text = """\
        uid: t
        phenomenon: test
        language: en
        good:
          - {id: a, lexical: {pos: NN}}
          - {direct: and}
          - {id: b, lexical: {pos: NN}}
        bad:
          - {same: a}
          - {direct: with}
          - {id: b2, matched: b, on: id, lexical: {pos: NN}}
        """
    generator = generator_for(text, vocabulary)
    assert generator.capacity().count == 2
    assert {p.good for p in generator.pairs(2, 0)} == {"Dog and cat", "Cat and dog"}


def test_generate_substitution_narrowed_to_one_side_is_a_deletion_or_insertion() -> None:
    # "pick up" -> "pick": the region is the word "up", removed; and back again it is added.
    vocabulary = Vocabulary([make_item(id="x", form="x", pos="NN")], name="v")
    text = """\
        uid: t
        phenomenon: test
        language: en
        good:
          - {direct: we}
          - {direct: "%s"}
          - {direct: it}
        bad:
          - {same: "1"}
          - {direct: "%s"}
          - {same: "3"}
        """
    [removed] = generator_for(text % ("pick up", "pick"), vocabulary).pairs(1, 0)
    [added] = generator_for(text % ("pick", "pick up"), vocabulary).pairs(1, 0)
    assert (removed.good, removed.bad, removed.edit_types()) == ("We pick up it", "We pick it", ["deletion"])
    assert added.edit_types() == ["insertion"]
    _, good_span, bad_span, _ = removed.critical_region[0]
    assert (good_span.tokens, bad_span.tokens) == ((2, 3), (2, 2))


@pytest.mark.parametrize(
    ("capacity", "bound"),
    [
        (Capacity(1008, exact=True, complete=True, structures=1), 1008),
        (Capacity(1008, exact=False, complete=True, structures=1), 1008),
        (Capacity(12, exact=True, complete=True, structures=1), 12),
        (Capacity(2_500_000, exact=True, complete=True, structures=3), 2_500_000),
        (Capacity(500, exact=False, complete=False, structures=9), None),  # "at least": no bound
    ],
)
def test_capacity_bound_reads_back_what_describe_writes(capacity: Capacity, bound: int | None) -> None:
    assert capacity_bound(capacity.describe()) == bound


def test_capacity_bound_of_no_count_is_none() -> None:
    assert capacity_bound("") is None and capacity_bound("not counted") is None
