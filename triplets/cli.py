"""`mpp triplets`: learner corpus in (M2 or parallel text, optional metadata), BLiSS triplets out
(JSONL), with the yield report as JSON beside it and as text on stderr."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from formats.record import ImportIssue
from triplets.confusions import learn
from triplets.corpus import METADATA_FIELDS, LearnerPair
from triplets.other_errors import corrections_by_sentence
from triplets.pipeline import TripletSettings, run_pipeline
from triplets.readers import (
    MetadataColumns,
    ParallelColumns,
    attach_metadata,
    read_m2,
    read_metadata,
    read_parallel,
)
from triplets.report import YieldReport

SHOWN_ISSUES = 20  # issues printed one by one; the rest are counted
CHUNK = 2_000  # pairs processed at once (bounds memory: parses are kept per chunk only)


def _print_issues(issues: Sequence[ImportIssue], err: IO[str]) -> None:
    for issue in issues[:SHOWN_ISSUES]:
        print(issue, file=err)
    if len(issues) > SHOWN_ISSUES:
        print(f"... and {len(issues) - SHOWN_ISSUES} more issues", file=err)


def read_corpus(args: argparse.Namespace, err: IO[str]) -> list[LearnerPair] | None:
    """Return the pairs the arguments name (metadata attached), printing every issue; None when
    nothing could be read."""
    issues: list[ImportIssue] = []
    renamed = dict(args.column or [])
    if args.m2:
        result = read_m2(args.m2, annotator=args.annotator, corpus=args.corpus, ids=args.ids)
    else:
        columns = ParallelColumns(
            learner=args.learner_column, corrected=args.corrected_column, pair_id=args.id_column, **renamed
        )
        result = read_parallel(args.parallel, columns=columns, delimiter=args.delimiter, corpus=args.corpus)
    pairs, issues = result.pairs, list(result.issues)
    if args.meta and pairs:
        metadata = read_metadata(args.meta, columns=MetadataColumns(key=args.meta_key, **renamed))
        issues += metadata.issues
        attached = attach_metadata(pairs, metadata, key="pair_id" if args.join == "sentence" else "essay_id")
        pairs = attached.pairs
        issues += attached.issues
    _print_issues(issues, err)
    if not pairs:
        print("error: no sentence pair could be read (see the issues above)", file=err)
        return None
    return pairs


def _column(text: str) -> tuple[str, str]:
    field, sep, name = text.partition("=")
    if not sep or field not in METADATA_FIELDS or not name:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected FIELD=COLUMN with FIELD one of {', '.join(METADATA_FIELDS)}"
        )
    return field, name


PROGRESS_STEPS = 20  # a corpus smaller than 20 chunks is still reported about this often
SMALLEST_CHUNK = 50  # below it, parsing in batches loses its speed


def progress_chunk(total: int, chunk: int) -> int:
    """Return how many pairs to process at once: `chunk` (memory), or fewer so that a small
    corpus reports its progress about PROGRESS_STEPS times (never under SMALLEST_CHUNK).
    The triplets do not depend on it: every decision depends on the pair and the seed only."""
    return max(1, min(chunk, max(SMALLEST_CHUNK, math.ceil(total / PROGRESS_STEPS))))


def _chunks(pairs: Sequence[LearnerPair], size: int) -> Iterator[Sequence[LearnerPair]]:
    for start in range(0, len(pairs), size):
        yield pairs[start : start + size]


def cmd_triplets(args: argparse.Namespace) -> int:
    """Run the pipeline over the corpus; return the exit code (0 ok, 2 unreadable input)."""
    err = sys.stderr
    for name in ("m2", "parallel", "meta", "ids"):
        path = getattr(args, name, None)
        if path and not Path(path).is_file():
            print(f"error: --{name} {path}: no such file", file=err)
            return 2
    if args.meta and args.join == "sentence" and args.meta_key == "essay_id":
        print(
            "error: --join sentence: name the metadata table's sentence id column with --meta-key", file=err
        )
        return 2
    out = Path(args.out)
    report_path = Path(args.report) if args.report else out.with_suffix(".report.json")
    for name, path in (("out", out), ("report", report_path)):
        # Said before the corpus is read, not as a traceback after it.
        if not path.parent.is_dir():
            print(f"error: --{name} {path}: the folder {path.parent} does not exist", file=err)
            return 2
        if path.is_dir():
            print(f"error: --{name} {path}: that is a folder; name a file in it", file=err)
            return 2
    pairs = read_corpus(args, err)
    if pairs is None:
        return 2
    settings = TripletSettings(
        seed=args.seed, strict=not args.all_rules, max_tries=args.max_tries, batch_size=args.batch_size
    )
    report = YieldReport()
    started = time.perf_counter()
    confusions = learn(pairs)  # from the whole corpus, so the chunks do not change the triplets
    print(
        f"learnt {len(confusions.seen)} learner confusions from {confusions.pairs} pairs "
        f"({time.perf_counter() - started:.1f} s)",
        file=err,
    )
    other_corrections = corrections_by_sentence(pairs)  # a sentence's rows may fall in two chunks
    with out.open("w", encoding="utf-8") as stream:
        for chunk in _chunks(pairs, progress_chunk(len(pairs), args.chunk)):
            result = run_pipeline(chunk, settings, confusions=confusions, other_corrections=other_corrections)
            for triplet in result.triplets:
                stream.write(json.dumps(triplet.record(), ensure_ascii=False) + "\n")
            report.merge(result.report)
            print(
                f"{report.pairs_in} / {len(pairs)} pairs, {report.total_triplets} triplets "
                f"({time.perf_counter() - started:.1f} s)",
                file=err,
            )
    summary: dict[str, Any] = {"settings": settings.to_dict(), **report.to_dict()}
    report_path.write_text(json.dumps(summary, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(report.summary(), file=err)
    print(f"wrote {report.total_triplets} triplets to {out} and the yield report to {report_path}", file=err)
    return 0


def add_triplets_command(sub: Any) -> None:
    """Add `triplets` to the `mpp` subcommands (`sub`: argparse's subparsers object)."""
    parser = sub.add_parser(
        "triplets",
        help="BLiSS triplets (corrected, learner error, artificial error) from a learner corpus",
        description="Annotate learner pairs with ERRANT, keep one grammatical error per sentence, make an "
        "artificial error of the same type at another position, validate it (real words, ERRANT finds "
        "exactly that one edit), and write the triplets as JSONL with a yield report.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--m2", metavar="FILE", help="an M2 file (FCE, W&I+LOCNESS style)")
    source.add_argument(
        "--parallel", metavar="FILE", help="a TSV/CSV table with learner and corrected columns"
    )
    parser.add_argument(
        "--meta", metavar="FILE", help="a metadata table (learner_id, l1, cefr, topic, corpus)"
    )
    parser.add_argument("--meta-key", default="essay_id", help="the metadata column pairs are joined on")
    parser.add_argument(
        "--join",
        choices=("essay", "sentence"),
        default="essay",
        help="join metadata by the pair's essay id (default) or its sentence id",
    )
    parser.add_argument("--out", required=True, help="the triplets JSONL file to write")
    parser.add_argument("--report", help="the yield report JSON (default: OUT with .report.json)")
    parser.add_argument(
        "--column",
        action="append",
        type=_column,
        metavar="FIELD=COLUMN",
        help="the column a metadata field is read from, e.g. cefr=human_cefr or learner_id=public_user_id "
        "(repeatable; for the parallel table and the metadata table)",
    )
    parser.add_argument("--annotator", type=int, default=0, help="M2: whose edits make the correction")
    parser.add_argument("--ids", metavar="FILE", help="M2: a file of sentence ids, one per S block")
    parser.add_argument("--corpus", default="", help="the corpus name recorded with every triplet")
    parser.add_argument("--learner-column", default="learner")
    parser.add_argument("--corrected-column", default="corrected")
    parser.add_argument("--id-column", default="", help="sentence id column (default: numbered by row)")
    parser.add_argument("--delimiter", help="table delimiter (default: by extension, tab for .tsv)")
    parser.add_argument("--seed", type=int, default=0, help="orders the candidates (default 0)")
    parser.add_argument(
        "--all-rules",
        action="store_true",
        help="also use rules whose context does not force an error (more triplets, some still grammatical)",
    )
    parser.add_argument("--max-tries", type=int, default=20, help="candidates validated per pair at most")
    parser.add_argument("--batch-size", type=int, default=256, help="sentences per spaCy batch (speed only)")
    parser.add_argument("--chunk", type=int, default=CHUNK, help="pairs processed at once (memory only)")
    parser.set_defaults(func=cmd_triplets)
