"""The plausibility check for authors: good sentences ranked from least to most plausible under one
causal language model, by mean log-probability per token, each with its weakest token.

It helps an author find odd words (a noun no verb of the template suits, a rare inflection); it
does not replace selectional restrictions in the template, and it must not be used to filter a
benchmark (see PLAUSIBILITY_WARNING).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.items import SentenceScore

DEFAULT_TOP = 20
# One text for the command line, the page and the docs: filtering by one model's scores removes
# the very sentences that model (and models trained on similar text) finds hard.
PLAUSIBILITY_WARNING = (
    "Filtering sentences by one model's scores biases the evaluation of that model and of similar "
    "models: review these sentences by hand and fix the template or the vocabulary; do not drop "
    "every sentence the model finds unlikely. This list does not replace selectional restrictions."
)


@dataclass(frozen=True, slots=True)
class WeakToken:
    """The lowest-scored token of a sentence: its position among the scored tokens, the tokenizer's
    string, the characters of the sentence it covers (the token string when it covers none, as
    an end-of-sentence token) and its log-probability (nats)."""

    index: int
    token: str
    text: str
    logprob: float


@dataclass(frozen=True, slots=True)
class Implausible:
    """One ranked sentence: the caller's `key`, its text, mean log-prob per token (nats), number
    of scored tokens and weakest token."""

    key: str
    text: str
    mean_logprob: float
    n_tokens: int
    weakest: WeakToken


def weakest_token(score: SentenceScore) -> WeakToken | None:
    """Return the token of `score` with the lowest log-prob (the first of equal ones), or None
    when the sentence has no scored token."""
    if not score.logprobs:
        return None
    index = min(range(len(score.logprobs)), key=score.logprobs.__getitem__)
    token = score.tokens[index] if index < len(score.tokens) else ""
    start, end = score.token_spans[index] if index < len(score.token_spans) else (0, 0)
    return WeakToken(index, token, score.text[start:end] or token, score.logprobs[index])


def least_plausible(
    scores: Iterable[tuple[str, SentenceScore]], *, top: int = DEFAULT_TOP
) -> list[Implausible]:
    """Return the `top` least plausible sentences of `scores` ((key, score) pairs), lowest mean
    log-prob per token first (ties by text, then key). A key seen again is skipped, and so is a
    sentence with no scored token.

    The mean, not the sum: a sentence's summed log-prob falls with every token it has, so a sum
    ranking would list the longest sentences rather than the oddest ones.

    Raises:
        ValueError: if `top` is less than 1.
    """
    if top < 1:
        raise ValueError("top must be at least 1")
    seen: set[str] = set()
    ranked: list[Implausible] = []
    for key, score in scores:
        if key in seen:
            continue
        seen.add(key)
        weakest = weakest_token(score)
        if weakest is None:
            continue
        ranked.append(Implausible(key, score.text, score.reduce("mean"), score.n_tokens, weakest))
    ranked.sort(key=lambda row: (row.mean_logprob, row.text, row.key))
    return ranked[:top]
