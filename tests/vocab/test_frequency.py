"""Word frequencies from wordfreq and from corpora, and attaching them to vocabularies."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocab.errors import FrequencyError
from vocab.frequency import (
    attach_frequencies,
    base_language,
    corpus_frequencies,
    count_corpus_file,
    wordfreq_frequencies,
)
from vocab.io import read_vocabulary, read_vocabulary_text, write_vocabulary


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ["the", "dog", "children"]), ("zh", ["我们", "狗", "小说"]), ("en-US", ["cat"])],
)
def test_wordfreq_frequencies_are_positive_per_million(language: str, words: list[str]) -> None:
    """Common words get a positive rate per million words."""
    freqs = wordfreq_frequencies(words, language)
    assert list(freqs) == words
    assert all(value > 0 for value in freqs.values())


def test_wordfreq_frequencies_scale_and_unknown_words() -> None:
    """'the' is tens of thousands per million; a non-word is 0."""
    freqs = wordfreq_frequencies(["the", "qzxjvw"], "en")
    assert 10_000 < freqs["the"] < 100_000
    assert freqs["qzxjvw"] == 0.0


def test_wordfreq_frequencies_rejects_unknown_language() -> None:
    """A language wordfreq lacks is named in the error."""
    with pytest.raises(FrequencyError, match="'xx'"):
        wordfreq_frequencies(["a"], "xx")


def test_base_language_strips_region_and_script() -> None:
    """zh-Hans, zh_CN and EN all map to their bare code."""
    assert [base_language(x) for x in ("zh-Hans", "zh_CN", "EN")] == ["zh", "zh", "en"]


def test_corpus_frequencies_english_letters_and_apostrophes() -> None:
    """English tokens are lowercased letter runs; apostrophes inside words are kept."""
    freqs = corpus_frequencies(["The dog's bone.", "Don’t 42 dogs_run THE"], "en")
    assert set(freqs) == {"the", "dog's", "bone", "don't", "dogs", "run"}
    assert freqs["the"] == pytest.approx(2 / 7 * 1e6)
    assert sum(freqs.values()) == pytest.approx(1e6)


def test_corpus_frequencies_chinese_segmented_with_jieba() -> None:
    """Chinese text is segmented into words; punctuation is not counted."""
    freqs = corpus_frequencies(["我喜欢看书。我们也喜欢小说！", "小猫喜欢吃鱼。"], "zh")
    # jieba: 我 喜欢 看书 | 我们 也 喜欢 小说 | 小猫 喜欢 吃 鱼  -> 11 words, 喜欢 three times
    assert freqs["喜欢"] == pytest.approx(3 / 11 * 1e6)
    assert freqs["小说"] == pytest.approx(1 / 11 * 1e6)
    assert "。" not in freqs and "！" not in freqs


def test_corpus_frequencies_empty_corpus_is_empty() -> None:
    """No tokens: no frequencies (and no division by zero)."""
    assert corpus_frequencies(["", "... 123"], "en") == {}


def test_corpus_frequencies_custom_tokenizer_for_other_languages() -> None:
    """Other languages need a tokenize function; with one they work."""
    with pytest.raises(FrequencyError, match="no built-in tokenizer"):
        corpus_frequencies(["a b"], "fi")
    freqs = corpus_frequencies(["kissa koira kissa"], "fi", tokenize=str.split)
    assert freqs == {"kissa": pytest.approx(2e6 / 3), "koira": pytest.approx(1e6 / 3)}


def test_count_corpus_file_matches_in_memory_counts(tmp_path: Path) -> None:
    """Streaming a file gives the same rates as counting its lines in memory (BOM ignored)."""
    lines = ["他们在图书馆里看书，我在家里看书。\n", "我喜欢看书。\n"]
    path = tmp_path / "zh.txt"
    path.write_bytes("".join(lines).encode("utf-8-sig"))
    assert count_corpus_file(path, "zh") == corpus_frequencies(lines, "zh")
    assert "\ufeff他们" not in count_corpus_file(path, "zh")


def test_count_corpus_file_names_undecodable_line(tmp_path: Path) -> None:
    """A line that is not UTF-8 is reported by number."""
    path = tmp_path / "c.txt"
    path.write_bytes(b"fine line\ncaf\xe9\n")
    with pytest.raises(FrequencyError, match=r"c\.txt, line 2"):
        count_corpus_file(path, "en")


def test_attach_frequencies_adds_float_feature(tmp_path: Path) -> None:
    """freq_<name> is declared as float and set on every item (lowercase lookup, else 0)."""
    vocab = read_vocabulary_text("form,pos\nDog,NN\ncat,NN\nunicorn,NN\n", file_name="n.csv", language="en")
    result = attach_frequencies(vocab, "childes", {"dog": 12.5, "cat": 3.0})
    spec = result.schema.features["freq_childes"]
    assert spec.type == "float"
    assert [i.features["freq_childes"] for i in result] == [("12.5",), ("3.0",), ("0.0",)]
    assert (result.name, result.language) == (vocab.name, vocab.language)
    assert "freq_childes" not in vocab.schema.features  # the input is unchanged
    write_vocabulary(result, tmp_path / "n.csv")
    assert read_vocabulary(tmp_path / "n.csv").items == result.items


def test_attach_frequencies_exact_form_wins_and_replaces_feature() -> None:
    """An exact-case entry is preferred; attaching the same source again replaces it."""
    vocab = read_vocabulary_text("form\nMay\n", file_name="n.csv")
    once = attach_frequencies(vocab, "wf", {"may": 100.0, "May": 5.0})
    assert once.get("May").features["freq_wf"] == ("5.0",)
    twice = attach_frequencies(once, "wf", {"may": 7.0})
    assert twice.get("May").features["freq_wf"] == ("7.0",)
    assert list(twice.schema.features) == ["freq_wf"]


def test_attach_frequencies_rounds_float_noise() -> None:
    """wordfreq's 6.03e-05 * 1e6 is written 60.3, not 60.300000000000004."""
    vocab = read_vocabulary_text("form\ncat\n", file_name="n.csv")
    result = attach_frequencies(vocab, "wf", {"cat": 6.03e-05 * 1e6})
    assert result.get("cat").features["freq_wf"] == ("60.3",)


@pytest.mark.parametrize("name", ["", "a b", "x/y", "-x"])
def test_attach_frequencies_rejects_bad_source_name(name: str) -> None:
    """The source name becomes a column name, so it must be plain."""
    vocab = read_vocabulary_text("form\ncat\n", file_name="n.csv")
    with pytest.raises(FrequencyError):
        attach_frequencies(vocab, name, {})
