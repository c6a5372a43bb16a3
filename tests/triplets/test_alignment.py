"""`FastAlignment` gives ERRANT's own alignment: the same cost and operation matrices and the
same cheapest sequence as the stock `errant.alignment.Alignment`, on every pair of the demo
corpus (both directions, linguistic and plain Levenshtein), and the annotator uses it."""

from __future__ import annotations

from pathlib import Path

import pytest
from errant.alignment import Alignment

from triplets.alignment import FastAlignment
from triplets.annotate import annotate_pairs, annotator
from triplets.readers import read_parallel

CORPUS = Path(__file__).resolve().parents[2] / "templates" / "learner" / "mpp_learner_corpus.tsv"


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


def test_the_annotator_aligns_with_it() -> None:
    ann = annotator()
    doc = ann.parse("He go to school .")
    assert isinstance(ann.align(doc, doc), FastAlignment)
