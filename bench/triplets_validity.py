"""Benchmark: how many artificial errors a stock ERRANT re-check finds valid, ours beside another
generator's on the same learner pairs.

What it does:
1. Reads our triplets (`mpp triplets` JSONL: `corrected`, `artificial_error`, `error_type`) and,
   optionally, another generator's output in the BLiSS toolkit's JSON layout (a list of records
   with `corrected_full_sentence`, `artificial_error`, `error_type_errant`), e.g. the BLiSS
   authors' published Write & Improve dev file.
2. Re-checks every artificial sentence with ERRANT as users load it (`errant.load("en",
   spacy.load(SPACY_MODEL))`, nothing of the engine's own annotator): both sentences parsed from
   their written text, artificial -> corrected. Valid: exactly one edit, of the stated type.
3. Prints, per generator, the records read, the valid count and share, per type, and the ratio of
   valid counts (ours / theirs; the learner-triplet target is >= 1.2 on the same pairs).

No corpus is committed with it: pass the files on the command line.

Run: PYTHONPATH=platform:. .venv/bin/python bench/triplets_validity.py OURS.jsonl [--theirs BLISS.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@dataclass(slots=True)
class Tally:
    """Records read and found valid, in all and per ERRANT type."""

    read: Counter[str] = field(default_factory=Counter)
    valid: Counter[str] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return sum(self.read.values())

    @property
    def total_valid(self) -> int:
        return sum(self.valid.values())


def _checker() -> Any:
    import errant
    import spacy

    from triplets.annotate import SPACY_MODEL

    return errant.load("en", spacy.load(SPACY_MODEL))


def recheck(records: list[tuple[str, str, str]], annotator: Any) -> Tally:
    """Return the tally of (corrected, artificial, error type) records re-checked by ERRANT."""
    tally = Tally()
    for corrected, artificial, error_type in records:
        tally.read[error_type] += 1
        if not artificial or artificial == corrected:
            continue
        orig = annotator.parse(artificial, tokenise=True)
        cor = annotator.parse(corrected, tokenise=True)
        edits = annotator.annotate(orig, cor)
        if len(edits) == 1 and edits[0].type == error_type:
            tally.valid[error_type] += 1
    return tally


def ours(path: Path) -> list[tuple[str, str, str]]:
    """Return (corrected, artificial, type) of each triplet of an `mpp triplets` JSONL file."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            found.append((record["corrected"], record["artificial_error"], record["error_type"]))
    return found


def theirs(path: Path) -> list[tuple[str, str, str]]:
    """Return (corrected, artificial, type) of each record of a BLiSS-toolkit JSON file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        (r["corrected_full_sentence"], r.get("artificial_error") or "", r["error_type_errant"]) for r in data
    ]


def _print(name: str, tally: Tally) -> None:
    share = tally.total_valid / tally.total if tally.total else 0.0
    print(f"{name}: {tally.total_valid} of {tally.total} valid ({share:.1%})")
    for error_type, n in tally.read.most_common():
        print(f"  {error_type:14} {tally.valid[error_type]:5} / {n}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ours", type=Path, help="our triplets (mpp triplets JSONL)")
    parser.add_argument("--theirs", type=Path, help="another generator's output (BLiSS toolkit JSON)")
    args = parser.parse_args()
    annotator = _checker()
    mine = recheck(ours(args.ours), annotator)
    _print(f"ours ({args.ours.name})", mine)
    if args.theirs:
        other = recheck(theirs(args.theirs), annotator)
        _print(f"theirs ({args.theirs.name})", other)
        ratio = mine.total_valid / other.total_valid if other.total_valid else float("inf")
        print(f"valid count ours / theirs: {ratio:.2f}x (target >= 1.2)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
