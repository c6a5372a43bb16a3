"""Scorer names and their lazy loading: torch and transformers are imported only when a model
scorer is asked for."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from scoring.errors import ScoringError
from scoring.items import Sentence, SentenceScore
from scoring.settings import ScorerSettings

# method -> (module, class), imported on demand.
_SCORERS: dict[str, tuple[str, str]] = {
    "causal": ("scoring.causal", "CausalScorer"),
    "holistic": ("scoring.masked", "MaskedScorer"),
    "pll": ("scoring.masked", "MaskedScorer"),
    "pll_word_l2r": ("scoring.masked", "MaskedScorer"),
    "unigram": ("scoring.unigram", "UnigramScorer"),
}
METHODS: tuple[str, ...] = tuple(_SCORERS)


class ProgressCallback(Protocol):
    def __call__(self, done: int) -> None: ...


class Scorer(Protocol):
    """What every scorer offers."""

    settings: ScorerSettings

    def score(
        self, sentences: list[Sentence], progress: ProgressCallback | None = None
    ) -> list[SentenceScore]:
        """Return one score per sentence, in the input order; `progress(done)` after each batch."""
        ...

    def describe(self) -> dict[str, object]:
        """Return what a result must record to be reproducible (model and tokenizer revision,
        BOS policy, dtypes, library versions)."""
        ...


@runtime_checkable
class TokenIdScorer(Protocol):
    """A scorer whose tokens map back to its tokenizer's ids (the causal scorer), as the token
    unigram frequencies of SLOR and MORCELA need."""

    def token_ids(self, tokens: Sequence[str]) -> list[int]:
        """Return the tokenizer's ids of a score's tokens."""
        ...


def load_scorer(settings: ScorerSettings) -> Scorer:
    """Return a ready scorer for `settings` (the model loaded).

    Raises:
        ScoringError: for an unknown method; ModelLoadError when the model cannot be loaded.
    """
    try:
        module_name, class_name = _SCORERS[settings.method]
    except KeyError:
        raise ScoringError(f"unknown scorer '{settings.method}' (choose from {', '.join(METHODS)})") from None
    cls = getattr(importlib.import_module(module_name), class_name)
    scorer: Scorer = cls(settings)
    return scorer
