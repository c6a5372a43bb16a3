"""The memoised attribute ruler and lemmatizer give every token of the demo and the
learner-length corpus (both sides, running text and M2 tokens) exactly the attributes spaCy's own
pipeline gives it, and the annotator uses them."""

from __future__ import annotations

from pathlib import Path

import spacy
from spacy.tokens import Doc

from triplets.annotate import SPACY_MODEL, nlp
from triplets.readers import ParallelColumns, read_m2, read_parallel

ROOT = Path(__file__).resolve().parents[2]
LEARNER_DIR = ROOT / "templates" / "learner"
LONG = ROOT / "bench" / "data" / "learner_long.tsv"


def _attributes(doc: Doc) -> list[tuple[object, ...]]:
    return [(t.text, t.tag_, t.pos_, str(t.morph), t.lemma_, t.dep_, t.head.i) for t in doc]


def test_every_token_as_the_stock_pipeline_gives_it() -> None:
    ours = nlp()
    assert type(ours.get_pipe("attribute_ruler")).__name__ == "MemoisedAttributeRuler"
    assert type(ours.get_pipe("lemmatizer")).__name__ == "MemoisedLemmatizer"
    stock = spacy.load(SPACY_MODEL, disable=["ner"])
    assert type(stock.get_pipe("attribute_ruler")).__name__ == "AttributeRuler"
    assert type(stock.get_pipe("lemmatizer")).__name__ == "EnglishLemmatizer"
    pairs = read_parallel(LEARNER_DIR / "mpp_learner_corpus.tsv").pairs
    pairs += read_parallel(LONG, columns=ParallelColumns(pair_id="sentence_id")).pairs
    texts = [t for p in pairs for t in (p.learner, p.corrected or "")]
    m2 = read_m2(LEARNER_DIR / "mpp_learner_corpus.m2").pairs
    words = [t.split() for p in m2 for t in (p.learner, p.corrected or "") if t]
    for make in (lambda pipeline: texts, lambda pipeline: [Doc(pipeline.vocab, words=w) for w in words]):
        for _ in range(2):  # the second time from the memos
            mine = list(ours.pipe(make(ours)))
            theirs = list(stock.pipe(make(stock)))
            assert len(mine) == len(theirs) > 600
            for a, b in zip(mine, theirs, strict=True):
                assert _attributes(a) == _attributes(b), a.text
