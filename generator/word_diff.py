"""Words of a plain sentence pair and its critical words, found by a word-level diff.

Imported datasets (BLiMP, Zorro, ZhoBLiMP releases) give only the two sentences. Their critical
region is what a word-level diff of the two sentences leaves unmatched: the replaced, inserted
and deleted words on each side (a moved word shows up on both sides).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from vocab.frequency import base_language
from vocab.segment import chinese_words

# A word: letters or digits with inner apostrophes or hyphens ("don't", "well-known"), or one
# punctuation mark. Contractions stay one word; "?" and "." are words of their own.
_SPACED_WORD = re.compile(r"\w+(?:['’-]\w+)*|[^\w\s]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True, slots=True)
class CriticalWords:
    """The words of both sentences and, per side, the indexes of the critical words."""

    words_good: tuple[str, ...]
    words_bad: tuple[str, ...]
    critical_good: tuple[int, ...]
    critical_bad: tuple[int, ...]


def guess_language(sentence: str) -> str:
    """Return "zh" for a sentence with Han characters, else "en" (for pairs that do not say)."""
    return "zh" if _HAN.search(sentence) else "en"


def sentence_words(sentence: str, language: str) -> tuple[str, ...]:
    """Return the words of a sentence: jieba words for Chinese, else words and punctuation marks."""
    if base_language(language) == "zh":
        return tuple(chinese_words(sentence))
    return tuple(_SPACED_WORD.findall(sentence))


def diff_critical_words(good: str, bad: str, language: str) -> CriticalWords:
    """Return both sentences' words and the indexes a word-level diff leaves unmatched.

    Words are compared case-insensitively, so a capitalised first word that moves inside the
    sentence ("Who" / "who") is not taken for a change of word.
    """
    words_good = sentence_words(good, language)
    words_bad = sentence_words(bad, language)
    matcher = difflib.SequenceMatcher(
        a=[w.lower() for w in words_good], b=[w.lower() for w in words_bad], autojunk=False
    )
    critical_good: list[int] = []
    critical_bad: list[int] = []
    for tag, g0, g1, b0, b1 in matcher.get_opcodes():
        if tag != "equal":
            critical_good.extend(range(g0, g1))
            critical_bad.extend(range(b0, b1))
    return CriticalWords(words_good, words_bad, tuple(critical_good), tuple(critical_bad))
