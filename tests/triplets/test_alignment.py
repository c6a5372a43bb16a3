"""`FastAlignment` gives ERRANT's own alignment: the same cost and operation matrices and the
same cheapest sequence as the stock `errant.alignment.Alignment`, on every pair of the demo and
the learner-length corpus (both directions, linguistic and plain Levenshtein), and the same
sequence on sentences made to test the shortcuts (words doubled, cased, dropped, swapped, at the
start and at the end), and the annotator uses it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from errant.alignment import Alignment

from triplets import alignment
from triplets.alignment import FastAlignment, cheapest_sequence
from triplets.annotate import annotate_pairs, annotator, nlp
from triplets.readers import ParallelColumns, read_parallel

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "templates" / "learner" / "mpp_learner_corpus.tsv"
LONG = ROOT / "bench" / "data" / "learner_long.tsv"


@pytest.mark.parametrize("lev", [False, True])
def test_same_matrices_as_errant_on_the_demo_corpus(lev: bool) -> None:
    annotated = annotate_pairs(read_parallel(CORPUS).pairs)
    assert len(annotated) > 300
    for pair in annotated:
        for orig, cor in ((pair.orig, pair.cor), (pair.cor, pair.orig)):
            fast, stock = FastAlignment(orig, cor, lev), Alignment(orig, cor, lev)
            assert fast.cost_matrix == stock.cost_matrix, pair.pair.pair_id
            assert fast.op_matrix == stock.op_matrix, pair.pair.pair_id
            assert fast.align_seq == stock.align_seq, pair.pair.pair_id


def _changed(words: list[str], rng: random.Random) -> list[str]:
    w = list(words)
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(w))
        kind = rng.randrange(7)
        if kind == 0:
            w.insert(i, w[i])  # "the the"
        elif kind == 1:
            w[i] = w[i].lower() if w[i][:1].isupper() else w[i].capitalize()
        elif kind == 2 and len(w) > 1:
            del w[i]
        elif kind == 3 and i + 1 < len(w):
            w[i], w[i + 1] = w[i + 1], w[i]
        elif kind == 4:
            w.insert(i, rng.choice(["the", "The", "a", "of", ",", "."]))
        elif kind == 5:
            w[i] = rng.choice(["the", "The", "is", "are", "go", "goes"])
        else:
            j = rng.randrange(len(w))
            w[i], w[j] = w[j], w[i]
    return w


def test_same_sequence_as_errant_on_changed_sentences(monkeypatch: pytest.MonkeyPatch) -> None:
    pairs = read_parallel(LONG, columns=ParallelColumns(pair_id="sentence_id")).pairs
    pairs += read_parallel(CORPUS).pairs
    rng = random.Random(3)
    texts = []
    for pair in pairs:
        corrected = pair.corrected or pair.learner
        texts += [pair.learner, corrected, " ".join(_changed(corrected.split(), rng)), corrected]
    docs = list(nlp().pipe(texts))
    backtraces = {"inside": 0, "again from the start": 0}
    original = alignment._backtrace

    def counted(ops: list[list[str]], offset: int, edged: bool) -> list[alignment.Step] | None:
        steps = original(ops, offset, edged)
        if edged:
            backtraces["inside" if steps is not None else "again from the start"] += 1
        return steps

    monkeypatch.setattr(alignment, "_backtrace", counted)
    for k in range(0, len(docs), 2):
        for orig, cor in ((docs[k], docs[k + 1]), (docs[k + 1], docs[k])):
            for lev in (False, True):
                assert cheapest_sequence(orig, cor, lev) == Alignment(orig, cor, lev).align_seq, orig.text
    assert backtraces["inside"] > 1000 and backtraces["again from the start"] > 10, backtraces


def test_the_annotator_aligns_with_it() -> None:
    ann = annotator()
    doc = ann.parse("He go to school .")
    assert isinstance(ann.align(doc, doc), FastAlignment)
    assert cheapest_sequence(doc, doc) == Alignment(doc, doc).align_seq
