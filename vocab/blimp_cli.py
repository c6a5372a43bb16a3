"""The `mpp vocab import-blimp` command: BLiMP's vocabulary.csv -> our CSV and schema, with a report."""

from __future__ import annotations

import argparse
from pathlib import Path

from vocab.blimp_import import import_blimp_vocabulary
from vocab.import_report import count_levels
from vocab.io import write_vocabulary


def add_import_blimp_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],  # argparse has no public name
) -> None:
    """Add `import-blimp` to the `vocab` subcommands."""
    parser = commands.add_parser(
        "import-blimp", help="convert BLiMP's vocabulary.csv into a vocabulary with a schema, and report"
    )
    parser.add_argument("file", type=Path, help="BLiMP vocabulary.csv")
    parser.add_argument("--out", type=Path, required=True, help="vocabulary file to write (.csv or .tsv)")
    parser.add_argument("--name", help="vocabulary name (default: the output file's stem)")


def import_blimp(args: argparse.Namespace) -> int:
    """Run `vocab import-blimp`; print the report; return 0.

    Raises:
        VocabularyError: if the file cannot be used at all (the `vocab` command prints it).
        OSError: if a file cannot be read or written.
    """
    result = import_blimp_vocabulary(
        args.file.read_bytes(), file_name=args.file.name, name=args.name or args.out.stem
    )
    for note in result.notes:
        print(note)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_vocabulary(result.vocabulary, args.out)
    counts = count_levels(result.notes)
    schema = args.out.with_name(f"{args.out.stem}.schema.yaml")
    features = len(result.vocabulary.schema.features)
    print(
        f"{args.file.name}: {len(result.vocabulary)} items, {features} features "
        f"written to {args.out} and {schema.name}; report: {counts['skipped']} skipped, "
        f"{counts['changed']} changed, {counts['info']} info"
    )
    return 0
