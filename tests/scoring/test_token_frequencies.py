"""scoring.token_frequencies: ZhoBLiMP's layout read and checked, and the floor."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from scoring.token_frequencies import FrequencyError, read_zhoblimp_frequencies


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
