"""Which words are real English words, and LemmInflect's dictionary forms of a lemma.

"Real word" means: in ERRANT's own word list (`en_GB-large`, 170k words, the list ERRANT uses to
tell spelling errors from other edits), so a generated form never becomes an R:SPELL edit.
LemmInflect's OOV rules invent forms ("beautifuler", "informations"); `dictionary_forms` never
returns them. The INFL error types want exactly those non-words: `rule_forms` gives them.
"""

from __future__ import annotations

import functools


@functools.cache
def _word_list() -> frozenset[str]:
    import errant.en.classifier as classifier

    return frozenset(classifier.spell)


def is_word(word: str) -> bool:
    """Return True if `word` (or its lower-case form) is in ERRANT's English word list."""
    words = _word_list()
    return word in words or word.lower() in words


@functools.lru_cache(maxsize=100_000)
def dictionary_forms(lemma: str, tag: str, upos: str | None = None) -> tuple[str, ...]:
    """Return LemmInflect's dictionary spellings of `lemma` for the Penn `tag` that are also in
    ERRANT's word list (empty when there is none: never a rule-made guess)."""
    import lemminflect

    forms = lemminflect.getAllInflections(lemma, upos=upos).get(tag, ())
    return tuple(f for f in forms if is_word(f))


@functools.lru_cache(maxsize=100_000)
def rule_forms(lemma: str, tag: str, upos: str) -> tuple[str, ...]:
    """Return LemmInflect's rule-made (OOV) spellings of `lemma` for `tag` that are not real
    words ("childs", "goed"): the regularised forms learners write."""
    import lemminflect

    forms = lemminflect.getAllInflectionsOOV(lemma, upos=upos).get(tag, ())
    return tuple(f for f in forms if f.isalpha() and not is_word(f))


@functools.lru_cache(maxsize=100_000)
def lemmas(word: str, upos: str) -> tuple[str, ...]:
    """Return LemmInflect's dictionary lemmas of `word` as part of speech `upos` (empty if the
    word is unknown)."""
    import lemminflect

    return tuple(lemminflect.getAllLemmas(word, upos=upos).get(upos, ()))
