"""Per-language rules for turning position words into a sentence: tokens, spacing, case."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, pairwise

# English tokens written without a space before them.
_NO_SPACE_BEFORE = frozenset(
    {".", ",", "?", "!", ";", ":", "'s", "'", "n't", "'re", "'ve", "'ll", "'d", "'m", ")", "%"}
)
_NO_SPACE_AFTER = frozenset({"(", "$"})


@lru_cache(maxsize=500_000)
def _split_spaced(text: str) -> tuple[str, ...]:
    return tuple(text.split())


@lru_cache(maxsize=500_000)
def _split_chinese(text: str) -> tuple[str, ...]:
    import jieba

    return tuple(t for t in jieba.lcut(text) if t.strip())


def _ensure_jieba_quiet() -> None:
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()


@dataclass(frozen=True, slots=True)
class Rendered:
    """A sentence with its tokens and each token's character offsets."""

    text: str
    tokens: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class LanguageRules:
    """How one language joins words: separator, punctuation spacing, capitalisation."""

    code: str
    separator: str
    capitalize_default: bool
    segment_words: bool  # Chinese: word tokens come from jieba, not from spaces

    def tokenize(self, piece: str) -> tuple[str, ...]:
        """Return the word tokens of one position's text."""
        if not piece:
            return ()
        if self.segment_words:
            return _split_chinese(piece)
        return _split_spaced(piece)

    def render(self, tokens: list[str], capitalize: bool) -> Rendered:
        """Return the sentence made of `tokens`, with the character span of each token."""
        if capitalize and tokens and tokens[0]:
            first = tokens[0]
            tokens = [first[0].upper() + first[1:], *tokens[1:]]
        if not tokens:
            return Rendered("", (), ())
        sep = self.separator
        if sep:
            gaps = [""] + [
                "" if token in _NO_SPACE_BEFORE or previous in _NO_SPACE_AFTER else sep
                for previous, token in pairwise(tokens)
            ]
            pieces = [piece for pair in zip(gaps, tokens, strict=True) for piece in pair]
            widths = [len(piece) for piece in pieces]
        else:
            pieces = tokens
            widths = [len(token) for token in tokens]
        ends = list(accumulate(widths))
        step = 2 if sep else 1
        offsets = tuple(
            (end - widths[i], end)
            for i, end in zip(range(step - 1, len(ends), step), ends[step - 1 :: step], strict=True)
        )
        return Rendered("".join(pieces), tuple(tokens), offsets)


_LANGUAGES = {
    "en": LanguageRules("en", " ", True, False),
    "zh": LanguageRules("zh", "", False, True),
}


def language_rules(code: str) -> LanguageRules:
    """Return the rules for a language code; unknown languages join words with spaces."""
    rules = _LANGUAGES.get(code.lower().split("-")[0])
    if rules is None:
        return LanguageRules(code, " ", False, False)
    if rules.segment_words:
        _ensure_jieba_quiet()
    return rules
