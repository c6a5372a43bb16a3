"""The `mpp` command line: validate templates, preview and generate pairs, manage vocabularies,
import, convert, report, score and make learner triplets, each from its engine's command module."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from formats.cli import add_convert_command
from generator.catalog import add_catalog_command
from generator.cli import add_generator_commands
from generator.importers.cli import add_import_commands
from generator.report_cli import add_report_command
from scoring.cli import add_score_command
from scoring.plausibility_cli import add_plausibility_command
from triplets.cli import add_triplets_command
from vocab.cli import add_vocab_commands


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the `mpp` command."""
    parser = argparse.ArgumentParser(
        prog="mpp", description="MPP Studio: minimal-pair benchmarks from grammar templates and vocabularies."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    add_generator_commands(sub)
    add_vocab_commands(sub)
    add_import_commands(sub)
    add_convert_command(sub)
    add_report_command(sub)
    add_catalog_command(sub)
    add_score_command(sub)
    add_plausibility_command(sub)
    add_triplets_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `mpp` command; return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "n", 1) is not None and getattr(args, "n", 1) < 1:
        parser.error("--n must be at least 1")
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
