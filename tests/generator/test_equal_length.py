"""The equal-length option (issue 17): parsing, generation, capacity and validation."""

from __future__ import annotations

import itertools

import pytest

from generator import errors as E
from generator.errors import GenerationError, TemplateError
from generator.generate import REJECTION_WORDS, GenerationStats
from tests.generator.builders import SCHEMA, build, generator_for
from vocab.lexicon import Vocabulary, make_item

HEAD = "uid: eq\nphenomenon: test\nlanguage: en\n"

# A good inanimate noun, a bad animate one (never the same word), after one of two determiners.
SUBSTITUTION = """\
good:
  - {id: det, lexical: {pos: DT, number: sg}}
  - {id: noun, lexical: {pos: NN, animate: "0"}}
bad:
  - {same: det}
  - {id: other, lexical: {pos: NN, animate: "1"}}
"""


def nouns(vocabulary: Vocabulary, animate: str) -> list[str]:
    return [i.form for i in vocabulary.items if i.pos == "NN" and i.features["animate"] == (animate,)]


def with_options(options: str, grammars: str = SUBSTITUTION) -> str:
    return f"{HEAD}options: {{{options}}}\n{grammars}"


@pytest.mark.parametrize(
    ("written", "parsed"),
    [("characters", "characters"), ("words", "words"), ("Words", "words"), ("false", None), ("no", None)],
)
def test_equal_length_option_is_parsed(written: str, parsed: str | None) -> None:
    """`equal_length` takes characters, words or false (off)."""
    assert build(with_options(f"equal_length: {written}")).options.equal_length == parsed


def test_equal_length_is_off_by_default() -> None:
    """Without the option nothing constrains the lengths."""
    assert build(HEAD + SUBSTITUTION).options.equal_length is None


@pytest.mark.parametrize("written", ["true", "chars", "1", "[characters]"])
def test_equal_length_option_refuses_other_values_naming_its_line(written: str) -> None:
    """Any other value is an E_FIELD problem on the option's line, keyed to `options`."""
    text = f"{HEAD}options:\n  unique: pair\n  equal_length: {written}\n{SUBSTITUTION}"
    with pytest.raises(TemplateError) as caught:
        build(text)
    (problem,) = caught.value.problems
    assert (problem.code, problem.line, problem.key) == (E.E_FIELD, 6, "options")
    assert "equal_length" in problem.message


def test_equal_length_changes_the_content_hash() -> None:
    """The option is part of the template's content hash, as every option is."""
    hashes = {
        build(with_options(f"equal_length: {mode}")).content_hash for mode in ("characters", "words")
    } | {build(HEAD + SUBSTITUTION).content_hash}
    assert len(hashes) == 3


def test_equal_length_characters_makes_only_equally_long_pairs(en_vocab: Vocabulary) -> None:
    """Every pair has good and bad of the same number of characters (without the option most
    pairs of this template differ)."""
    free = list(generator_for(with_options("unique: pair"), en_vocab).pairs(30, 4))
    assert any(len(p.good) != len(p.bad) for p in free)
    pairs = list(generator_for(with_options("unique: pair, equal_length: characters"), en_vocab).pairs(10, 4))
    assert len(pairs) == 10 and all(len(p.good) == len(p.bad) for p in pairs)


def test_equal_length_capacity_equals_the_balanced_pairs(en_vocab: Vocabulary) -> None:
    """Under `unique: pair` the capacity is exactly the number of balanced (good noun, bad noun)
    combinations, and generation makes that many distinct pairs and no more."""
    good_nouns, bad_nouns = nouns(en_vocab, "0"), nouns(en_vocab, "1")
    assert len({len(n) for n in good_nouns + bad_nouns}) > 1  # some lengths differ
    determiners = 2  # this, that
    expected = determiners * sum(1 for g, b in itertools.product(good_nouns, bad_nouns) if len(g) == len(b))
    generator = generator_for(with_options("unique: pair, equal_length: characters"), en_vocab)
    capacity = generator.capacity()
    assert (capacity.count, capacity.exact) == (expected, True)
    assert expected < determiners * len(good_nouns) * len(bad_nouns)
    made = list(generator.pairs(expected + 5, 0, as_many_as_possible=True))
    assert len({(p.good, p.bad) for p in made}) == len(made) == expected


def test_equal_length_capacity_of_good_sentences_counts_those_with_a_balanced_bad(
    en_vocab: Vocabulary,
) -> None:
    """Under `unique: good` a good sentence counts when some bad sentence balances it."""
    bad_lengths = {len(b) for b in nouns(en_vocab, "1")}
    expected = 2 * sum(1 for g in nouns(en_vocab, "0") if len(g) in bad_lengths)
    generator = generator_for(with_options("equal_length: characters"), en_vocab)
    capacity = generator.capacity()
    assert (capacity.count, capacity.exact) == (expected, True)
    made = list(generator.pairs(expected + 5, 0, as_many_as_possible=True))
    assert len({p.good for p in made}) == len(made) == expected


def test_equal_length_words_counts_word_tokens() -> None:
    """`words` compares token counts: a two-word food balances `very much`, a one-word one `so`."""
    items = [
        make_item(id="tea", form="tea", pos="NN", schema=SCHEMA),
        make_item(id="ice_cream", form="ice cream", pos="NN", schema=SCHEMA),
        make_item(id="hot_dog", form="hot dog", pos="NN", schema=SCHEMA),
    ]
    vocabulary = Vocabulary(items, SCHEMA, name="food", language="en")
    grammars = """\
good:
  - {direct: I}
  - {direct: like}
  - {id: food, lexical: {pos: NN}}
bad:
  - {same: "1"}
  - {same: "2"}
  - {direct: [very much, so]}
"""
    generator = generator_for(with_options("unique: pair, equal_length: words", grammars), vocabulary)
    capacity = generator.capacity()
    assert (capacity.count, capacity.exact) == (3, True)
    pairs = list(generator.pairs(3, 1))
    assert {(p.good, p.bad) for p in pairs} == {
        ("I like tea", "I like so"),
        ("I like ice cream", "I like very much"),
        ("I like hot dog", "I like very much"),
    }
    assert all(len(p.words_good) == len(p.words_bad) for p in pairs)


def test_equal_length_counts_chinese_characters(zh_vocab: Vocabulary) -> None:
    """Chinese sentences balance in characters: a one-character noun against a one-character one."""
    grammars = """\
good:
  - {direct: 我}
  - {direct: 买}
  - {id: noun, lexical: {pos: NN}}
bad:
  - {same: "1"}
  - {same: "2"}
  - {direct: 了}
  - {same: noun}
"""
    text = "uid: zh_eq\nphenomenon: test\nlanguage: zh\noptions: {unique: pair, equal_length: characters}\n"
    # The bad sentence adds 了, so no pair can balance: reported when the template is checked.
    with pytest.raises(TemplateError) as caught:
        generator_for(text + grammars, zh_vocab)
    (problem,) = caught.value.problems
    assert (problem.code, problem.line, problem.key) == (E.E_UNEQUAL_LENGTH, 4, "options")
    assert "bad.3" in problem.message


def test_equal_length_validation_reports_an_inserted_literal_nothing_can_balance(
    en_vocab: Vocabulary,
) -> None:
    """A bad grammar that only inserts a word can never be as long as the good one."""
    grammars = """\
good:
  - {id: noun, lexical: {pos: NN}}
  - {direct: sleeps}
bad:
  - {same: noun}
  - {direct: not}
  - {same: "2"}
"""
    for mode in ("characters", "words"):
        with pytest.raises(TemplateError) as caught:
            generator_for(with_options(f"equal_length: {mode}", grammars), en_vocab)
        assert [(p.code, p.line) for p in caught.value.problems] == [(E.E_UNEQUAL_LENGTH, 4)]
    # An insertion a shorter bad noun can balance passes validation.
    balanced = grammars.replace("  - {same: noun}\n", "  - {lexical: {pos: NN}}\n", 1)
    generator = generator_for(with_options("unique: pair, equal_length: characters", balanced), en_vocab)
    assert all(len(p.good) == len(p.bad) for p in generator.pairs(4, 0))


def test_equal_length_ruled_out_by_agreement_is_a_shortfall_naming_the_option() -> None:
    """When only agreement rules every balanced pair out (the good determiner agrees with the
    noun, the bad one does not, and their lengths differ by number), validation passes and
    generation reports E_SHORTFALL naming the option (the capacity is exactly 0)."""
    items = [
        make_item(id="dog", form="dog", pos="NN", features={"number": "sg"}, schema=SCHEMA),
        make_item(id="cats", form="cats", pos="NN", features={"number": "pl"}, schema=SCHEMA),
        make_item(id="this", form="this", pos="DT", features={"number": "sg"}, schema=SCHEMA),
        make_item(id="these", form="these", pos="DT", features={"number": "pl"}, schema=SCHEMA),
    ]
    vocabulary = Vocabulary(items, SCHEMA, name="dets", language="en")
    grammars = """\
good:
  - {id: det, matched: noun, on: number, lexical: {pos: DT}}
  - {id: noun, lexical: {pos: NN}}
bad:
  - {mismatched: noun, on: number, lexical: {pos: DT}}
  - {same: noun}
"""
    generator = generator_for(with_options("equal_length: characters", grammars), vocabulary)
    capacity = generator.capacity()
    assert (capacity.count, capacity.exact) == (0, True)
    with pytest.raises(GenerationError) as caught:
        list(generator.pairs(1, 0))
    assert caught.value.problem.code == E.E_SHORTFALL
    assert "options.equal_length" in caught.value.problem.message


def test_equal_length_rejections_are_named_in_a_shortfall(en_vocab: Vocabulary) -> None:
    """Where the lengths are not a sum over positions (a bracket joins the next word) the capacity
    is an upper bound, and a run that runs out of tries names unequal lengths among the reasons."""
    grammars = """\
good:
  - {direct: "("}
  - {id: noun, lexical: {pos: NN, animate: "0"}}
  - {direct: ")"}
bad:
  - {same: "1"}
  - {id: other, lexical: {pos: NN, animate: "1"}}
  - {same: "3"}
"""
    generator = generator_for(
        with_options("unique: pair, equal_length: characters, attempts_per_pair: 1", grammars), en_vocab
    )
    capacity = generator.capacity()
    assert not capacity.exact and capacity.count == 15  # every combination: an upper bound
    stats = GenerationStats()
    made = list(generator.pairs(15, 0, stats=stats, as_many_as_possible=True))
    assert all(len(p.good) == len(p.bad) for p in made)
    assert stats.rejected["unequal_length"] > 0
    assert stats.short is not None and stats.short.code == E.E_SHORTFALL
    assert REJECTION_WORDS["unequal_length"] in stats.short.message


def test_equal_length_is_exact_without_the_option_unchanged(en_vocab: Vocabulary) -> None:
    """Switching the option off (false) counts as the template without it."""
    off = generator_for(with_options("unique: pair, equal_length: false"), en_vocab).capacity()
    plain = generator_for(with_options("unique: pair"), en_vocab).capacity()
    assert (off.count, off.exact) == (plain.count, plain.exact) == (30, True)


def test_equal_length_capacity_is_exact_when_the_bad_word_agrees_with_a_good_one(
    en_vocab: Vocabulary,
) -> None:
    """A bad noun linked to the good noun (other animacy) lies outside `unique: good`; a good
    sentence counts when a linked bad noun of its length exists, and the count is exact."""
    grammars = """\
good:
  - {id: det, lexical: {pos: DT, number: sg}}
  - {id: noun, lexical: {pos: NN}}
bad:
  - {same: det}
  - {mismatched: noun, on: animate, lexical: {pos: NN}}
"""
    items = [i for i in en_vocab.items if i.pos == "NN"]
    expected = 2 * sum(
        1
        for g in items
        if any(b.features["animate"] != g.features["animate"] and len(b.form) == len(g.form) for b in items)
    )
    generator = generator_for(with_options("equal_length: characters", grammars), en_vocab)
    capacity = generator.capacity()
    assert (capacity.count, capacity.exact) == (expected, True)
    assert 0 < expected < 2 * len(items)
    made = list(generator.pairs(expected + 5, 0, as_many_as_possible=True))
    assert len({p.good for p in made}) == len(made) == expected
    assert all(len(p.good) == len(p.bad) for p in made)
