"""scoring.token_frequencies: ZhoBLiMP's layout read and checked, and the floor."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from scoring import ScorerSettings, load_scorer
from scoring.errors import ModelLoadError
from scoring.token_frequencies import (
    FrequencyError,
    TokenFrequencies,
    count_token_ids,
    read_zhoblimp_frequencies,
    tokenizer_key,
)
from scoring.torch_support import load_tokenizer


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_zhoblimp_layout_is_read_with_its_floor(tmp_path: Path) -> None:
    path = _write(tmp_path / "llama.json", json.dumps({"1": 0.5, "29871": 0.25, "7": 0.125}))
    frequencies = read_zhoblimp_frequencies(path)
    assert frequencies.probabilities == {1: 0.5, 29871: 0.25, 7: 0.125}
    assert frequencies.floor == 0.125
    assert "llama.json" in frequencies.source and "3 tokens" in frequencies.source
    # ln 0.5 + ln 0.25 + an unseen token at the floor, ln 0.125
    assert frequencies.log_prob([1, 29871, 99]) == pytest.approx(math.log(0.5 * 0.25 * 0.125))


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('{"1": 0.5, "x": 0.1}', "'x' is not a token id"),
        ('{"1": 0.5, "2": 0}', "token 2 has frequency 0"),
        ('{"1": 1.5}', "token 1 has frequency 1.5"),
        ('{"1": "0.5"}', "token 1 has frequency '0.5'"),
        ('{"1": true}', "token 1 has frequency True"),
        ("{}", "with entries"),
        ("[0.5]", "expected a JSON object"),
        ('{"1": 0.5,\n', "line 2: not JSON"),
    ],
)
def test_unusable_frequencies_are_refused_naming_the_file_and_entry(
    tmp_path: Path, text: str, named: str
) -> None:
    path = _write(tmp_path / "freq.json", text)
    with pytest.raises(FrequencyError, match=r"freq\.json") as raised:
        read_zhoblimp_frequencies(path)
    assert named in str(raised.value)


def test_a_missing_file_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(FrequencyError, match="cannot be read"):
        read_zhoblimp_frequencies(tmp_path / "nope.json")


def test_token_ids_are_counted_from_a_text_a_batch_of_lines_at_a_time() -> None:
    encoded: list[list[str]] = []

    def encode(lines: list[str]) -> list[list[int]]:
        encoded.append(list(lines))
        return [[len(word) for word in line.split()] for line in lines]

    read: list[int] = []
    counts = count_token_ids(["a bb", "", "  ", "ccc a", "dd"], encode, batch=2, progress=read.append)
    assert counts == {1: 2, 2: 2, 3: 1}
    assert encoded == [["a bb", "ccc a"], ["dd"]]  # blank lines skipped, two lines a batch
    assert read == [4, 5]
    frequencies = TokenFrequencies.from_counts(counts, "text.txt")
    assert frequencies.probabilities == {1: 0.4, 2: 0.4, 3: 0.2} and frequencies.floor == 0.2
    assert frequencies.to_json() == {"1": 0.4, "2": 0.4, "3": 0.2}
    with pytest.raises(FrequencyError, match="no token was counted"):
        TokenFrequencies.from_counts({}, "empty.txt")


def test_a_tokenizer_is_known_by_its_vocabulary(tiny_gpt2: Path, tiny_llama_bos: Path) -> None:
    gpt2 = load_tokenizer(str(tiny_gpt2))
    key = tokenizer_key(gpt2.get_vocab())
    assert key == tokenizer_key(dict(reversed(list(gpt2.get_vocab().items()))))  # order does not matter
    assert key != tokenizer_key(load_tokenizer(str(tiny_llama_bos)).get_vocab())
    assert tokenizer_key({"a": 0, "b": 1}) != tokenizer_key({"a": 1, "b": 0})
    scorer = load_scorer(ScorerSettings("causal", str(tiny_gpt2)))
    assert scorer.describe()["tokenizer_key"] == key
    with pytest.raises(ModelLoadError, match="the tokenizer of '/nonexistent/tok' could not be loaded"):
        load_tokenizer("/nonexistent/tok")
