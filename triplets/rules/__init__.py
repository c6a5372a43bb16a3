"""The artificial-error generators, by ERRANT type.

Each module holds the rules of one family of types and exports `RULES`: ERRANT type -> the
generators for it, most reliable first. A generator reads the parsed corrected sentence and
yields every `Candidate` it can make there, strict (forcing) ones first; the pipeline removes
those at the learner's position, orders them deterministically and validates them one by one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from triplets.candidates import Candidate
from triplets.rules import (
    adjectives,
    determiners,
    function_words,
    nouns,
    prepositions,
    pronouns,
    verb_forms,
    verbs,
    word_order,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc

Generator = Callable[["Doc"], Iterable[Candidate]]

_MODULES = (
    determiners,
    prepositions,
    nouns,
    verbs,
    verb_forms,
    pronouns,
    adjectives,
    word_order,
    function_words,
)


def _registry() -> dict[str, tuple[Generator, ...]]:
    registry: dict[str, tuple[Generator, ...]] = {}
    for module in _MODULES:
        for error_type, generators in module.RULES.items():
            registry[error_type] = registry.get(error_type, ()) + tuple(generators)
    return registry


GENERATORS: dict[str, tuple[Generator, ...]] = _registry()


def generators_for(error_type: str) -> tuple[Generator, ...]:
    """Return the generators for an ERRANT type (empty when no rule can make that type)."""
    return GENERATORS.get(error_type, ())


def candidates(doc: Doc, error_type: str) -> list[Candidate]:
    """Return every candidate the type's generators make on `doc`, in the generators' order."""
    return [c for generator in generators_for(error_type) for c in generator(doc)]
