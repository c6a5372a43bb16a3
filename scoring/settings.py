"""How a sentence is scored: the model, the method and the numerics. Its `key()` names a score
configuration; per-sentence scores are stored once per (key, sentence)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from scoring.errors import ScoringError

# Bump when a change to the scorers changes any stored number: old scores then no longer match.
SCORING_VERSION = "1"

Method = Literal["causal", "holistic", "pll", "pll_word_l2r", "unigram"]
DType = Literal["float32", "bfloat16", "float16"]


@dataclass(frozen=True, slots=True)
class ScorerSettings:
    """One scorer configuration.

    `model` is a Hugging Face id or a local folder (for `unigram`: unused, `language` picks the
    wordfreq list). `revision` is a hub revision (branch, tag or commit); a checkpoint folder is
    simply another `model` path. `dtype` is the weights' precision; the log-softmax normaliser is
    always computed in float32. `score_eos` adds the end-of-sentence token's log-prob (causal
    only; off by default, as a prefix probability). `device` ("auto", "cpu", "cuda", "cuda:1")
    and `token_budget` (tokens per forward pass) change speed, never results, so they are not
    part of the key.
    """

    method: Method
    model: str = ""
    revision: str | None = None
    dtype: DType = "float32"
    score_eos: bool = False
    language: str = "en"
    # For a local folder: `model_fingerprint(model)`, so replaced weights never reuse old scores.
    fingerprint: str = ""
    device: str = field(default="auto", compare=False)
    token_budget: int = field(default=8192, compare=False)

    def identity(self) -> dict[str, object]:
        """Return the fields that determine the numbers (not device or batch size)."""
        data = asdict(self)
        data.pop("device")
        data.pop("token_budget")
        data["scoring_version"] = SCORING_VERSION
        return data

    def key(self) -> str:
        """Return a stable hex digest of `identity()`."""
        blob = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()


# A model folder holds a few dozen files; walking more means the path is not a model folder
# (a home directory, "/"), and the walk must not stall a web request or a worker.
FINGERPRINT_MAX_FILES = 10_000


def model_fingerprint(model: str) -> str:
    """Return a digest of a local model folder's file names, sizes and modification times, or ""
    for a hub id (its `revision` pins it instead).

    Raises:
        ScoringError: the folder holds more than FINGERPRINT_MAX_FILES files (not a model folder).
    """
    folder = Path(model).expanduser()
    if not folder.is_dir():
        return ""
    entries: list[tuple[str, int, int]] = []
    for path in folder.rglob("*"):
        if not path.is_file():
            continue
        if len(entries) >= FINGERPRINT_MAX_FILES:
            raise ScoringError(
                f"'{model}' holds more than {FINGERPRINT_MAX_FILES:,} files: it is not a model folder"
            )
        stat = path.stat()
        entries.append((str(path.relative_to(folder)), stat.st_size, stat.st_mtime_ns))
    entries.sort()
    return hashlib.sha256(json.dumps(entries).encode("utf-8")).hexdigest()[:16]
