"""`mpp report`: the quality report of each paradigm in templates or JSONL files.

Templates (files or folders) are generated in memory with the engine (`--n` pairs, `--seed`);
`.jsonl` files are read as records (the engine's, BLiMP's or ZhoBLiMP's lines), one paradigm per
`UID`; Zorro's `.txt` files (and `.zip` archives of released files) are read with
`formats`. Exit codes: 0 done; 2 an input could not be used (each problem on stderr,
naming the file and line).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson

from formats.sources import path_sources, read_sources
from formats.zorro import ORDERS, Order
from generator.errors import GenerationError, TemplateError
from generator.generate import Generator
from generator.library import VocabularyCache, find_templates, load_with_vocabulary
from generator.quality import (
    FrequencyLookup,
    QualityInputError,
    QualityPair,
    QualityReport,
    group_records,
    quality_report,
)
from vocab.coverage import Tokenizer, load_tokenizer
from vocab.errors import CoverageError
from vocab.frequency import FREQUENCY_SOURCES, source_frequencies

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def add_report_command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],  # argparse has no public name
) -> argparse.ArgumentParser:
    """Add the `report` command to `subparsers`; parsed arguments carry `func=cmd_report`."""
    report = subparsers.add_parser(
        "report",
        help="quality report per paradigm: length, tokens, frequency bias, repeated words, OOV",
        description=(
            "Quality report per paradigm. TEMPLATE_OR_JSONL: template files or folders (generated "
            "in memory) or .jsonl files of pairs (engine records or BLiMP-style lines)."
        ),
    )
    report.add_argument("paths", nargs="+", metavar="TEMPLATE_OR_JSONL")
    report.add_argument("--n", type=int, default=1000, help="pairs to generate per template (default 1000)")
    report.add_argument("--seed", type=int, default=0)
    report.add_argument("--tokenizer", help="local tokenizer folder (AutoTokenizer.from_pretrained)")
    report.add_argument(
        "--frequency-source",
        choices=FREQUENCY_SOURCES,
        default="wordfreq",
        help="frequencies of the critical words (default wordfreq; spoken/written: English only)",
    )
    report.add_argument(
        "--language",
        default="",
        help="language of pairs that do not say (default: zh for sentences with Han characters, else en)",
    )
    report.add_argument(
        "--zorro-order",
        choices=ORDERS,
        default="bad-first",
        help="which sentence of each pair comes first in Zorro .txt files (default bad-first)",
    )
    report.add_argument("--json", type=Path, metavar="OUT", help="also write the reports as a JSON list")
    report.set_defaults(func=cmd_report)
    return report


def cmd_report(args: argparse.Namespace) -> int:
    """Print a quality report per paradigm (and write them as JSON with --json); return the exit code."""
    tokenizer: Tokenizer | None = None
    if args.tokenizer:
        try:
            tokenizer = load_tokenizer(args.tokenizer)
        except CoverageError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
    failures = 0
    reports: list[QualityReport] = []
    for path in args.paths:
        try:
            for uid, language, pairs in _paradigms(Path(path), args):
                report = quality_report(
                    pairs,
                    uid=uid,
                    language=language,
                    tokenizer=tokenizer,
                    tokenizer_name=args.tokenizer or "",
                    frequencies=_lookup(args.frequency_source, language),
                    frequency_source=args.frequency_source,
                )
                reports.append(report)
                print(report.render_text())
                print()
        except (TemplateError, GenerationError) as exc:
            problems = exc.problems if isinstance(exc, TemplateError) else [exc.problem]
            for problem in problems:
                print(f"error [{problem.code}] {problem}", file=sys.stderr)
            failures += 1
        except QualityInputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            failures += 1
        except OSError as exc:
            print(f"error: cannot read '{path}': {exc.strerror or exc}", file=sys.stderr)
            failures += 1
    if args.json is not None:
        args.json.write_bytes(
            orjson.dumps([r.to_dict() for r in reports], option=orjson.OPT_INDENT_2) + b"\n"
        )
        print(f"wrote {len(reports)} report(s) to {args.json}", file=sys.stderr)
    return EXIT_BAD_INPUT if failures else EXIT_OK


def _lookup(source: str, language: str) -> FrequencyLookup:
    def lookup(words: Sequence[str]) -> Mapping[str, float]:
        return source_frequencies(source, words, language)

    return lookup


def _paradigms(path: Path, args: argparse.Namespace) -> Iterator[tuple[str, str, list[QualityPair]]]:
    """Yield (uid, language, pairs) for each paradigm in a JSONL file or a template path."""
    if path.suffix.lower() in (".txt", ".zip"):
        groups = group_records(_released_records(path, args.zorro_order), path.stem, args.language)
        for uid, (language, pairs) in groups.items():
            yield uid, language, pairs
        return
    if path.suffix == ".jsonl":
        groups = group_records(_jsonl_records(path), path.stem, args.language)
        for uid, (language, pairs) in groups.items():
            yield uid, language, pairs
        return
    files = find_templates([path])
    if not files:
        raise QualityInputError(f"{path}: no template files or .jsonl pairs found")
    cache = VocabularyCache()
    for file in files:
        template, vocabulary = load_with_vocabulary(file, cache)
        generator = Generator(template, vocabulary)
        records = (
            (f"{file}, pair {pair.index}", generator.record(pair, args.seed))
            for pair in generator.pairs(args.n, args.seed)
        )
        for uid, (language, pairs) in group_records(records, template.uid, template.language).items():
            yield uid, language, pairs


def _released_records(path: Path, order: Order) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Yield the pairs of a released dataset file (Zorro .txt, or a .zip of released files).

    Every issue the reader meets is printed to stderr, item by item; the pairs it could read
    are reported on, as an import would keep them.

    Raises:
        QualityInputError: if the file gives no pair at all.
    """
    sources, missing = path_sources([path])
    result = read_sources(sources, "auto", order)
    issues = [*missing, *result.issues]
    for issue in issues:
        print(issue, file=sys.stderr)
    if not result.pairs:
        raise QualityInputError(f"{path}: no pairs could be read")
    skipped = sum(1 for issue in issues if issue.skipped)
    if skipped:
        print(
            f"{path}: {skipped} item(s) skipped; reporting on the {len(result.pairs)} pairs read",
            file=sys.stderr,
        )
    for pair in result.pairs:
        yield f"{pair.file}, line {pair.line}", pair.record()


def _jsonl_records(path: Path) -> Iterator[tuple[str, Mapping[str, Any]]]:
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                raise QualityInputError(f"{path}, line {number}: not JSON ({exc})") from None
            if not isinstance(record, dict):
                raise QualityInputError(f"{path}, line {number}: a line must be a JSON object")
            yield f"{path}, line {number}", record


def main(argv: Sequence[str] | None = None) -> int:
    """Run `report ...` from `argv` (for `python -m generator.report_cli`); return the exit code."""
    parser = argparse.ArgumentParser(prog="mpp")
    add_report_command(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
