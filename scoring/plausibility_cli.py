"""`mpp plausibility`: score the good sentences of minimal pairs with a local causal model and print
the least plausible ones (mean log-prob per token, weakest token) for an author to review."""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any

from scoring.cli import (
    CommandFailure,
    Progress,
    add_data_format_arguments,
    data_language,
    print_issues,
    run_with_one_line_errors,
)
from scoring.data import read_items
from scoring.items import Sentence
from scoring.plausibility import DEFAULT_TOP, PLAUSIBILITY_WARNING, least_plausible
from scoring.registry import load_scorer
from scoring.settings import ScorerSettings, model_fingerprint


def cmd_plausibility(args: argparse.Namespace) -> int:
    """Run `mpp plausibility`; return 0, 1 (listed, but bad lines were skipped) or 2 (nothing listed)."""
    err = sys.stderr
    return run_with_one_line_errors(lambda: _run(args, sys.stdout, err), err, "the plausibility check")


def _run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    if args.top < 1:
        raise CommandFailure("--top must be at least 1")
    data = read_items(args.data, fmt=args.data_format, zorro_order=args.zorro_order)
    print_issues(data, err)
    if data.errors and not args.skip_bad_lines:
        raise CommandFailure(
            f"{len(data.errors):,} problem(s) in the data (listed above): fix them, or pass --skip-bad-lines "
            "to check the rest"
        )
    if not data.pairs:
        raise CommandFailure("nothing to check: the files hold no usable minimal pair")
    settings = ScorerSettings(
        method="causal",
        model=args.model,
        dtype=args.dtype,
        language=data_language(args, data),
        fingerprint=model_fingerprint(args.model),
        device=args.device,
    )
    # Each distinct good sentence once; it is named by the first pair that has it.
    first_item: dict[Sentence, str] = {}
    pairs_of: dict[Sentence, int] = {}
    for pair in data.pairs:
        first_item.setdefault(pair.good, pair.item_id)
        pairs_of[pair.good] = pairs_of.get(pair.good, 0) + 1
    sentences = list(first_item)
    print(f"scoring {len(sentences):,} distinct good sentence(s) with {args.model}", file=err)
    try:
        scorer = load_scorer(settings)
    except ModuleNotFoundError as exc:
        raise CommandFailure(f"the causal scorer is not available here: {exc}") from None
    results = scorer.score(sentences, progress=Progress(len(sentences), err))
    # Keyed by position: item ids are not always unique in released files.
    ranked = least_plausible(((str(i), r) for i, r in enumerate(results)), top=args.top)
    print(f"warning: {PLAUSIBILITY_WARNING}", file=err)
    print("mean_logprob\tweakest_token\tweakest_logprob\titem_id\tpairs\tsentence", file=out)
    for row in ranked:
        sentence = sentences[int(row.key)]
        print(
            f"{row.mean_logprob:.3f}\t{row.weakest.text.strip()}\t{row.weakest.logprob:.3f}\t"
            f"{first_item[sentence]}\t{pairs_of[sentence]}\t{row.text}",
            file=out,
        )
    print(f"listed the {len(ranked):,} least plausible of {len(sentences):,} good sentence(s)", file=err)
    return 1 if data.errors else 0


def add_plausibility_command(sub: Any) -> None:
    """Add `plausibility` to the `mpp` subcommands (`sub`: argparse's subparsers object)."""
    command = sub.add_parser(
        "plausibility",
        help="list the good sentences a local causal model finds least plausible, for review",
        description="Score each distinct good sentence once with a causal LM and print the least "
        "plausible ones, lowest mean log-probability per token first (the mean, so that long "
        "sentences are not listed for their length), with the weakest token of each. "
        f"{PLAUSIBILITY_WARNING}",
    )
    command.add_argument("data", nargs="+", metavar="FILE", help="pairs file, folder or zip")
    command.add_argument("--model", required=True, help="a local causal model folder (or a Hugging Face id)")
    command.add_argument(
        "--top", type=int, default=DEFAULT_TOP, help=f"sentences listed (default {DEFAULT_TOP})"
    )
    command.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N (speed only)")
    command.add_argument("--dtype", choices=("float32", "bfloat16", "float16"), default="float32")
    command.add_argument("--language", help="the data's language (default: the data's own)")
    add_data_format_arguments(command)
    command.add_argument(
        "--skip-bad-lines", action="store_true", help="check the usable pairs when some lines cannot be read"
    )
    command.set_defaults(func=cmd_plausibility)
