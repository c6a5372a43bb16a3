"""`mpp convert`: read released datasets (BLiMP, ZhoBLiMP, Zorro) and write them in another format,
printing every line that could not be taken as it was."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from formats.blimp import blimp_lines
from formats.hf import hf_folder_write
from formats.record import ReadResult
from formats.sources import FORMATS, path_sources, read_sources
from formats.table import csv_text_lines
from formats.uid_files import bytes_write, jsonl_folder_write
from formats.zhoblimp import zhoblimp_lines
from formats.zorro import ORDERS

TARGETS = ("blimp", "zhoblimp", "csv", "hf")
# The JSONL layouts that are one file per paradigm when --out is a folder, as the benchmarks ship.
JSONL_WRITERS: dict[str, Callable[[Iterable[Mapping[str, object]]], Iterable[bytes]]] = {
    "blimp": blimp_lines,
    "zhoblimp": zhoblimp_lines,
}


def print_report(result: ReadResult, out: Any = None) -> None:
    """Print each file's outcome and every issue (file, line, field; skipped or kept) to `out`
    (standard error by default)."""
    out = out if out is not None else sys.stderr
    for issue in result.issues:
        print(str(issue), file=out)
    for read in result.files:
        fmt = read.format or "unknown format"
        print(
            f"{read.file}: {fmt}, {read.pairs:,} pair(s), "
            f"{read.errors:,} error(s), {read.warnings:,} warning(s)",
            file=out,
        )
    print(
        f"read {len(result.pairs):,} pairs from {len(result.files)} file(s): "
        f"{len(result.errors):,} error(s) (item skipped), {len(result.warnings):,} warning(s) (item kept)",
        file=out,
    )


def is_folder_target(out: str) -> bool:
    """Return whether `--out` names a folder: one that exists, or a path ending in `/`."""
    return out.endswith(("/", os.sep)) or Path(out).is_dir()


def _encoded(lines: Iterable[str]) -> Iterator[bytes]:
    for line in lines:
        yield line.encode("utf-8")


def cmd_convert(args: argparse.Namespace) -> int:
    """Read the inputs, write them as `--to`; return 0, 1 (some items skipped) or 2 (nothing read)."""
    sources, missing = path_sources(args.inputs, portable_names=True)  # no local path in any output
    result = read_sources(sources, args.source_format, args.zorro_order)
    result.issues[:0] = missing
    print_report(result)
    if not result.pairs:
        print("error: nothing to write: no file gave a usable pair", file=sys.stderr)
        return 2
    records = [pair.record() for pair in result.pairs]
    target = Path(args.out)
    try:
        if args.to == "hf":
            if target.exists() and not target.is_dir():
                print(
                    f"error: --out {target} is a file; the Hugging Face export is a folder", file=sys.stderr
                )
                return 2
            files = hf_folder_write(records, target, target.name)
            print(
                f"wrote {len(records):,} pairs in {len(files)} Parquet file(s) to {target}/", file=sys.stderr
            )
        elif is_folder_target(args.out):
            if args.to not in JSONL_WRITERS:
                print(f"error: --out {args.out} is a folder; --to {args.to} writes one file", file=sys.stderr)
                return 2
            files = jsonl_folder_write(records, target, JSONL_WRITERS[args.to])
            print(
                f"wrote {len(records):,} pairs in {len(files)} file(s), one per UID, to {target}/",
                file=sys.stderr,
            )
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            if args.to in JSONL_WRITERS:
                bytes_write(JSONL_WRITERS[args.to](records), target)
            else:
                bytes_write(_encoded(csv_text_lines(records)), target)
            print(f"wrote {len(records):,} pairs to {target}", file=sys.stderr)
    except OSError as exc:
        print(f"error: could not write {target}: {exc}", file=sys.stderr)
        return 2
    return 1 if result.errors or missing else 0


def add_convert_command(sub: Any) -> None:
    """Add `convert` to the `mpp` subcommands (`sub`: argparse's subparsers object)."""
    convert = sub.add_parser(
        "convert",
        help="convert released datasets (BLiMP, ZhoBLiMP, Zorro) to BLiMP/ZhoBLiMP JSONL, CSV or Parquet",
        description="Read released minimal-pair datasets and write them in another format. Every line "
        "that could not be read is printed with its file and line; the rest is converted.",
    )
    convert.add_argument("inputs", nargs="+", metavar="IN", help="files, folders or zip archives")
    convert.add_argument(
        "--from",
        dest="source_format",
        choices=("auto", *FORMATS),
        default="auto",
        help="the inputs' format (default: told from each file's name and first line)",
    )
    convert.add_argument(
        "--zorro-order",
        choices=ORDERS,
        default="bad-first",
        help="Zorro line order: bad-first as in phueb/Zorro (default), good-first as in phueb/UnMasked",
    )
    convert.add_argument("--to", required=True, choices=TARGETS, help="the output format")
    convert.add_argument(
        "--out",
        required=True,
        help="the output file (blimp, zhoblimp, csv) or folder (hf); for blimp and zhoblimp, a folder "
        "(one that exists, or a path ending in /) gets one <UID>.jsonl per paradigm",
    )
    convert.set_defaults(func=cmd_convert)
