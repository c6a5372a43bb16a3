"""Shared helpers for the generator tests: parse a corrected sentence, run one type's generators
on it, and validate each candidate exactly as the pipeline does (word check, then ERRANT with the
artificial sentence as original and the corrected one as correction)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from triplets.annotate import Edit, annotator, edits_between, nlp
from triplets.candidates import Candidate, apply, render
from triplets.rules import candidates
from triplets.validate import check_errant, check_text, check_words


@dataclass(frozen=True)
class Checked:
    """A candidate, its artificial sentence, and why validation refused it (None: valid)."""

    candidate: Candidate
    artificial: str
    reason: str | None
    errant_types: tuple[str, ...]


def check(corrected: str, error_type: str, learner_span: tuple[int, int] = (-5, -5)) -> list[Checked]:
    """Return every candidate the type's rules make on `corrected`, each validated (the learner
    span defaults to none: no position is excluded)."""
    from spacy.tokens import Doc

    doc = nlp()(corrected)
    tokens = [t.text for t in doc]
    out = []
    for candidate in candidates(doc, error_type):
        art_tokens, spaces = apply(doc, candidate)
        text = render(art_tokens, spaces)
        reason = check_words(candidate, error_type, tokens) or check_text(text, doc.text, "")
        edits: tuple[Edit, ...] = ()
        if reason is None:
            art = nlp()(Doc(nlp().vocab, words=art_tokens, spaces=[bool(s) for s in spaces]))
            edits = edits_between(art, doc)
            reason = check_errant(edits, error_type, learner_span)
        out.append(Checked(candidate, text, reason, tuple(e.type for e in edits)))
    return out


def valid(corrected: str, error_type: str) -> list[str]:
    """Return the artificial sentences of `corrected` that pass validation, in rule order."""
    return [c.artificial for c in check(corrected, error_type) if c.reason is None]


@pytest.fixture(scope="module", autouse=True)
def _loaded() -> None:
    annotator()


@pytest.fixture
def checker() -> Callable[..., list[Checked]]:
    return check
