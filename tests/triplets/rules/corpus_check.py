"""Run error types' generators over every corrected sentence of the demo learner corpus and
validate the candidates as the pipeline does (word check, then ERRANT, parsed in batches)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from triplets.annotate import edits_between, nlp
from triplets.candidates import Candidate, apply
from triplets.readers import read_parallel
from triplets.rules import candidates
from triplets.validate import check_errant, check_words

if TYPE_CHECKING:
    from spacy.tokens import Doc

CORPUS = Path(__file__).resolve().parents[3] / "templates" / "learner" / "mpp_learner_corpus.tsv"


@dataclass
class Tally:
    """Candidates made and candidates validated, per (type, strict)."""

    made: Counter[tuple[str, bool]] = field(default_factory=Counter)
    valid: Counter[tuple[str, bool]] = field(default_factory=Counter)

    def share(self, error_type: str, strict: bool) -> float:
        """Return the share of the type's (strict or not) candidates that validate."""
        made = self.made[(error_type, strict)]
        return self.valid[(error_type, strict)] / made if made else 0.0


def validated(doc: Doc, candidate: Candidate, error_type: str) -> bool:
    """Return True when ERRANT reads the candidate's artificial sentence against `doc` as one
    edit of `error_type`."""
    from spacy.tokens import Doc

    art_tokens, spaces = apply(doc, candidate)
    art = nlp()(Doc(nlp().vocab, words=art_tokens, spaces=[bool(s) for s in spaces]))
    return check_errant(edits_between(art, doc), error_type, (-5, -5)) is None


@functools.cache
def corrected_docs() -> tuple[object, ...]:
    """Return the parsed corrected sentences of the demo corpus (distinct, in file order)."""
    result = read_parallel(CORPUS)
    assert not [i for i in result.issues if i.severity == "error"]
    texts = list(dict.fromkeys(p.corrected for p in result.pairs if p.corrected))
    return tuple(nlp().pipe(texts, batch_size=256))


def tally(error_types: Sequence[str]) -> Tally:
    """Return how many candidates of each type the generators make on the demo corpus and how
    many of them validate (no learner position is excluded)."""
    from spacy.tokens import Doc

    out = Tally()
    jobs = []
    for doc in corrected_docs():
        assert isinstance(doc, Doc)
        tokens = [t.text for t in doc]
        for error_type in error_types:
            for candidate in candidates(doc, error_type):
                key = (error_type, candidate.strict)
                out.made[key] += 1
                if check_words(candidate, error_type, tokens) is not None:
                    continue
                art_tokens, spaces = apply(doc, candidate)
                art = Doc(nlp().vocab, words=art_tokens, spaces=[bool(s) for s in spaces])
                jobs.append((key, art, doc))
    parsed = nlp().pipe([j[1] for j in jobs], batch_size=256)
    for (key, _, doc), art in zip(jobs, parsed, strict=True):
        if check_errant(edits_between(art, doc), key[0], (-5, -5)) is None:
            out.valid[key] += 1
    return out
