"""Tokenizer coverage with tiny tokenizers trained and saved locally."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vocab.tiny_tokenizers import build_byte_level_bpe, build_wordpiece
from vocab.coverage import (
    Tokenizer,
    filter_by_coverage,
    load_tokenizer,
    token_counts,
    unknown_token_id,
    word_tokens,
)
from vocab.errors import CoverageError
from vocab.io import read_vocabulary_text


@pytest.fixture(scope="module")
def bpe(tmp_path_factory: pytest.TempPathFactory) -> Tokenizer:
    """A byte-level BPE that knows 'Ġdog' (mid-sentence) but not 'dog' (sentence start)."""
    return load_tokenizer(build_byte_level_bpe(tmp_path_factory.mktemp("bpe")))


@pytest.fixture(scope="module")
def wordpiece(tmp_path_factory: pytest.TempPathFactory) -> Tokenizer:
    """A WordPiece tokenizer that adds [CLS]/[SEP] and maps unseen characters to [UNK]."""
    return load_tokenizer(build_wordpiece(tmp_path_factory.mktemp("wp")))


def test_load_tokenizer_reads_a_local_folder(bpe: Tokenizer) -> None:
    """A folder saved with save_pretrained loads through AutoTokenizer."""
    assert bpe.encode("the dog", add_special_tokens=False)


def test_load_tokenizer_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    """A path without a tokenizer raises CoverageError naming it."""
    with pytest.raises(CoverageError, match="could not load a tokenizer from"):
        load_tokenizer(tmp_path / "nothing-here")


def test_token_counts_uses_mid_sentence_form_for_byte_level_bpe(bpe: Tokenizer) -> None:
    """'dog' is one token after a space (as in a sentence) and more at the very start."""
    assert token_counts(["dog", "cats"], bpe) == {"dog": 1, "cats": 1}
    assert token_counts(["dog"], bpe, with_leading_space=True) == {"dog": 1}
    assert token_counts(["dog"], bpe, with_leading_space=False)["dog"] > 1
    assert word_tokens(["dog"], bpe) == {"dog": ["Ġdog"]}


def test_token_counts_bare_form_for_languages_without_spaces(bpe: Tokenizer) -> None:
    """For Chinese the word is counted without a leading space."""
    assert token_counts(["猫"], bpe, language="zh") == token_counts(["猫"], bpe, with_leading_space=False)
    assert token_counts(["猫"], bpe, language="zh")["猫"] == 3  # three UTF-8 bytes


def test_token_counts_excludes_special_tokens(wordpiece: Tokenizer) -> None:
    """[CLS] and [SEP] are not counted."""
    assert len(wordpiece.encode("dog")) == 3
    assert token_counts(["dog", "dog"], wordpiece) == {"dog": 1}
    assert token_counts(["elephant"], wordpiece)["elephant"] > 1


def test_filter_by_coverage_keeps_short_words_and_returns_dropped(bpe: Tokenizer) -> None:
    """Items over max_tokens are dropped and returned; the kept vocabulary keeps its schema."""
    vocab = read_vocabulary_text(
        "form,number\ndog,sg\ncats,pl\nelephant,sg\n", file_name="n.csv", language="en"
    )
    kept, dropped = filter_by_coverage(vocab, bpe, max_tokens=1)
    assert [i.form for i in kept] == ["dog", "cats"]
    assert [i.form for i in dropped] == ["elephant"]
    assert kept.schema == vocab.schema
    assert (kept.name, kept.language) == (vocab.name, vocab.language)
    kept_all, none = filter_by_coverage(vocab, bpe, max_tokens=20)
    assert len(kept_all) == 3 and none == []


def test_filter_by_coverage_drops_unknown_tokens(wordpiece: Tokenizer) -> None:
    """A form the tokenizer maps to [UNK] is dropped even though it is one token."""
    assert unknown_token_id(wordpiece) is not None
    vocab = read_vocabulary_text("form\ndog\n猫\n", file_name="n.csv")
    assert token_counts(["猫"], wordpiece) == {"猫": 1}
    kept, dropped = filter_by_coverage(vocab, wordpiece)
    assert [i.form for i in kept] == ["dog"]
    assert [i.form for i in dropped] == ["猫"]


def test_filter_by_coverage_rejects_zero_max_tokens(bpe: Tokenizer) -> None:
    """max_tokens below 1 would drop everything: it is refused."""
    vocab = read_vocabulary_text("form\ndog\n", file_name="n.csv")
    with pytest.raises(CoverageError, match="max_tokens"):
        filter_by_coverage(vocab, bpe, max_tokens=0)
