"""The critical region: derived edit types, token spans and character offsets in both sentences."""

from __future__ import annotations

from generator.critical_region import template_edits
from generator.generate import Generator
from tests.generator.builders import build, generator_for
from vocab.lexicon import Vocabulary

HEAD = "uid: cr\nphenomenon: test\nlanguage: en\n"


def first_pair(text: str, vocabulary: Vocabulary, seed: int = 0):
    return next(generator_for(HEAD + text, vocabulary).pairs(1, seed))


def test_critical_region_substitution_by_reinflection(en_vocab: Vocabulary) -> None:
    pair = first_pair(
        """\
good:
  - {id: subj, lexical: {pos: NN}}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
  - {direct: "."}
bad:
  - {same: subj}
  - {same: verb, form: VBP}
  - {same: "3"}
""",
        en_vocab,
    )
    [(edit, good, bad, source)] = pair.critical_region
    assert edit.type == "substitution" and source is None
    assert good.tokens == (1, 2) and bad.tokens == (1, 2)
    assert pair.good[good.chars[0] : good.chars[1]].endswith("s")
    assert pair.bad[bad.chars[0] : bad.chars[1]] + "s" == pair.good[good.chars[0] : good.chars[1]]
    assert good.positions == ("verb",)


def test_critical_region_insertion_is_zero_width_in_good(en_vocab: Vocabulary) -> None:
    pair = first_pair(
        """\
good:
  - {id: subj, lexical: {pos: NN}}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
bad:
  - {same: subj}
  - {direct: does}
  - {same: verb}
""",
        en_vocab,
    )
    [(edit, good, bad, _)] = pair.critical_region
    assert edit.type == "insertion"
    assert good.tokens == (1, 1) and good.chars[0] == good.chars[1]
    assert pair.bad[bad.chars[0] : bad.chars[1]] == "does" and bad.tokens == (1, 2)


def test_critical_region_deletion(en_vocab: Vocabulary) -> None:
    pair = first_pair(
        """\
good:
  - {id: subj, lexical: {pos: NN}}
  - {id: adv, direct: quickly}
  - {id: verb, lexical: {pos: VB}, form: VBD}
bad:
  - {same: subj}
  - {delete: adv}
  - {same: verb}
""",
        en_vocab,
    )
    [(edit, good, bad, _)] = pair.critical_region
    assert edit.type == "deletion"
    assert pair.good[good.chars[0] : good.chars[1]] == "quickly" and bad.tokens == (1, 1)


def test_critical_region_move_records_source_and_destination(zh_vocab: Vocabulary) -> None:
    template = build("""\
uid: ba_move
phenomenon: BA
language: zh
good:
  - {id: subj, lexical: {pos: PN}}
  - {id: ba, direct: 把}
  - {id: obj, lexical: {pos: NN}}
  - {id: verb, lexical: {pos: VV}}
  - {direct: 了}
bad:
  - {same: subj}
  - {same: ba}
  - {same: verb}
  - {move: obj}
  - {same: "5"}
""")
    pair = next(Generator(template, zh_vocab).pairs(1, 3))
    [(edit, good, bad, source)] = pair.critical_region
    assert edit.type == "move"
    noun = pair.good[good.chars[0] : good.chars[1]]
    assert pair.bad[bad.chars[0] : bad.chars[1]] == noun and source is not None
    assert pair.good.replace(noun, "", 1) == pair.bad.replace(noun, "", 1)
    assert " " not in pair.good  # Chinese has no spaces


def test_critical_region_copy(en_vocab: Vocabulary) -> None:
    pair = first_pair(
        """\
good:
  - {id: subj, lexical: {pos: NN}}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
bad:
  - {same: subj}
  - {copy: subj}
  - {same: verb}
""",
        en_vocab,
    )
    [(edit, good, _bad, source)] = pair.critical_region
    assert edit.type == "copy" and good.tokens[0] == good.tokens[1]
    assert source is not None and source.tokens == (0, 1)
    assert pair.words_bad[1].lower() == pair.words_good[0].lower()


def test_critical_region_substitution_facing_dropped_position(en_vocab: Vocabulary) -> None:
    template = build(
        HEAD
        + """\
good:
  - {id: det, direct: this}
  - {id: noun, lexical: {pos: NN}}
bad:
  - {id: det_bad, direct: these}
  - {same: noun}
"""
    )
    edits, problems = template_edits(template)
    assert not problems
    assert [(e.type, e.good, e.bad) for e in edits] == [("substitution", (0,), (0,))]


def test_critical_region_drops_unchanged_substitutions(en_vocab: Vocabulary) -> None:
    """A substitution whose new word happens to equal the old one is not part of the region."""
    generator = generator_for(
        HEAD
        + """\
good:
  - {id: det, direct: [the, a]}
  - {id: noun, lexical: {pos: NN}}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
bad:
  - {id: det2, direct: [the, a]}
  - {same: noun}
  - {same: verb, form: VBP}
""",
        en_vocab,
    )
    for pair in generator.pairs(12, 5):
        for _edit, good, bad, _ in pair.critical_region:
            assert (
                pair.words_good[good.tokens[0] : good.tokens[1]]
                != pair.words_bad[bad.tokens[0] : bad.tokens[1]]
            )
