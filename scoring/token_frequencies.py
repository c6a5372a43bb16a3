"""Token unigram frequencies of one tokenizer: the U of SLOR and MORCELA (`scoring/linking.py`).

A sentence's unigram log-probability is the sum, over its scored tokens, of the log relative
frequency of each token id in a reference text tokenised with the model's own tokenizer. A token
the counts never saw counts as the rarest token they list (the floor): absence means "at most
this frequent", as in the word-frequency baseline (`scoring/unigram.py`).

They are read in ZhoBLiMP's layout (`unigram/<tokenizer>.json` in their repository): a JSON
object from token id (a string of digits) to relative frequency.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


class FrequencyError(ValueError):
    """Token frequencies that cannot be used, in words naming the file and the entry."""


@dataclass(frozen=True, slots=True)
class TokenFrequencies:
    """Relative frequency of each token id of one tokenizer, and where the counts came from.
    `floor` is what a token the counts never saw counts as: the smallest listed frequency."""

    probabilities: Mapping[int, float]
    source: str
    floor: float

    @classmethod
    def of(cls, probabilities: Mapping[int, float], source: str) -> TokenFrequencies:
        """Return the frequencies with their floor (the smallest listed frequency)."""
        return cls(probabilities, source, min(probabilities.values()))

    def log_prob(self, token_ids: Sequence[int]) -> float:
        """Return the unigram log-probability (natural log) of a sentence's scored tokens."""
        return math.fsum(math.log(self.probabilities.get(token, self.floor)) for token in token_ids)


def read_zhoblimp_frequencies(path: Path) -> TokenFrequencies:
    """Read frequencies in ZhoBLiMP's layout: a JSON object from token id to frequency.

    Raises:
        FrequencyError: naming the file and the first entry that is not a token id with a
            frequency in (0, 1], or an empty or unreadable file.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise FrequencyError(f"{path}: cannot be read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise FrequencyError(f"{path}, line {exc.lineno}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict) or not data:
        raise FrequencyError(f"{path}: expected a JSON object from token id to frequency, with entries")
    probabilities: dict[int, float] = {}
    for key, value in data.items():
        if not (isinstance(key, str) and key.isdigit()):
            raise FrequencyError(f"{path}: '{key}' is not a token id (a whole number)")
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1:
            raise FrequencyError(f"{path}: token {key} has frequency {value!r}; expected a number in (0, 1]")
        probabilities[int(key)] = float(value)
    return TokenFrequencies.of(probabilities, f"{path.name} (ZhoBLiMP layout, {len(probabilities):,} tokens)")
