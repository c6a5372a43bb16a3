"""Every triplet the real rules make from the demo corpus passes an independent ERRANT re-check:
the three sentences are re-parsed from their text (not from the pipeline's Docs) and ERRANT must
find exactly the learner's edit (learner -> corrected) and exactly one edit of the same type at
another position (artificial -> corrected); every produced word is a real word except for the
INFL types, and the three sentences differ."""

from __future__ import annotations

from pathlib import Path

import pytest

from triplets.annotate import annotator, edits_between, nlp
from triplets.lexicon import is_word
from triplets.pipeline import PipelineResult, Triplet, run_pipeline
from triplets.readers import ParallelColumns, attach_metadata, read_metadata, read_parallel
from triplets.validate import NON_WORD_TYPES

LEARNER_DIR = Path(__file__).resolve().parents[2] / "templates" / "learner"


@pytest.fixture(scope="module")
def demo() -> PipelineResult:
    annotator()
    pairs = read_parallel(
        LEARNER_DIR / "mpp_learner_corpus.tsv", columns=ParallelColumns(pair_id="sentence_id")
    ).pairs
    pairs = attach_metadata(pairs, read_metadata(LEARNER_DIR / "mpp_learner_corpus.meta.tsv")).pairs
    return run_pipeline(pairs)


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    a = a if a[1] > a[0] else (a[0], a[0] + 1)
    b = b if b[1] > b[0] else (b[0], b[0] + 1)
    return a[0] < b[1] and b[0] < a[1]


def _recheck(triplet: Triplet) -> list[str]:
    corrected, learner, artificial = (
        nlp()(t) for t in (triplet.corrected, triplet.learner_error, triplet.artificial_error)
    )
    problems = []
    learner_edits = edits_between(learner, corrected)
    artificial_edits = edits_between(artificial, corrected)
    if [e.type for e in learner_edits] != [triplet.error_type]:
        problems.append(f"learner edits {[e.type for e in learner_edits]}")
    if [e.type for e in artificial_edits] != [triplet.error_type]:
        problems.append(f"artificial edits {[e.type for e in artificial_edits]}")
    elif learner_edits and _overlap(
        (artificial_edits[0].c_start, artificial_edits[0].c_end),
        (learner_edits[0].c_start, learner_edits[0].c_end),
    ):
        problems.append("same position")
    if len({triplet.corrected, triplet.learner_error, triplet.artificial_error}) != 3:
        problems.append("sentences not distinct")
    new_words = [w for w in triplet.artificial_edit.o_str.split() if w.isalpha()]
    if triplet.error_type in NON_WORD_TYPES:
        if not new_words or any(is_word(w) for w in new_words):
            problems.append(f"INFL form is a real word: {new_words}")
    elif any(not is_word(w) for w in new_words):
        problems.append(f"not a word: {new_words}")
    return problems


def test_every_demo_triplet_passes_an_independent_errant_recheck(demo: PipelineResult) -> None:
    assert demo.triplets, demo.report.summary()
    failures = {t.triplet_id: p for t in demo.triplets if (p := _recheck(t))}
    assert failures == {}


def test_demo_triplets_carry_their_metadata(demo: PipelineResult) -> None:
    records = [t.record() for t in demo.triplets]
    assert all(r["L1"] and r["cefr"] and r["learnerID"] and r["corpus"] == "mpp-demo" for r in records)
    assert all(r["artificial_edit"]["rule"] for r in records)
