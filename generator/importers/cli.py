"""The `mpp import` command: convert another benchmark's sources into our layout, with a report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.importers.zhoblimp import SourceFile, ZhoblimpImport, import_zhoblimp, write_import
from generator.importers.zhoblimp_compare import compare_import, read_released, report_lines
from vocab.errors import VocabularyError
from vocab.import_report import count_levels

EXIT_OK, EXIT_NOTHING, EXIT_BAD_INPUT = 0, 1, 2


def add_import_commands(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],  # argparse has no public name
) -> argparse.ArgumentParser:
    """Add `import` and its subcommands to `subparsers`; return the `import` parser."""
    parser = subparsers.add_parser("import", help="convert another benchmark's sources into templates")
    formats = parser.add_subparsers(dest="import_format", metavar="FORMAT", required=True)
    zho = formats.add_parser(
        "zhoblimp",
        help="ZhoBLiMP template JSONs, vocabulary TSV and/or phrase JSON -> templates, vocabulary, phrases",
    )
    zho.add_argument(
        "--templates",
        nargs="+",
        default=[],
        metavar="FILE_OR_DIR",
        help="template .json files or folders (leave out to import only --vocab and/or --phrases)",
    )
    zho.add_argument("--vocab", type=Path, help="vocabulary TSV (zh_vocab_saved.tsv layout)")
    zho.add_argument("--phrases", type=Path, help="phrase JSON (zh_phrase.json layout)")
    zho.add_argument("--out", type=Path, required=True, help="folder for zh/, vocabularies/ and phrases/")
    zho.add_argument(
        "--compare",
        type=Path,
        metavar="RELEASED_DIR",
        help="ZhoBLiMP's released JSONL files (a folder, searched recursively): rebuild each UID and "
        "compare it with the release (docs/importing.md)",
    )
    zho.add_argument(
        "--seeds",
        type=int,
        nargs="+",
        default=[1, 2],
        metavar="SEED",
        help="seeds to rebuild each UID with for --compare (default: 1 2)",
    )
    zho.add_argument(
        "--summary", action="store_true", help="with --compare: one line per UID, not the profiles"
    )
    zho.set_defaults(func=cmd_import_zhoblimp)
    return parser


def _template_files(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        found += sorted(path.rglob("*.json")) if path.is_dir() else [path]
    return found


def _source(path: Path) -> SourceFile:
    return SourceFile(path.name, path.read_bytes())


def cmd_import_zhoblimp(args: argparse.Namespace) -> int:
    """Run `mpp import zhoblimp`; print the report; return 0, 1 (nothing imported) or 2.

    Without --templates, what is imported is the vocabulary and/or the phrases given.
    """
    if not (args.templates or args.vocab or args.phrases):
        print("error: give --templates, --vocab or --phrases (or several)", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        files = _template_files(args.templates)
        if args.templates and not files:
            print(f"error: no .json template files in {', '.join(args.templates)}", file=sys.stderr)
            return EXIT_BAD_INPUT
        templates = [_source(p) for p in files]
        vocabulary = _source(args.vocab) if args.vocab else None
        phrases = _source(args.phrases) if args.phrases else None
    except OSError as exc:
        print(f"error: cannot read '{exc.filename}': {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    result = import_zhoblimp(templates, vocabulary=vocabulary, phrases=phrases)
    for note in result.notes:
        print(note)
    try:
        written = write_import(result, args.out)
    except (OSError, VocabularyError) as exc:
        print(f"error: cannot write the import: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    counts = count_levels(result.notes)
    vocab_size = f"{len(result.vocabulary)} items" if result.vocabulary is not None else "none"
    print(
        f"imported {len(result.templates)} of {len(templates)} template file(s), "
        f"{len(result.phrases)} phrase(s), vocabulary: {vocab_size}; "
        f"report: {counts['skipped']} skipped, {counts['changed']} changed, {counts['info']} info; "
        f"{len(written)} file(s) written under {args.out}"
    )
    if not args.templates:
        return EXIT_OK if result.vocabulary is not None or result.phrases else EXIT_NOTHING
    if args.compare is not None:
        return _compare(result, args) if result.templates else EXIT_NOTHING
    return EXIT_OK if result.templates else EXIT_NOTHING


def _compare(result: ZhoblimpImport, args: argparse.Namespace) -> int:
    """Print the comparison of the rebuilt UIDs with the released files under `args.compare`."""
    if result.vocabulary is None:
        print("error: --compare needs --vocab: the templates cannot be rebuilt without it", file=sys.stderr)
        return EXIT_BAD_INPUT
    folder: Path = args.compare
    try:
        files = sorted(folder.rglob("*.jsonl")) if folder.is_dir() else []
        read = [(str(p.relative_to(folder)), p.read_bytes()) for p in files]
    except OSError as exc:
        print(f"error: cannot read '{exc.filename}': {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not read:
        print(f"error: no .jsonl files under {folder}", file=sys.stderr)
        return EXIT_BAD_INPUT
    released, problems = read_released(read)
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"comparing {len(released)} released UIDs under seeds {', '.join(map(str, args.seeds))}")
    report = compare_import(result, released, args.seeds)
    for line in report_lines(report, detail=not args.summary):
        print(line)
    return EXIT_OK
