"""Word boundaries as character spans: from the generator's word list where there is one, else
a fallback segmentation (whitespace words, or jieba for Chinese)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from scoring.items import Span
from vocab.segment import chinese_word_spans

_WORD = re.compile(r"\S+")


def spans_of_words(text: str, words: Sequence[str]) -> tuple[Span, ...] | None:
    """Return the character span of each word of `words` found in order in `text`.

    The generator renders words with a separator, capitalisation and attached punctuation, so
    each word is searched (case-insensitively) from the end of the previous one. Returns None
    when a word is not found: the caller then falls back to `fallback_word_spans`.
    """
    lowered = text.lower()
    spans: list[Span] = []
    cursor = 0
    for word in words:
        if not word:
            continue
        start = lowered.find(word.lower(), cursor)
        if start < 0:
            return None
        end = start + len(word)
        spans.append((start, end))
        cursor = end
    return tuple(spans)


def fallback_word_spans(text: str, language: str) -> tuple[Span, ...]:
    """Return word spans for a sentence with no recorded words: jieba's segmentation for Chinese
    (`language` starting with "zh"), whitespace-separated words otherwise. Spaces are never part
    of a word."""
    if language.lower().startswith("zh"):
        return tuple(chinese_word_spans(text))
    return tuple((m.start(), m.end()) for m in _WORD.finditer(text))


def word_of_char(word_spans: Sequence[Span], length: int) -> list[int]:
    """Return, for each character index of a text of `length`, the index of the word holding it
    (-1 for characters outside every word)."""
    owner = [-1] * length
    for index, (start, end) in enumerate(word_spans):
        for position in range(max(0, start), min(end, length)):
            owner[position] = index
    return owner


def word_sums(
    token_spans: Sequence[Span], logprobs: Sequence[float], word_spans: Sequence[Span], length: int
) -> list[float]:
    """Return the summed token scores per word: a token counts for the word its first non-space
    character falls in; tokens outside every word (specials) count for none."""
    owner = word_of_char(word_spans, length)
    sums = [0.0] * len(word_spans)
    for (start, end), value in zip(token_spans, logprobs, strict=True):
        for position in range(start, end):
            if owner[position] >= 0:
                sums[owner[position]] += value
                break
    return sums
