"""Atomisation into single-edit pairs: detokenising, rejected pairs and their reasons, filtered
edits applied, and every produced pair re-checked with ERRANT (exactly one edit, the kept one)."""

from __future__ import annotations

from pathlib import Path

import pytest

from triplets.annotate import annotate_pairs, annotate_tokens, annotator
from triplets.atomise import (
    FILTERED_TYPES,
    NO_EDIT,
    NO_GRAMMATICAL_EDIT,
    SingleEditPair,
    atomise,
    detokenise,
)
from triplets.corpus import LearnerPair
from triplets.readers import ParallelColumns, read_parallel

CORPUS = Path(__file__).resolve().parents[2] / "templates" / "learner" / "mpp_learner_corpus.tsv"


@pytest.fixture(scope="module", autouse=True)
def _loaded() -> None:
    annotator()  # one spaCy load for the module (cached for the process)


def _pair(learner: str, corrected: str, pair_id: str = "p", tokenised: bool = False) -> LearnerPair:
    return LearnerPair(
        pair_id, "t.tsv", 3, learner, corrected, edits=() if tokenised else None, l1="Spanish", cefr="B1"
    )


def _atomise(*pairs: LearnerPair) -> list[SingleEditPair]:
    return atomise(annotate_pairs(pairs)).single_edit_pairs


def _recheck(single: SingleEditPair) -> None:
    """The built learner sentence differs from the correction by exactly the kept edit."""
    edits = annotate_tokens(single.learner_tokens, single.corrected_tokens)
    # Re-parsed from tokens, c_str is space-joined ("grandmother 's"); the kept one is as written.
    found = [(e.type, e.o_start, e.o_end, e.c_str.replace(" ", "")) for e in edits]
    kept = single.edit
    assert found == [(kept.type, kept.start, kept.end, kept.correction.replace(" ", ""))], single.learner


@pytest.mark.parametrize(
    ("tokens", "text"),
    [
        ("He goes to school .", "He goes to school."),
        ("I do n't know , but she ca n't come !", "I don't know, but she can't come!"),
        ("It 's my sister 's book ; we 're happy : yes ?", "It's my sister's book; we're happy: yes?"),
        ('He said " hello " ( twice ) .', 'He said "hello" (twice).'),
        ("", ""),
    ],
)
def test_detokenise(tokens: str, text: str) -> None:
    assert detokenise(tokens.split()) == text


def test_filtered_types() -> None:
    assert {"R:SPELL", "R:ORTH", "M:PUNCT", "U:PUNCT", "R:PUNCT"} == FILTERED_TYPES


def test_rejected_with_reasons() -> None:
    result = atomise(
        annotate_pairs(
            [
                _pair("I like footbal.", "I like football.", "spell"),
                _pair("Yesterday I stayed home", "Yesterday, I stayed home.", "punct"),
                _pair("There are five people in my family.", "There are five people in my family.", "ok"),
                _pair("He go to school.", "He goes to school.", "sva"),
            ]
        )
    )
    assert result.rejected == {NO_GRAMMATICAL_EDIT: 2, NO_EDIT: 1}
    assert [s.pair_id for s in result.single_edit_pairs] == ["sva#1"]
    assert result.filtered_edits["R:SPELL"] == 1
    assert sum(result.filtered_edits[t] for t in ("M:PUNCT", "U:PUNCT", "R:PUNCT")) >= 1


def test_two_errors_make_two_single_edit_pairs() -> None:
    first, second = _atomise(_pair("She have two brother.", "She has two brothers.", "e1-s4"))
    assert (first.pair_id, second.pair_id) == ("e1-s4#1", "e1-s4#2")
    assert first.learner == "She have two brothers."
    assert second.learner == "She has two brother."
    assert first.corrected == second.corrected == "She has two brothers."
    assert (
        first.edit.type,
        first.edit.start,
        first.edit.end,
        first.edit.original,
        first.edit.correction,
    ) == ("R:VERB:SVA", 1, 2, "have", "has")
    assert (second.edit.type, second.edit.original, second.edit.correction) == (
        "R:NOUN:NUM",
        "brother",
        "brothers",
    )
    assert first.all_error_types == second.all_error_types == ("R:VERB:SVA", "R:NOUN:NUM")
    assert first.source.l1 == "Spanish" and first.source.line == 3
    _recheck(first)
    _recheck(second)


def test_filtered_edits_applied_on_learner_side() -> None:
    [single] = _atomise(_pair("Yesterday I hav two brother", "Yesterday, I have two brothers.", "x"))
    assert single.learner == "Yesterday, I have two brother."
    assert single.edit.type == "R:NOUN:NUM"
    assert "R:SPELL" in single.all_error_types
    _recheck(single)


def test_missing_and_extra_words() -> None:
    missing, extra = _atomise(
        _pair("My father is engineer.", "My father is an engineer.", "m"),
        _pair("I went to home yesterday.", "I went home yesterday.", "u"),
    )
    assert missing.learner == "My father is engineer."
    assert (missing.edit.type, missing.edit.start, missing.edit.end, missing.edit.correction) == (
        "M:DET",
        3,
        3,
        "an",
    )
    assert extra.learner == "I went to home yesterday."
    assert (extra.edit.type, extra.edit.start, extra.edit.end, extra.edit.original) == ("U:PREP", 2, 3, "to")
    _recheck(missing)
    _recheck(extra)


def test_a_word_put_back_before_punctuation_keeps_its_space() -> None:
    # Two edits: the second single-edit sentence puts the extra "directly" back before the full
    # stop, where the corrected sentence has no space.
    singles = _atomise(
        _pair(
            "I was very tired, so I went directly to the hotel directly.",
            "I was very tired, so I went to the hotel directly.",
            "d",
        ),
        _pair("He go to the hotel directly.", "He goes to the hotel.", "e"),
    )
    assert [s.learner for s in singles] == [
        "I was very tired, so I went directly to the hotel directly.",
        "He go to the hotel.",
        "He goes to the hotel directly.",
    ]


def test_m2_pair_is_detokenised() -> None:
    first, second = _atomise(
        _pair("He do n't like it 's colour .", "He does n't like its colour .", tokenised=True)
    )
    assert first.corrected == "He doesn't like its colour."
    assert {first.learner, second.learner} == {"He don't like its colour.", "He doesn't like it's colour."}


def test_demo_corpus_pairs_recheck() -> None:
    pairs = read_parallel(CORPUS, columns=ParallelColumns(pair_id="sentence_id")).pairs[:30]
    result = atomise(annotate_pairs(pairs))
    assert result.single_edit_pairs
    assert len(result.single_edit_pairs) + sum(result.rejected.values()) >= len(pairs)
    for single in result.single_edit_pairs:
        _recheck(single)
