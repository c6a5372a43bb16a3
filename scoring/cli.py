"""`mpp score`: score minimal pairs or BLiSS triplets with a language model (or the unigram
baseline), writing one JSON line per item and a metrics summary.

Each distinct sentence is scored once. The per-item file holds every sentence's token scores
and its sum / mean / BPT reductions, so other metrics can be computed later without the model.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import orjson

from formats.zorro import ORDERS
from scoring.data import FORMATS, PairItem, ScoringData, TripletItem, read_items
from scoring.errors import ScoringError
from scoring.items import REDUCTIONS, Sentence, SentenceScore
from scoring.linking import LinkingError, LinkingFunction, parse_linking
from scoring.metrics import DEFAULT_TIE_TOLERANCE, PairReport, PairScores, pair_outcome, pair_report
from scoring.registry import METHODS, TokenIdScorer, load_scorer
from scoring.settings import ScorerSettings, model_fingerprint
from scoring.token_frequencies import FrequencyError, TokenFrequencies, read_zhoblimp_frequencies
from scoring.triplet_metrics import (
    DEFAULT_MIN_SLICE,
    DEFAULT_TAU,
    TripletScores,
    triplet_outcomes,
    triplet_report,
)

MAX_ISSUES_SHOWN = 50  # issues printed before the rest are only counted (all are in the summary)
PROGRESS_SECONDS = 2.0


class Progress:
    """Prints "scored N / M sentences" to stderr, at most every PROGRESS_SECONDS and at the end."""

    def __init__(self, total: int, out: IO[str]) -> None:
        self.total = total
        self.out = out
        self.started = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int) -> None:
        now = time.perf_counter()
        if done < self.total and now - self.last < PROGRESS_SECONDS:
            return
        self.last = now
        rate = done / max(now - self.started, 1e-9)
        print(f"scored {done:,} / {self.total:,} sentences ({rate:,.0f}/s)", file=self.out, flush=True)


class CommandFailure(Exception):
    """A problem the user can fix; the message is printed as `error: ...`."""


def print_issues(data: ScoringData, out: IO[str]) -> None:
    """Print the data's first issues and each file's counts to `out` (the rest are counted)."""
    for issue in data.issues[:MAX_ISSUES_SHOWN]:
        print(str(issue), file=out)
    if len(data.issues) > MAX_ISSUES_SHOWN:
        print(
            f"... and {len(data.issues) - MAX_ISSUES_SHOWN:,} more issue(s), listed in the summary", file=out
        )
    for read in data.files:
        print(
            f"{read.file}: {read.format or 'unknown format'}, {read.pairs:,} item(s), "
            f"{read.errors:,} error(s), {read.warnings:,} warning(s)",
            file=out,
        )


def data_language(args: argparse.Namespace, data: ScoringData) -> str:
    """Return `args.language`, else the data's one language ("en" when it names none).

    Raises:
        CommandFailure: the data mixes languages and `args.language` does not choose one.
    """
    if args.language:
        return str(args.language)
    found = data.languages()
    if len(found) > 1:
        raise CommandFailure(
            f"the data mixes languages ({', '.join(sorted(found))}): choose one with --language"
        )
    return found.pop() if found else "en"


def _settings(args: argparse.Namespace, language: str) -> ScorerSettings:
    model = "" if args.scorer == "unigram" else (args.model or "")
    if args.scorer != "unigram" and not model:
        raise CommandFailure(
            f"--model is required for the {args.scorer} scorer (a Hugging Face id or a local folder)"
        )
    if args.token_budget < 1:
        raise CommandFailure("--token-budget must be at least 1")
    return ScorerSettings(
        method=args.scorer,
        model=model,
        revision=args.revision,
        dtype=args.dtype,
        score_eos=args.score_eos,
        language=language,
        fingerprint=model_fingerprint(model) if model else "",
        device=args.device,
        token_budget=args.token_budget,
    )


def _unique_sentences(data: ScoringData) -> list[Sentence]:
    """Return each distinct sentence (text and word spans) once, in first-seen order."""
    seen: dict[Sentence, None] = {}
    for pair in data.pairs:
        seen.setdefault(pair.good)
        seen.setdefault(pair.bad)
    for triplet in data.triplets:
        seen.setdefault(triplet.corrected)
        seen.setdefault(triplet.learner)
        seen.setdefault(triplet.artificial)
    return list(seen)


def _sentence_record(score: SentenceScore) -> dict[str, object]:
    record = score.to_dict()
    record["n_tokens"] = score.n_tokens
    record["scores"] = {r: score.reduce(r) for r in REDUCTIONS}
    return record


def _pair_lines(
    pairs: Sequence[PairItem], scores: dict[Sentence, SentenceScore], tie_tolerance: float
) -> Iterator[bytes]:
    for pair in pairs:
        good, bad = scores[pair.good], scores[pair.bad]
        outcomes = {
            r: pair_outcome(
                good.reduce(r), bad.reduce(r), higher_is_better=r != "bpt", tie_tolerance=tie_tolerance
            )
            for r in REDUCTIONS
        }
        yield (
            orjson.dumps(
                {
                    "item_id": pair.item_id,
                    "kind": "pair",
                    "UID": pair.uid,
                    "phenomenon": pair.phenomenon,
                    "source": pair.source,
                    "length_equal": good.n_tokens == bad.n_tokens,
                    "outcome": outcomes,
                    "good": _sentence_record(good),
                    "bad": _sentence_record(bad),
                }
            )
            + b"\n"
        )


def _triplet_scores(triplet: TripletItem, scores: dict[Sentence, SentenceScore]) -> TripletScores:
    return TripletScores(
        item_id=triplet.item_id,
        corrected=scores[triplet.corrected].reduce("bpt"),
        learner=scores[triplet.learner].reduce("bpt"),
        artificial=scores[triplet.artificial].reduce("bpt"),
        l1=triplet.l1,
        cefr=triplet.cefr,
        error_type=triplet.error_type,
        corpus=triplet.corpus,
        learner_id=triplet.learner_id,
    )


def _triplet_lines(
    triplets: Sequence[TripletItem], scores: dict[Sentence, SentenceScore], tau: float, tie_tolerance: float
) -> Iterator[bytes]:
    for triplet in triplets:
        values = _triplet_scores(triplet, scores)
        outcomes = triplet_outcomes(values, tau=tau, tie_tolerance=tie_tolerance)
        yield (
            orjson.dumps(
                {
                    "item_id": triplet.item_id,
                    "kind": "triplet",
                    "l1": triplet.l1,
                    "cefr": triplet.cefr,
                    "error_type": triplet.error_type,
                    "corpus": triplet.corpus,
                    "learner_id": triplet.learner_id,
                    "source": triplet.source,
                    "outcome": {metric: credit for metric, (credit, _tie) in outcomes.items()},
                    "corrected": _sentence_record(scores[triplet.corrected]),
                    "learner": _sentence_record(scores[triplet.learner]),
                    "artificial": _sentence_record(scores[triplet.artificial]),
                }
            )
            + b"\n"
        )


def _write_atomically(target: Path, chunks: Iterable[bytes]) -> None:
    """Write to a .partial file and rename it, so a failed run never leaves a truncated file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    try:
        with partial.open("wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
        os.replace(partial, target)
    finally:
        if partial.exists():
            partial.unlink()


def _summary_path(args: argparse.Namespace) -> Path:
    if args.summary:
        return Path(args.summary)
    out = Path(args.out)
    stem = out.name[: -len(out.suffix)] if out.suffix else out.name
    return out.with_name(stem + ".metrics.json")


def _metrics(
    args: argparse.Namespace,
    data: ScoringData,
    scores: dict[Sentence, SentenceScore],
    unigram: Mapping[Sentence, float] | None = None,
) -> dict[str, object]:
    out: dict[str, object] = {}
    if data.pairs:
        # sum, mean and bits per token are linking functions too (scoring.linking calls
        # scoring.items.reduce_totals for them), so every report is made one way
        reports = {r: _linking_report(args, data, scores, LinkingFunction.of(r), None) for r in REDUCTIONS}
        out["pairs"] = reports[args.reduction].to_dict()
        out["pairs_overall_by_reduction"] = {r: reports[r].overall.to_dict() for r in REDUCTIONS}
        if args.linkings:
            out["pairs_by_linking"] = {
                linking.key: {
                    "label": linking.label,
                    **_linking_report(args, data, scores, linking, unigram).to_dict(),
                }
                for linking in args.linkings
            }
    if data.triplets:
        report = triplet_report(
            [_triplet_scores(t, scores) for t in data.triplets],
            tau=args.tau,
            tie_tolerance=args.tie_tolerance,
            min_slice=args.min_slice,
            bootstrap=args.bootstrap,
            seed=args.seed,
        )
        out["triplets"] = report.to_dict()
    return out


def _linking_report(
    args: argparse.Namespace,
    data: ScoringData,
    scores: dict[Sentence, SentenceScore],
    linking: LinkingFunction,
    unigram: Mapping[Sentence, float] | None,
) -> PairReport:
    """Return the pairs' report with each sentence scored by `linking` from its stored sum and
    token count, and for SLOR and MORCELA its unigram log-prob (nothing is scored again)."""

    def score(sentence: Sentence) -> float:
        stored = scores[sentence]
        unigram_lp = unigram[sentence] if unigram is not None else None
        return linking.score(stored.reduce("sum"), stored.n_tokens, unigram_lp)

    items = [
        PairScores(
            item_id=p.item_id,
            uid=p.uid,
            phenomenon=p.phenomenon,
            good=score(p.good),
            bad=score(p.bad),
            length_equal=scores[p.good].n_tokens == scores[p.bad].n_tokens,
        )
        for p in data.pairs
    ]
    return pair_report(
        items,
        reduction=linking.key,
        higher_is_better=linking.higher_is_better,
        tie_tolerance=args.tie_tolerance,
        bootstrap=args.bootstrap,
        seed=args.seed,
    )


def _print_results(metrics: dict[str, object], out: IO[str]) -> None:
    pairs = metrics.get("pairs")
    if isinstance(pairs, dict):
        overall = pairs["overall"]
        print(
            f"pairs: accuracy {overall['accuracy']:.4f} [{overall['ci_low']:.4f}, {overall['ci_high']:.4f}] "
            f"over {overall['n']:,} pairs ({overall['ties']:,} ties; reduction {pairs['reduction']})",
            file=out,
        )
        for warning in pairs["warnings"]:
            print(f"warning: {warning}", file=out)
    by_linking = metrics.get("pairs_by_linking")
    if isinstance(by_linking, dict):
        for report in by_linking.values():
            cell = report["overall"]
            shown = f"accuracy {cell['accuracy']:.4f} ({cell['ties']:,} ties)"
            print(f"pairs under {report['label']}: {shown}", file=out)
    triplets = metrics.get("triplets")
    if isinstance(triplets, dict):
        cells = triplets["overall"]
        shown = ", ".join(f"{m} {c['value']:.4f}" for m, c in cells.items())
        print(f"triplets: {shown} over {triplets['n']:,} triplets (BPT, tau {triplets['tau']:g})", file=out)
        for warning in triplets["warnings"]:
            print(f"warning: {warning}", file=out)


def add_data_format_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options that say how the data files are read (`--format`, `--zorro-order`), as
    every command reading pairs with `scoring.data.read_items` takes them."""
    parser.add_argument(
        "--format",
        dest="data_format",
        choices=FORMATS,
        default="auto",
        help="the data's format (default: detected)",
    )
    parser.add_argument("--zorro-order", choices=ORDERS, default="bad-first", help="Zorro line order")


def run_with_one_line_errors(run: Callable[[], int], err: IO[str], what: str) -> int:
    """Return `run()`'s exit code, or 2 after one `error:` line on `err` for any failure: a
    command's own refusal, a scoring error, a file that cannot be read, or anything unexpected
    (`what` names the command's work there: "scoring failed unexpectedly"). Never a traceback."""
    try:
        return run()
    except (CommandFailure, ScoringError) as exc:
        print(f"error: {exc}", file=err)
    except OSError as exc:
        print(f"error: {exc.filename or ''}: {exc.strerror or exc}", file=err)
    except Exception as exc:  # a user gets one line, never a traceback
        print(f"error: {what} failed unexpectedly: {type(exc).__name__}: {exc}", file=err)
    return 2


def cmd_score(args: argparse.Namespace) -> int:
    """Run `mpp score`; return 0, 1 (done, but bad lines were skipped) or 2 (nothing scored)."""
    err = sys.stderr
    return run_with_one_line_errors(lambda: _run(args, err), err, "scoring")


def _run(args: argparse.Namespace, err: IO[str]) -> int:
    started = time.perf_counter()
    if not math.isfinite(args.tau) or args.tau < 0:
        raise CommandFailure("--tau must be a number of bits per token, 0 or more")
    frequencies = _frequencies(args)
    args.linkings = _linkings(args.linking, frequencies, args.scorer)
    data = read_items(args.data, fmt=args.data_format, zorro_order=args.zorro_order)
    print_issues(data, err)
    if data.errors and not args.skip_bad_lines:
        raise CommandFailure(
            f"{len(data.errors):,} problem(s) in the data (listed above): fix them, or pass --skip-bad-lines "
            "to score the rest"
        )
    if not data.pairs and not data.triplets:
        raise CommandFailure("nothing to score: the files hold no usable pair or triplet")
    if data.triplets and args.reduction != "bpt" and args.reduction_given:
        print("note: triplets are always compared in bits per token (--reduction applies to pairs)", file=err)
    language = data_language(args, data)
    settings = _settings(args, language)
    sentences = _unique_sentences(data)
    n_items = len(data.pairs) + len(data.triplets)
    print(
        f"read {len(data.pairs):,} pair(s) and {len(data.triplets):,} triplet(s): "
        f"{len(sentences):,} distinct sentences; loading the {settings.method} scorer",
        file=err,
    )
    load_started = time.perf_counter()
    try:
        scorer = load_scorer(settings)
    except ModuleNotFoundError as exc:
        raise CommandFailure(f"the {settings.method} scorer is not available here: {exc}") from None
    load_seconds = time.perf_counter() - load_started
    score_started = time.perf_counter()
    results = scorer.score(sentences, progress=Progress(len(sentences), err))
    score_seconds = time.perf_counter() - score_started
    if len(results) != len(sentences):
        raise ScoringError(f"the scorer returned {len(results)} scores for {len(sentences)} sentences")
    scores = dict(zip(sentences, results, strict=True))
    unigram = None
    if frequencies is not None and any(linking.needs_unigram for linking in args.linkings):
        if not isinstance(scorer, TokenIdScorer):
            raise CommandFailure(f"the {settings.method} scorer's tokens have no tokenizer ids")
        unigram = {s: frequencies.log_prob(scorer.token_ids(score.tokens)) for s, score in scores.items()}
    metrics = _metrics(args, data, scores, unigram)
    if frequencies is not None:
        metrics["unigram_frequencies"] = frequencies.source
    out = Path(args.out)
    _write_atomically(
        out,
        _chain(
            _pair_lines(data.pairs, scores, args.tie_tolerance),
            _triplet_lines(data.triplets, scores, args.tau, args.tie_tolerance),
        ),
    )
    summary = {
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "scorer": scorer.describe(),
        "settings": {
            **settings.identity(),
            "key": settings.key(),
            "device": settings.device,
            "token_budget": settings.token_budget,
        },
        "data": {
            "files": [
                {
                    "file": f.file,
                    "format": f.format,
                    "items": f.pairs,
                    "errors": f.errors,
                    "warnings": f.warnings,
                }
                for f in data.files
            ],
            "issues": [i.to_dict() for i in data.issues],
        },
        "counts": {
            "pairs": len(data.pairs),
            "triplets": len(data.triplets),
            "sentences": 2 * len(data.pairs) + 3 * len(data.triplets),
            "distinct_sentences": len(sentences),
            "tokens": sum(r.n_tokens for r in results),
            "skipped_items": len(data.errors),
        },
        "time": {
            "load_s": round(load_seconds, 3),
            "score_s": round(score_seconds, 3),
            "total_s": round(time.perf_counter() - started, 3),
            "sentences_per_s": round(len(sentences) / score_seconds, 1) if score_seconds > 0 else None,
        },
        "per_item_file": str(out),
        **metrics,
    }
    summary_path = _summary_path(args)
    _write_atomically(
        summary_path, [json.dumps(summary, indent=2, ensure_ascii=False, allow_nan=False).encode()]
    )
    _print_results(metrics, err)
    print(f"wrote {n_items:,} item(s) to {out} and the metrics to {summary_path}", file=err)
    return 1 if data.errors else 0


def _frequencies(args: argparse.Namespace) -> TokenFrequencies | None:
    """Return the `--unigram-frequencies` of the model's tokenizer, if given."""
    if args.unigram_frequencies is None:
        return None
    try:
        return read_zhoblimp_frequencies(Path(args.unigram_frequencies))
    except FrequencyError as exc:
        raise CommandFailure(f"--unigram-frequencies: {exc}") from None


def _linkings(
    written: Sequence[str], frequencies: TokenFrequencies | None, method: str
) -> list[LinkingFunction]:
    """Return the `--linking` functions, refusing in words what cannot be computed here."""
    chosen: list[LinkingFunction] = []
    for text in written:
        try:
            linking = parse_linking(text)
        except LinkingError as exc:
            raise CommandFailure(f"--linking {text}: {exc}") from None
        if linking.needs_unigram and frequencies is None:
            raise CommandFailure(
                f"--linking {text}: {linking.label} needs the token unigram frequencies of the model's "
                "tokenizer: give them with --unigram-frequencies FILE (ZhoBLiMP's layout)"
            )
        if linking.needs_unigram and method != "causal":
            raise CommandFailure(
                f"--linking {text}: {linking.label} is computed over a causal LM's tokens; the {method} "
                "scorer's are not"
            )
        if linking.key not in {c.key for c in chosen}:
            chosen.append(linking)
    return chosen


def _chain(*parts: Iterable[bytes]) -> Iterator[bytes]:
    for part in parts:
        yield from part


class _ReductionAction(argparse.Action):
    """Stores --reduction and notes that it was given (triplets ignore it, and say so)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        namespace.reduction_given = True


def add_score_command(sub: Any) -> None:
    """Add `score` to the `mpp` subcommands (`sub`: argparse's subparsers object)."""
    score = sub.add_parser(
        "score",
        help="score minimal pairs or BLiSS triplets with a language model; per-item JSONL + metrics JSON",
        description="Score every distinct sentence once with a causal or masked LM (or the word-frequency "
        "baseline), then write one JSON line per item (token scores, sum/mean/BPT, outcome) and a metrics "
        "summary (accuracy with bootstrap intervals and binomial tests; BLiSS LP, HAP, HAP_tau and SO "
        "by slice).",
    )
    score.add_argument("--model", help="a Hugging Face id or a local model folder (unused by unigram)")
    score.add_argument(
        "--data", action="append", required=True, metavar="FILE", help="data file, folder or zip (repeatable)"
    )
    score.add_argument("--scorer", choices=METHODS, required=True, help="how sentences are scored")
    score.add_argument("--out", required=True, help="the per-item JSONL file to write")
    score.add_argument("--summary", help="the metrics JSON file (default: OUT with .metrics.json)")
    score.add_argument("--revision", help="hub revision (branch, tag or commit) of --model")
    score.add_argument("--dtype", choices=("float32", "bfloat16", "float16"), default="float32")
    score.add_argument(
        "--reduction",
        choices=REDUCTIONS,
        default="sum",
        action=_ReductionAction,
        help="sentence score compared within a pair (default sum); triplets always use bits per token",
    )
    score.set_defaults(reduction_given=False)
    score.add_argument(
        "--linking",
        action="append",
        default=[],
        metavar="FUNCTION",
        help="also report the pairs under this linking function, from the stored token scores "
        "(slln, lognorm, penlp, slor, morcela, with parameters: slln:alpha=0.5, morcela:beta=1,gamma=0; "
        "repeatable; docs/scoring.md gives the formulas)",
    )
    score.add_argument(
        "--unigram-frequencies",
        metavar="FILE",
        help="the token unigram frequencies of the model's tokenizer, in ZhoBLiMP's layout (a JSON "
        "object from token id to frequency), for --linking slor and morcela",
    )
    score.add_argument(
        "--tau",
        type=float,
        default=DEFAULT_TAU,
        help=f"HAP_tau margin in bits per token (default {DEFAULT_TAU})",
    )
    score.add_argument(
        "--language", help="the data's language (default: the data's own; it picks the unigram word list)"
    )
    score.add_argument("--token-budget", type=int, default=8192, help="tokens per forward pass (speed only)")
    score.add_argument("--device", default="auto", help="auto, cpu, cuda or cuda:N (speed only)")
    score.add_argument("--score-eos", action="store_true", help="add the end-of-sentence log-prob (causal)")
    add_data_format_arguments(score)
    score.add_argument(
        "--bootstrap", type=int, default=1000, help="bootstrap resamples (0: Wilson intervals)"
    )
    score.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    score.add_argument(
        "--min-slice", type=int, default=DEFAULT_MIN_SLICE, help="smallest BLiSS slice reported with metrics"
    )
    score.add_argument(
        "--tie-tolerance", type=float, default=DEFAULT_TIE_TOLERANCE, help="score difference counted as a tie"
    )
    score.add_argument(
        "--skip-bad-lines", action="store_true", help="score the usable items when some lines cannot be read"
    )
    score.set_defaults(func=cmd_score)
