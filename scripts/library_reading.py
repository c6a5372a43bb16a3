"""The shipped library's native-speaker readings (issues 18 and 19): deal, tally, document.

A reading generates n pairs of every paradigm of one language with a seed not used before,
deals the paradigms to k readers by a hash of uid and seed, and has each reader fill the last
three columns of every row (right? / odd / why) and append a "## Reader's summary". This
script does the three mechanical steps around the readers:

    python scripts/library_reading.py deal en 20261228 --n 6 --readers 4 --out /tmp/read/en
    python scripts/library_reading.py tally /tmp/read/en
    python scripts/library_reading.py document /tmp/read/en --header H.md --after A.md --out D.md

`deal` writes reader1.md ... readerK.md (a section per paradigm: its template path and uid, its
description, and a table with the three columns empty). `tally` prints the summary table by
folder and the table by paradigm. `document` writes a docs/review page: the header (with
{{SUMMARY_TABLE}} replaced), "What was done after the reading", the readers' summaries, the
table by paradigm and the filled pairs.

Rubric: a row is right when its right? cell starts with "yes"; "no (borderline)" counts as not
right and is also counted as borderline; odd is "mild" or "clear" in the odd cell.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import re
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from mpp.cli import main as mpp_main

ROOT = Path(__file__).resolve().parent.parent
SECTION = re.compile(r"### (\S+)\s+\(`([^`]+)`\)")
ROW = re.compile(r"\|\s*\d+\s*\|")


@dataclass(frozen=True, slots=True)
class Row:
    """One filled row of a reader file."""

    reader: str
    path: str
    uid: str
    number: int
    good: str
    bad: str
    right: str
    odd: str
    why: str

    @property
    def is_right(self) -> bool:
        return self.right.startswith("yes")

    @property
    def is_borderline(self) -> bool:
        return "borderline" in self.right

    @property
    def is_odd(self) -> bool:
        return self.odd.startswith(("mild", "clear"))

    @property
    def folder(self) -> str:
        """The phenomenon folder under templates/<lang>/, or "(top level)"."""
        parts = self.path.split("/")
        return parts[2] if len(parts) > 3 else "(top level)"


def reader_for(uid: str, seed: int, readers: int) -> int:
    """Return the 0-based reader a paradigm is dealt to: a hash of uid and seed, so that no
    reader position gets the same paradigms in every reading."""
    digest = hashlib.sha256(f"{uid}:{seed}".encode()).hexdigest()
    return int(digest, 16) % readers


def deal(language: str, seed: int, n: int, readers: int, out: Path, root: Path = ROOT) -> list[int]:
    """Generate n pairs per paradigm of `language` with `seed` and write one reader file per
    reader into `out`; return the number of paradigms each reader got."""
    files = sorted((root / "templates" / language).rglob("*.yaml"))
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as generated:
        # mpp generate reports each paradigm as it goes; the reader counts are what matter here
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = mpp_main(
                ["generate", *map(str, files), "--n", str(n), "--seed", str(seed), "--out-dir", generated]
            )
        if status != 0:
            raise RuntimeError(f"mpp generate failed with exit code {status}")
        sections: list[list[str]] = [[] for _ in range(readers)]
        for path in files:
            template = yaml.safe_load(path.read_text(encoding="utf-8"))
            uid = str(template["uid"])
            pairs_file = next(Path(generated).rglob(f"{uid}.jsonl"))
            pairs = [json.loads(line) for line in pairs_file.read_text(encoding="utf-8").splitlines()]
            description = " ".join(str(template.get("description", "")).split())
            lines = [f"### {path.relative_to(root)}  (`{uid}`)", "", f"> {description}", ""]
            lines += ["| # | good | bad | right? | odd | why |", "|---|---|---|---|---|---|"]
            lines += [
                f"| {i} | {p['sentence_good']} | {p['sentence_bad']} |  |  |  |"
                for i, p in enumerate(pairs, 1)
            ]
            sections[reader_for(uid, seed, readers)].append("\n".join(lines) + "\n")
    for number, chosen in enumerate(sections, 1):
        (out / f"reader{number}.md").write_text("\n".join(chosen), encoding="utf-8")
    return [len(chosen) for chosen in sections]


def _reader_number(file: Path) -> str:
    return re.sub(r"\D", "", file.stem)


def _reader_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("reader*.md"), key=lambda p: int(_reader_number(p) or 0))


def read_rows(folder: Path) -> list[Row]:
    """Return every table row of the reader files in `folder` (reader1.md, reader2.md, ...)."""
    rows: list[Row] = []
    for file in _reader_files(folder):
        reader = _reader_number(file)
        path = uid = None
        for line in file.read_text(encoding="utf-8").splitlines():
            section = SECTION.match(line)
            if section:
                path, uid = section.group(1), section.group(2)
            elif line.startswith("## Reader"):
                path = uid = None
            elif path and uid and ROW.match(line):
                cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
                number, good, bad, right, odd = cells[:5]
                rows.append(
                    Row(
                        reader,
                        path,
                        uid,
                        int(number),
                        good,
                        bad,
                        right.lower(),
                        odd.lower(),
                        "|".join(cells[5:]),
                    )
                )
    return rows


def _line(name: str, rows: Sequence[Row]) -> str:
    n = len(rows)
    right = sum(r.is_right for r in rows)
    odd = sum(r.is_odd for r in rows)
    borderline = sum(r.is_borderline for r in rows)
    right_share, odd_share = 100 * right / n, 100 * odd / n
    return f"| {name} | {n} | {right} ({right_share:.1f} %) | {borderline} | {odd} ({odd_share:.1f} %) |"


def summary_table(rows: Sequence[Row]) -> str:
    """Return the Markdown table of pairs, right, borderline and odd, overall and by folder."""
    lines = ["| folder | pairs | right | not right, borderline | odd |", "|---|---:|---:|---:|---:|"]
    lines.append(_line("all", rows))
    for folder in sorted({r.folder for r in rows}):
        lines.append(_line(folder, [r for r in rows if r.folder == folder]))
    return "\n".join(lines)


def paradigm_table(rows: Iterable[Row]) -> str:
    """Return the Markdown table of each paradigm's pairs, right pairs and odd sentences."""
    by_uid: dict[str, list[Row]] = {}
    for row in rows:
        by_uid.setdefault(row.uid, []).append(row)
    lines = ["| paradigm | pairs | right | odd mild | odd clear |", "|---|---:|---:|---:|---:|"]
    for uid, chosen in by_uid.items():
        mild = sum(r.odd.startswith("mild") for r in chosen)
        clear = sum(r.odd.startswith("clear") for r in chosen)
        lines.append(f"| `{uid}` | {len(chosen)} | {sum(r.is_right for r in chosen)} | {mild} | {clear} |")
    return "\n".join(lines)


def document(folder: Path, header: str, after: str) -> str:
    """Return the docs/review page of the reading in `folder`."""
    rows = read_rows(folder)
    summaries, pairs = [], []
    for file in _reader_files(folder):
        body, _, summary = file.read_text(encoding="utf-8").partition("## Reader's summary")
        summaries.append(f"### Reader {_reader_number(file)}\n\n{summary.strip()}\n")
        pairs.append(body.strip() + "\n")
    page = header.replace("{{SUMMARY_TABLE}}", summary_table(rows))
    page += "\n## What was done after the reading\n\n" + after.strip() + "\n"
    page += "\n## The readers' summaries\n\n" + "\n".join(summaries)
    page += "\n## Per paradigm\n\n" + paradigm_table(rows) + "\n"
    page += "\n## The pairs\n\n" + "\n".join(pairs)
    return page


def main(argv: Sequence[str] | None = None) -> int:
    """Run `deal`, `tally` or `document` (see the module docstring)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    dealt = commands.add_parser("deal", help="generate the pairs and write the reader files")
    dealt.add_argument("language", choices=("en", "zh"))
    dealt.add_argument("seed", type=int)
    dealt.add_argument("--n", type=int, required=True, help="pairs per paradigm (6 for en, 4 for zh)")
    dealt.add_argument("--readers", type=int, default=4)
    dealt.add_argument("--out", type=Path, required=True)
    tally = commands.add_parser("tally", help="print the summary and per-paradigm tables")
    tally.add_argument("folder", type=Path)
    documented = commands.add_parser("document", help="write the docs/review page")
    documented.add_argument("folder", type=Path)
    documented.add_argument("--header", type=Path, required=True, help="Markdown with {{SUMMARY_TABLE}}")
    documented.add_argument("--after", type=Path, required=True, help="what was done after the reading")
    documented.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "deal":
        counts = deal(args.language, args.seed, args.n, args.readers, args.out)
        for number, count in enumerate(counts, 1):
            print(f"reader{number}: {count} paradigms")
        return 0
    if args.command == "tally":
        rows = read_rows(args.folder)
        unfilled = sum(1 for r in rows if not r.right or not r.odd)
        print(summary_table(rows))
        print()
        print(paradigm_table(rows))
        if unfilled:
            print(f"{unfilled} rows are not filled in yet", file=sys.stderr)
        return 0
    page = document(
        args.folder, args.header.read_text(encoding="utf-8"), args.after.read_text(encoding="utf-8")
    )
    args.out.write_text(page, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
