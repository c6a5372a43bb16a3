"""Tokenizer coverage: how many tokens a model's tokenizer needs for each word of a vocabulary.

Words are counted as they appear inside a sentence, not at its start: byte-level BPE and
SentencePiece tokenizers split "dog" and " dog" differently, and only the second is what a
model sees for a word after the first.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from vocab.errors import CoverageError
from vocab.frequency import base_language
from vocab.lexicon import LexicalItem, Vocabulary

# Scripts written without spaces between words: there a word mid-sentence has no leading space.
NO_SPACE_LANGUAGES = frozenset({"zh", "ja", "th", "lo", "km", "my", "bo"})
# A neutral left context, so the word is tokenized as it appears after another word.
_CONTEXT = "the"


class Tokenizer(Protocol):
    """The part of a Hugging Face tokenizer that coverage needs."""

    def encode(self, text: str, *, add_special_tokens: bool = ...) -> list[int]: ...

    def convert_ids_to_tokens(self, ids: list[int]) -> str | list[str]: ...


def load_tokenizer(name_or_path: str | Path) -> Tokenizer:
    """Return the tokenizer at a local path (or a hub name already in the local cache).

    Raises:
        CoverageError: if no tokenizer can be loaded from there.
    """
    from transformers import AutoTokenizer  # heavy import, only when a tokenizer is needed

    location = str(name_or_path)
    try:
        tokenizer: Tokenizer = AutoTokenizer.from_pretrained(location)
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise CoverageError(f"could not load a tokenizer from '{location}': {exc}") from None
    return tokenizer


def word_token_ids(
    words: Iterable[str],
    tokenizer: Tokenizer,
    *,
    with_leading_space: bool | None = None,
    language: str = "",
) -> dict[str, list[int]]:
    """Return word -> the token ids of the word as it appears mid-sentence (no special tokens).

    `with_leading_space` True tokenizes " word", False "word"; None (default) tokenizes the
    word after a context word and keeps its own tokens, or the bare word for languages written
    without spaces (`NO_SPACE_LANGUAGES`).
    """
    bare = with_leading_space is False or (
        with_leading_space is None and base_language(language) in NO_SPACE_LANGUAGES
    )
    context_ids = tokenizer.encode(_CONTEXT, add_special_tokens=False)
    out: dict[str, list[int]] = {}
    for word in words:
        if word in out:
            continue
        if bare:
            ids = tokenizer.encode(word, add_special_tokens=False)
        elif with_leading_space:
            ids = tokenizer.encode(" " + word, add_special_tokens=False)
        else:
            ids = tokenizer.encode(f"{_CONTEXT} {word}", add_special_tokens=False)
            if ids[: len(context_ids)] == context_ids:
                ids = ids[len(context_ids) :]
            else:  # the context merged with the word; fall back to the spaced form
                ids = tokenizer.encode(" " + word, add_special_tokens=False)
        out[word] = list(ids)
    return out


def word_tokens(
    words: Iterable[str],
    tokenizer: Tokenizer,
    *,
    with_leading_space: bool | None = None,
    language: str = "",
) -> dict[str, list[str]]:
    """Return word -> its token strings mid-sentence (see `word_token_ids`)."""
    ids = word_token_ids(words, tokenizer, with_leading_space=with_leading_space, language=language)
    out: dict[str, list[str]] = {}
    for word, seq in ids.items():
        tokens = tokenizer.convert_ids_to_tokens(seq)
        out[word] = [tokens] if isinstance(tokens, str) else list(tokens)
    return out


def token_counts(
    words: Iterable[str],
    tokenizer: Tokenizer,
    *,
    with_leading_space: bool | None = None,
    language: str = "",
) -> dict[str, int]:
    """Return word -> number of tokens of the word mid-sentence (see `word_token_ids`)."""
    ids = word_token_ids(words, tokenizer, with_leading_space=with_leading_space, language=language)
    return {word: len(seq) for word, seq in ids.items()}


def unknown_token_id(tokenizer: Tokenizer) -> int | None:
    """Return the id of the tokenizer's unknown token, or None if it has none."""
    value = getattr(tokenizer, "unk_token_id", None)
    return value if isinstance(value, int) else None


def filter_by_coverage(
    vocab: Vocabulary,
    tokenizer: Tokenizer,
    max_tokens: int = 1,
    *,
    with_leading_space: bool | None = None,
) -> tuple[Vocabulary, list[LexicalItem]]:
    """Return the vocabulary of items whose form takes at most `max_tokens` tokens, and the rest.

    A form that contains the tokenizer's unknown token is dropped whatever its length: the
    model cannot tell it from other unknown words. The language of `vocab` decides how forms
    are tokenized (see `word_token_ids`).

    Raises:
        CoverageError: if `max_tokens` is less than 1.
    """
    if max_tokens < 1:
        raise CoverageError(f"max_tokens must be 1 or more, got {max_tokens}")
    ids = word_token_ids(
        (item.form for item in vocab.items),
        tokenizer,
        with_leading_space=with_leading_space,
        language=vocab.language,
    )
    unk = unknown_token_id(tokenizer)
    kept: list[LexicalItem] = []
    dropped: list[LexicalItem] = []
    for item in vocab.items:
        seq = ids[item.form]
        covered = 0 < len(seq) <= max_tokens and (unk is None or unk not in seq)
        (kept if covered else dropped).append(item)
    return Vocabulary(kept, vocab.schema, name=vocab.name, language=vocab.language), dropped
