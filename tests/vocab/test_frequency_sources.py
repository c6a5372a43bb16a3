"""The packaged frequency sources: spoken (pyspellchecker) and written (symspellpy)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocab import frequency
from vocab.cli import main
from vocab.errors import FrequencyError
from vocab.frequency import (
    FREQUENCY_SOURCES,
    PackagedSource,
    packaged_frequencies,
    source_frequencies,
)
from vocab.io import read_vocabulary


def test_sources_are_named() -> None:
    assert FREQUENCY_SOURCES == ("wordfreq", "spoken", "written")


@pytest.mark.parametrize("name", ["spoken", "written"])
def test_packaged_lists_are_per_million_of_their_own_total(name: str) -> None:
    """Each list loads from its package; its rates add up to a million; 'the' leads."""
    table = packaged_frequencies(name)
    assert len(table) > 50_000
    assert sum(table.values()) == pytest.approx(1e6, rel=1e-6)
    assert max(table, key=table.__getitem__) == "the"
    assert table["dog"] > table["dogs"] > 0


def test_spoken_and_written_differ_by_register() -> None:
    """Conversation words are relatively more frequent in subtitles, connectives in books."""
    words = ["okay", "yeah", "however", "therefore"]
    spoken = source_frequencies("spoken", words, "en")
    written = source_frequencies("written", words, "en")
    assert spoken["okay"] > 2 * written["okay"] and spoken["yeah"] > written["yeah"]
    assert written["however"] > 5 * spoken["however"] and written["therefore"] > 5 * spoken["therefore"]


def test_lookup_is_case_insensitive_and_unlisted_words_are_zero() -> None:
    found = source_frequencies("written", ["Dog", "dog", "qzxv"], "en")
    assert found["Dog"] == found["dog"] > 0 and found["qzxv"] == 0.0


def test_packaged_sources_are_english_only() -> None:
    with pytest.raises(FrequencyError, match="'spoken' has en words only, not 'zh'"):
        source_frequencies("spoken", ["狗"], "zh")


def test_unknown_source_is_named() -> None:
    with pytest.raises(FrequencyError, match="unknown frequency source 'tv'"):
        source_frequencies("tv", ["dog"], "en")
    with pytest.raises(FrequencyError, match="no packaged frequency list 'tv'"):
        packaged_frequencies("tv")


def test_missing_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    source = PackagedSource("gone", "no_such_package_xyz", "list.txt", "no-such-dist", "en", "")
    monkeypatch.setitem(frequency.PACKAGED_SOURCES, "gone", source)
    with pytest.raises(FrequencyError, match="needs the package no-such-dist: pip install no-such-dist"):
        packaged_frequencies("gone")


def test_unparsable_list_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A packaged file that is not 'word count' lines is an error naming the file and line."""
    source = PackagedSource("odd", "vocab", "errors.py", "mpp-studio", "en", "")
    monkeypatch.setitem(frequency.PACKAGED_SOURCES, "odd", source)
    with pytest.raises(
        FrequencyError, match=r"cannot parse mpp-studio's errors\.py: line 1 is not 'word count'"
    ):
        packaged_frequencies("odd")


def test_vocab_freq_with_the_spoken_source(tmp_path: Path) -> None:
    """`mpp vocab freq --source spoken` adds freq_spoken from the packaged list."""
    src = tmp_path / "v.csv"
    src.write_text("form,pos\ndog,NN\nqzxv,NN\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    assert main(["vocab", "freq", str(src), "--language", "en", "--source", "spoken", "--out", str(out)]) == 0
    values = {i.form: float(i.features["freq_spoken"][0]) for i in read_vocabulary(out).items}
    assert values["dog"] == pytest.approx(packaged_frequencies("spoken")["dog"], abs=1e-6)
    assert values["qzxv"] == 0.0
