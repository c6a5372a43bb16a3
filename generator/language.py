"""Per-language rules for turning position words into a sentence: tokens, spacing, case."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vocab.segment import chinese_words, jieba_ready

# English tokens written without a space before them.
NO_SPACE_BEFORE = frozenset(
    {".", ",", "?", "!", ";", ":", "'s", "'", "n't", "'re", "'ve", "'ll", "'d", "'m", ")", "%"}
)
# Tokens written without a space after them.
NO_SPACE_AFTER = frozenset({"(", "$"})


@lru_cache(maxsize=500_000)
def _split_spaced(text: str) -> tuple[str, ...]:
    return tuple(text.split())


@lru_cache(maxsize=500_000)
def _split_chinese(text: str) -> tuple[str, ...]:
    return tuple(chinese_words(text))


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
        if not tokens:
            return Rendered("", (), ())
        if capitalize and tokens[0]:
            first = tokens[0]
            tokens = [first[0].upper() + first[1:], *tokens[1:]]
        sep = self.separator
        width = len(sep)
        previous = tokens[0]
        end = len(previous)
        parts = [previous]
        offsets = [(0, end)]
        for token in tokens[1:]:
            if width and token not in NO_SPACE_BEFORE and previous not in NO_SPACE_AFTER:
                parts.append(sep)
                end += width
            parts.append(token)
            offsets.append((end, end + len(token)))
            end += len(token)
            previous = token
        return Rendered("".join(parts), tuple(tokens), tuple(offsets))


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
        jieba_ready()
    return rules
