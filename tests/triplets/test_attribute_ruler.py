"""The memoised attribute ruler gives every token of the demo corpus (both sides, running text
and M2 tokens) exactly the attributes spaCy's own pipeline gives it, and the annotator uses it."""

from __future__ import annotations

from pathlib import Path

import spacy
from spacy.tokens import Doc

from triplets.annotate import SPACY_MODEL, nlp
from triplets.readers import read_m2, read_parallel

LEARNER_DIR = Path(__file__).resolve().parents[2] / "templates" / "learner"


def _attributes(doc: Doc) -> list[tuple[object, ...]]:
    return [(t.text, t.tag_, t.pos_, str(t.morph), t.lemma_, t.dep_, t.head.i) for t in doc]


def test_every_token_as_the_stock_pipeline_gives_it() -> None:
    ours = nlp()
    assert type(ours.get_pipe("attribute_ruler")).__name__ == "MemoisedAttributeRuler"
    stock = spacy.load(SPACY_MODEL, disable=["ner"])
    assert type(stock.get_pipe("attribute_ruler")).__name__ == "AttributeRuler"
    pairs = read_parallel(LEARNER_DIR / "mpp_learner_corpus.tsv").pairs
    texts = [t for p in pairs for t in (p.learner, p.corrected or "")]
    m2 = read_m2(LEARNER_DIR / "mpp_learner_corpus.m2").pairs
    words = [t.split() for p in m2 for t in (p.learner, p.corrected or "") if t]
    for make in (lambda pipeline: texts, lambda pipeline: [Doc(pipeline.vocab, words=w) for w in words]):
        mine = list(ours.pipe(make(ours)))
        theirs = list(stock.pipe(make(stock)))
        assert len(mine) == len(theirs) > 600
        for a, b in zip(mine, theirs, strict=True):
            assert _attributes(a) == _attributes(b), a.text
