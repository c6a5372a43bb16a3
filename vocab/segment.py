"""Chinese word segmentation with jieba, set up in one place: its dictionary is loaded on first
use (not at import: only Chinese needs it) and its "Building prefix dict" lines are silenced,
also for wordfreq, which segments Chinese with the same jieba."""

import logging
from functools import lru_cache
from types import ModuleType


@lru_cache(maxsize=1)
def jieba_quiet() -> ModuleType:
    """Return the jieba module with its log quiet (its dictionary loads when it first segments)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    module: ModuleType = jieba
    return module


@lru_cache(maxsize=1)
def jieba_ready() -> ModuleType:
    """Return the jieba module, quiet and with its dictionary loaded (once per process)."""
    jieba = jieba_quiet()
    jieba.initialize()
    return jieba


def chinese_words(text: str) -> list[str]:
    """Return jieba's words of `text`, leaving out the blank ones."""
    return [word for word in jieba_ready().lcut(text) if word.strip()]


def chinese_word_spans(text: str) -> list[tuple[int, int]]:
    """Return the character spans (start, end) of jieba's words of `text`, blank ones left out."""
    return [(start, end) for _word, start, end in jieba_ready().tokenize(text) if text[start:end].strip()]
