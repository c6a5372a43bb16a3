"""Golden-test helpers for the rule tests: what a type's rules make on a sentence, with the
rule name, strict flag and ERRANT's verdict; and a robustness run on odd input."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tests.triplets.rules.conftest import Checked, check, valid
from triplets.annotate import nlp
from triplets.candidates import apply, render
from triplets.rules import candidates, generators_for

if TYPE_CHECKING:
    from spacy.tokens import Doc

# Odd input every generator must take without raising: empty, punctuation only, one word,
# symbols, a very long sentence.
ODD_INPUT = (
    "",
    " ",
    "...",
    "!!! ??? ,,,",
    "I",
    "Us.",
    "and and and but or",
    "The the very very much much than than ago ago 's 're 'm",
    "1234 5678 % $ @ #",
    "Ça va? Naïve café — “quotes” …",
    " ".join(["My brother and I like the very big old houses near the river very much, and"] * 12)
    + " they never are late.",
)


def made(corrected: str, error_type: str) -> dict[str, Checked]:
    """Return the checked candidates of `error_type` on `corrected`, by artificial sentence."""
    return {c.artificial: c for c in check(corrected, error_type)}


def assert_made(corrected: str, error_type: str, artificial: str, rule: str, strict: bool) -> None:
    """Assert that `rule` makes `artificial` with this strict flag and that it validates (ERRANT
    finds exactly one edit, of `error_type`)."""
    found = made(corrected, error_type)
    assert artificial in found, sorted(found)
    checked = found[artificial]
    assert (checked.candidate.rule, checked.candidate.strict) == (rule, strict)
    assert checked.reason is None, (checked.reason, checked.errant_types)
    assert checked.errant_types == (error_type,)
    assert artificial in valid(corrected, error_type)


def strict_made(corrected: str, error_type: str, rule: str | None = None) -> set[str]:
    """Return the artificial sentences made strict on `corrected` (by `rule` alone when given),
    validated or not."""
    return {
        c.artificial
        for c in check(corrected, error_type)
        if c.candidate.strict and (rule is None or c.candidate.rule == rule)
    }


def assert_not_made(corrected: str, error_type: str, artificial: str) -> None:
    """Assert that no rule of `error_type` makes `artificial` from `corrected`."""
    assert artificial not in made(corrected, error_type)


def glued_insertions(docs: Iterable[Doc], error_types: Iterable[str]) -> list[str]:
    """Return the artificial sentences in which an inserted word is glued to a neighbour
    ("makesthem ."): every inserted word must stand between spaces (or at an edge)."""
    glued = []
    types = tuple(error_types)
    for doc in docs:
        for error_type in types:
            for candidate in candidates(doc, error_type):
                if candidate.start != candidate.end:
                    continue
                text = render(*apply(doc, candidate))
                words = text.split()
                if not all(w in words or w[:1].upper() + w[1:] in words for w in candidate.new):
                    glued.append(text)
    return glued


def run_on_odd_input(error_types: Iterable[str]) -> int:
    """Run every generator of the types on `ODD_INPUT`, apply and render each candidate, and
    return how many candidates there were (a generator that raises fails the caller's test)."""
    count = 0
    for text in ODD_INPUT:
        doc = nlp()(text)
        for error_type in error_types:
            for generator in generators_for(error_type):
                for candidate in generator(doc):
                    assert 0 <= candidate.start <= candidate.end <= len(doc), candidate
                    tokens, spaces = apply(doc, candidate)
                    assert isinstance(render(tokens, spaces), str)
                    count += 1
    return count
