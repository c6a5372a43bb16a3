"""Parsing near the corrected sentence (`triplets/incremental.py`) gives the tok2vec component's
own vectors, bit for bit, on the sentences the pipeline derives from a corrected sentence (the
learner's, each single-edit learner sentence, artificial sentences), and the pipeline's triplets
and yield report are the same with and without it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from triplets import annotate
from triplets.atomise import atomise
from triplets.corpus import LearnerPair
from triplets.incremental import Encoder
from triplets.pipeline import TripletSettings, run_pipeline
from triplets.readers import ParallelColumns, read_m2, read_parallel

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "templates" / "learner" / "mpp_learner_corpus.tsv"
DEMO_M2 = ROOT / "templates" / "learner" / "mpp_learner_corpus.m2"
LONG = ROOT / "bench" / "data" / "learner_long.tsv"


def _pairs(path: Path) -> list[LearnerPair]:
    return read_parallel(path, columns=ParallelColumns(pair_id="sentence_id")).pairs


def _variants(text: str, rng: random.Random) -> list[str]:
    """A word replaced, inserted, deleted, two swapped; at the start and at the end too."""
    words = text.split()
    out = []
    for _ in range(4):
        w = list(words)
        i = rng.randrange(len(w))
        kind = rng.randrange(5)
        if kind == 0:
            w[i] = rng.choice(["the", "goes", "went", "of", "at", "peoples", ","])
        elif kind == 1:
            w.insert(i, rng.choice(["the", "a", "very", "to"]))
        elif kind == 2 and len(w) > 1:
            del w[i]
        elif kind == 3 and i + 1 < len(w):
            w[i], w[i + 1] = w[i + 1], w[i]
        else:
            w = [*w[1:], "too"] if len(w) > 1 else w
        out.append(" ".join(w))
    return out


def test_the_annotator_parses_near() -> None:
    language = annotate.nlp()
    found = Encoder.of(language)
    assert found is not None and found.depth == 4 and found.pad >= found.depth
    assert found.selfcheck(language)
    assert annotate.encoder() is not None


@pytest.mark.parametrize("path", [DEMO, LONG])
def test_the_component_s_own_vectors(path: Path) -> None:
    language = annotate.nlp()
    component = language.get_pipe("tok2vec")
    found = annotate.encoder()
    assert found is not None
    pairs = [p for p in _pairs(path) if p.corrected]
    rng = random.Random(7)
    bases = [language.make_doc(p.corrected or "") for p in pairs]
    layers = found.full(bases)
    derived, of = [], []
    for i, pair in enumerate(pairs):
        for text in [pair.learner, *_variants(pair.corrected or "", rng)]:
            derived.append(language.make_doc(text))
            of.append(layers[i])
    found.near(derived, of)
    expected = component.predict(bases) + component.predict(derived)
    got = [d.tensor for d in bases + derived]
    assert len(got) > 1000
    for doc, a, b in zip(bases + derived, expected, got, strict=True):
        assert a.shape == b.shape and np.array_equal(a, b), doc.text


def test_single_edit_learner_sentences_and_m2_tokens() -> None:
    # The re-check's sentences (built from tokens and their whitespace), read from M2 too.
    from spacy.tokens import Doc

    language = annotate.nlp()
    component = language.get_pipe("tok2vec")
    found = annotate.encoder()
    assert found is not None
    pairs = read_m2(DEMO_M2).pairs + _pairs(LONG)[:120]
    singles = atomise(annotate.annotate_pairs(pairs)).single_edit_pairs
    assert len(singles) > 300
    docs = [
        Doc(language.vocab, words=list(s.learner_tokens), spaces=[bool(w) for w in s.learner_whitespace])
        for s in singles
    ]
    bases = [s.annotated.cor_layers if s.annotated else None for s in singles]
    assert all(b is not None for b in bases)
    annotate.parse_near(docs, bases)
    for doc, expected in zip(docs, component.predict(docs), strict=True):
        assert np.array_equal(doc.tensor, expected), doc.text


def _records(pairs: list[LearnerPair], settings: TripletSettings) -> tuple[list[str], str]:
    result = run_pipeline(pairs, settings)
    records = [json.dumps(t.record(), sort_keys=True) for t in result.triplets]
    return records, json.dumps(result.report.to_dict(), sort_keys=True)


@pytest.mark.parametrize("strict", [True, False])
def test_same_triplets_and_report_as_the_stock_parse(strict: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    pairs = _pairs(DEMO) + _pairs(LONG)[:150] + read_m2(DEMO_M2).pairs[:150]
    settings = TripletSettings(strict=strict)
    near = _records(pairs, settings)
    monkeypatch.setattr(annotate, "encoder", lambda: None)  # every sentence parsed from scratch
    stock = _records(pairs, settings)
    assert len(near[0]) > 100
    assert near == stock
