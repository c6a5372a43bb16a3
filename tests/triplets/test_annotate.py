"""ERRANT annotation of learner pairs: types on hand-written pairs, M2 tokens kept as they are,
agreement with the demo corpus M2 (made by the same ERRANT and spaCy model)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from triplets.annotate import AnnotatedPair, annotate_pairs, annotate_tokens, annotator
from triplets.corpus import LearnerPair
from triplets.readers import ParallelColumns, read_m2, read_parallel

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "templates" / "learner"


@pytest.fixture(scope="module", autouse=True)
def _loaded() -> None:
    annotator()  # one spaCy load for the module (cached for the process)


def _pair(learner: str, corrected: str | None, pair_id: str = "p", tokenised: bool = False) -> LearnerPair:
    return LearnerPair(pair_id, "test.tsv", 1, learner, corrected, edits=() if tokenised else None)


def test_import_does_not_load_spacy() -> None:
    code = "import sys, triplets.annotate; print('spacy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    ("learner", "corrected", "types"),
    [
        ("He go to school.", "He goes to school.", ["R:VERB:SVA"]),
        ("I have two brother.", "I have two brothers.", ["R:NOUN:NUM"]),
        ("My father is engineer.", "My father is an engineer.", ["M:DET"]),
        ("I went to the home.", "I went home.", ["U:OTHER"]),  # merged into one edit
        ("I went to home.", "I went home.", ["U:PREP"]),
        ("She is interesting in music.", "She is interested in music.", ["R:MORPH"]),
        ("I like footbal.", "I like football.", ["R:SPELL"]),
        ("Yesterday I go to the park.", "Yesterday I went to the park.", ["R:VERB:TENSE"]),
        ("There are five people in my family.", "There are five people in my family.", []),
    ],
)
def test_errant_types(learner: str, corrected: str, types: list[str]) -> None:
    [annotated] = annotate_pairs([_pair(learner, corrected)])
    assert sorted(e.type for e in annotated.edits) == sorted(types)


def test_edit_offsets_and_strings() -> None:
    [annotated] = annotate_pairs([_pair("She have two brother .", "She has two brothers .", tokenised=True)])
    assert [(e.o_start, e.o_end, e.c_start, e.c_end, e.o_str, e.c_str, e.type) for e in annotated.edits] == [
        (1, 2, 1, 2, "have", "has", "R:VERB:SVA"),
        (3, 4, 3, 4, "brother", "brothers", "R:NOUN:NUM"),
    ]


def test_m2_tokens_kept_and_text_tokenised() -> None:
    m2, text = annotate_pairs(
        [
            _pair("I dont like it .", "I don't like it .", "m", tokenised=True),
            _pair("I don't like it.", "I don't like it.", "t"),
        ]
    )
    assert m2.orig_tokens == ["I", "dont", "like", "it", "."]
    assert m2.cor_tokens == ["I", "don't", "like", "it", "."]
    assert text.orig_tokens == ["I", "do", "n't", "like", "it", "."]
    assert (m2.tokenised, text.tokenised) == (True, False)


def test_order_kept_and_uncorrected_left_out() -> None:
    pairs = [
        _pair("He go.", "He goes.", "a"),
        _pair("No correction here.", None, "b"),
        _pair("I has.", "I have.", "c"),
    ]
    annotated = annotate_pairs(pairs, batch_size=1)
    assert [a.pair.pair_id for a in annotated] == ["a", "c"]
    assert all(isinstance(a, AnnotatedPair) for a in annotated)


def test_annotate_tokens() -> None:
    edits = annotate_tokens(["He", "go", "to", "school", "."], ["He", "goes", "to", "school", "."])
    assert [(e.o_start, e.type) for e in edits] == [(1, "R:VERB:SVA")]


def test_demo_corpus_agrees_with_its_m2() -> None:
    # The demo M2 was made from the TSV with the same ERRANT and model: the edits must match.
    tsv = read_parallel(CORPUS / "mpp_learner_corpus.tsv", columns=ParallelColumns(pair_id="sentence_id"))
    m2 = read_m2(CORPUS / "mpp_learner_corpus.m2")
    assert not tsv.errors and not m2.errors
    annotated = annotate_pairs(tsv.pairs[:40])
    for ann, gold in zip(annotated, m2.pairs[:40], strict=True):
        assert ann.orig_tokens == gold.learner.split()
        # M2 corrections are space-joined tokens; c_str is the corrected text as written.
        found = [
            (e.o_start, e.o_end, e.type, " ".join(ann.cor_tokens[e.c_start : e.c_end])) for e in ann.edits
        ]
        assert found == [(e.start, e.end, e.type, e.correction) for e in gold.edits or ()], ann.pair.pair_id
