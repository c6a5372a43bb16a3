"""Token unigram frequencies of one tokenizer: the U of SLOR and MORCELA (`scoring/linking.py`).

A sentence's unigram log-probability is the sum, over its scored tokens, of the log relative
frequency of each token id in a reference text tokenised with the model's own tokenizer. A token
the counts never saw counts as the rarest token they list (the floor): absence means "at most
this frequent", as in the word-frequency baseline (`scoring/unigram.py`).

They are counted from a text (`count_token_ids`: the text tokenised line by line with the
model's tokenizer, no special tokens) or read in ZhoBLiMP's layout (`unigram/<tokenizer>.json`
in their repository: a JSON object from token id, a string of digits, to relative frequency).
A tokenizer is known by `tokenizer_key`, a hash of its vocabulary, so the frequencies counted
once serve every model that shares it (the checkpoints of a series).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
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

    @classmethod
    def from_counts(cls, counts: Mapping[int, int], source: str) -> TokenFrequencies:
        """Return the relative frequencies of token counts.

        Raises:
            FrequencyError: when nothing was counted.
        """
        total = sum(counts.values())
        if total <= 0:
            raise FrequencyError(f"{source}: no token was counted (the text is empty)")
        return cls.of({token: n / total for token, n in counts.items() if n > 0}, source)

    def to_json(self) -> dict[str, float]:
        """Return the frequencies in ZhoBLiMP's layout (token id as text -> frequency)."""
        return {str(token): p for token, p in sorted(self.probabilities.items())}

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


def tokenizer_key(vocabulary: Mapping[str, int]) -> str:
    """Return the SHA-256 of a tokenizer's vocabulary (each token with its id): the same for
    every model that shares the tokenizer, different when an id means another token."""
    items = sorted((str(token), int(token_id)) for token, token_id in vocabulary.items())
    return hashlib.sha256(json.dumps(items, ensure_ascii=False).encode("utf-8")).hexdigest()


def count_token_ids(
    lines: Iterable[str],
    encode: Callable[[list[str]], Sequence[Sequence[int]]],
    *,
    batch: int = 1_000,
    progress: Callable[[int], None] | None = None,
) -> Counter[int]:
    """Return how often each token id occurs in the text `lines`, each line encoded by
    `encode` (a batch of lines to their ids, no special tokens), `batch` lines at a time;
    blank lines are skipped, and `progress(lines_read)` is called after each batch."""
    counts: Counter[int] = Counter()
    pending: list[str] = []
    read = 0

    def flush() -> None:
        for ids in encode(pending):
            counts.update(int(i) for i in ids)
        pending.clear()
        if progress is not None:
            progress(read)

    for line in lines:
        read += 1
        text = line.strip()
        if text:
            pending.append(text)
        if len(pending) >= batch:
            flush()
    if pending or read == 0:
        flush()
    return counts
