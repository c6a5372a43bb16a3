"""What a scorer reads (a sentence, with the generator's word boundaries where known) and what it
returns (one score vector per sentence, from which every reduction and metric is computed)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

Reduction = Literal["sum", "mean", "bpt"]
REDUCTIONS: tuple[Reduction, ...] = ("sum", "mean", "bpt")
# Whether a larger value of the reduction means "more acceptable": log-probabilities yes,
# bits per token (a cost) no.
HIGHER_IS_BETTER: dict[Reduction, bool] = {"sum": True, "mean": True, "bpt": False}

Span = tuple[int, int]


def reduce_totals(lp_sum: float, lp_mean: float, reduction: Reduction) -> float:
    """Return a sentence's score under `reduction` from its summed and mean log-prob: LP, MLP
    or bits per token (BPT = -MLP / ln 2; lower is better).

    Raises:
        ValueError: for an unknown reduction.
    """
    if reduction == "sum":
        return lp_sum
    if reduction == "mean":
        return lp_mean
    if reduction == "bpt":
        return -lp_mean / math.log(2)
    raise ValueError(f"unknown reduction '{reduction}' (choose from {', '.join(REDUCTIONS)})")


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence to score. `word_spans` are the character spans of its words as the generator
    (or the corpus) delimits them; None when unknown (a fallback segmentation is used)."""

    text: str
    word_spans: tuple[Span, ...] | None = None


@dataclass(slots=True)
class SentenceScore:
    """Per-token scores of one sentence under one scorer configuration.

    `logprobs[i]` is the natural-log score of `tokens[i]`, whose characters are
    `token_spans[i]` of `text` ((0, 0) for a special token such as <s> in holistic scoring).
    For causal LMs: log p(token | BOS and the tokens before), every content token, BOS itself
    never. For masked LMs: the pseudo-log-likelihood term (pll, pll_word_l2r) or, for holistic
    scoring, log p(token | the unmasked sentence) at every non-pad position including the
    special tokens. For the unigram baseline the tokens are the words.
    `word_logprobs[j]` sums the token scores of word j (`word_spans[j]`); a token belongs to the
    word its first character falls in.
    """

    text: str
    tokens: list[str]
    token_spans: list[Span]
    logprobs: list[float]
    word_spans: list[Span] = field(default_factory=list)
    word_logprobs: list[float] = field(default_factory=list)

    @property
    def n_tokens(self) -> int:
        return len(self.logprobs)

    def reduce(self, reduction: Reduction) -> float:
        """Return the sentence's score: the summed log-prob (LP), the mean log-prob (MLP) or
        bits per token (BPT = -MLP / ln 2; lower is better)."""
        total = math.fsum(self.logprobs)
        if not self.logprobs:
            return total if reduction == "sum" else 0.0
        return reduce_totals(total, total / len(self.logprobs), reduction)

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready dict (spans as 2-item lists)."""
        return {
            "text": self.text,
            "tokens": list(self.tokens),
            "token_spans": [list(s) for s in self.token_spans],
            "logprobs": list(self.logprobs),
            "word_spans": [list(s) for s in self.word_spans],
            "word_logprobs": list(self.word_logprobs),
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> SentenceScore:
        """Rebuild a score from `to_dict()` output."""

        def spans(value: object) -> list[Span]:
            return [(int(a), int(b)) for a, b in value]  # type: ignore[attr-defined]

        return cls(
            text=str(data["text"]),
            tokens=[str(t) for t in data["tokens"]],  # type: ignore[attr-defined]
            token_spans=spans(data["token_spans"]),
            logprobs=[float(x) for x in data["logprobs"]],  # type: ignore[attr-defined]
            word_spans=spans(data.get("word_spans", [])),
            word_logprobs=[float(x) for x in data.get("word_logprobs", [])],  # type: ignore[attr-defined]
        )
