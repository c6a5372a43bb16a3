"""Benchmark: learner-triplet pipeline throughput against plain ERRANT annotation, on one core.

What it does:
1. Reads a learner corpus (default: the demo corpus templates/learner/mpp_learner_corpus.tsv with
   its .meta.tsv, short sentences of about 10 words; `--corpus bench/data/learner_long.tsv` is
   the learner-length one, about 24 words a sentence like learner essays, made by
   bench/data/make_learner_long.py; any table with the columns sentence_id, learner and
   corrected, its `<stem>.meta.tsv` attached when present; an .m2 file is read with read_m2) and
   repeats it `--repeat` times, each copy's pairs with their own ids, to reach a few thousand
   pairs (`--n` caps the count). It prints the corpus's mean words a sentence (split at
   whitespace), since the ratio depends on it.
2. Pins the process to one core (the thread variables of OpenMP, OpenBLAS, BLIS and MKL are set
   to 1 before numpy or spaCy is imported, and the process is bound to one CPU where the system
   allows it), loads spaCy and ERRANT once, warms both runs up, then times, in interleaved rounds:
   - ours: `run_pipeline(pairs, TripletSettings(batch_size=--batch-size))`: annotation,
     atomisation, re-check, candidate generation, validation; triplets out;
   - the baseline, plain one-pair-at-a-time ERRANT annotation: for each pair the learner and the
     corrected sentence are parsed separately (`parse(text, tokenise=True)`; M2 sentences, already
     tokenised, with `tokenise=False`) and `annotate(orig, cor)` is called, nothing else. Its
     annotator is ERRANT as users load it, over the same spaCy model as ours
     (`errant.load("en", spacy.load(SPACY_MODEL, disable=["ner"]))`), a separate instance: what
     the engine may change in its own annotator (faster components, a faster alignment) does not
     speed the baseline up.
   It prints pairs per second on that core for both (best of the rounds), the ratio ours /
   baseline (target >= 2.0) and the triplets made.

With --profile it then runs the pipeline once more with timers wrapped around its stages (by
monkeypatching the engine's functions here, the engine is not changed) and prints where the time
goes: annotation (spaCy parse / ERRANT), atomisation, re-check (parse / ERRANT), candidate
generation (rule generators / cheap checks), validation (parse / ERRANT), the same split of the
baseline, and the cost of each spaCy component a sentence, batched and one sentence at a time.
The profile counts CPU time, not wall-clock time.

The repeated copies are the same sentences: the figures hold only while neither run reuses a
parse across pairs by its text (neither does; a cache keyed by text would make `--repeat` lie).

Run: PYTHONPATH=platform:. .venv/bin/python bench/triplets.py [--corpus FILE] [--repeat 10] [--rounds 3]
[--profile]
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "BLIS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"  # before numpy / spaCy are imported: one core means one thread

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import functools  # noqa: E402
import gc  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from collections.abc import Callable, Iterator, Sequence  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from triplets.corpus import LearnerPair  # noqa: E402
from triplets.readers import (  # noqa: E402
    MetadataColumns,
    ParallelColumns,
    attach_metadata,
    read_m2,
    read_metadata,
    read_parallel,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT / "templates" / "learner" / "mpp_learner_corpus.tsv"
TARGET = 2.0
WARM_UP = 64


# --------------------------------------------------------------------------------- the input


def pin_to_one_core(cpu: int | None) -> str:
    """Bind the process to one CPU (the last one it may use unless `cpu` is given) and return
    which, or say why it could not be done."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (this system has no sched_setaffinity); threads limited to 1"
    allowed = sorted(os.sched_getaffinity(0))
    chosen = cpu if cpu is not None else allowed[-1]
    os.sched_setaffinity(0, {chosen})
    return f"pinned to CPU {chosen} (of {len(allowed)} allowed); threads limited to 1"


def read_corpus(path: Path) -> list[LearnerPair]:
    """Return the pairs of an .m2 file or a parallel table (its `<stem>.meta.tsv` attached when
    present); stop with the reader's first errors when it reads nothing."""
    if path.suffix == ".m2":
        result = read_m2(path)
    else:
        result = read_parallel(path, columns=ParallelColumns(pair_id="sentence_id"))
    errors = [i for i in result.issues if i.severity == "error"]
    if not result.pairs:
        shown = "; ".join(f"line {i.line}: {i.message}" for i in errors[:3]) or "no pairs"
        raise SystemExit(f"{path}: nothing read ({shown})")
    pairs = result.pairs
    meta = path.with_name(path.name.removesuffix(path.suffix) + ".meta.tsv")
    if path.suffix != ".m2" and meta.is_file():
        pairs = attach_metadata(pairs, read_metadata(meta, columns=MetadataColumns(l1="L1"))).pairs
    return pairs


def mean_words(pairs: Sequence[LearnerPair]) -> tuple[float, float]:
    """Return the mean number of whitespace-separated words of the learner and of the corrected
    sentences (pairs without a correction count on the learner side only)."""
    learner = [len(p.learner.split()) for p in pairs]
    corrected = [len(p.corrected.split()) for p in pairs if p.corrected is not None]
    return sum(learner) / max(len(learner), 1), sum(corrected) / max(len(corrected), 1)


def repeated(pairs: Sequence[LearnerPair], times: int, cap: int | None) -> list[LearnerPair]:
    """Return the pairs `times` over, copy k > 0 with ids ending in "~k", at most `cap` of them."""
    out = [
        pair if k == 0 else dataclasses.replace(pair, pair_id=f"{pair.pair_id}~{k}")
        for k in range(times)
        for pair in pairs
    ]
    return out[:cap] if cap is not None else out


# --------------------------------------------------------------------------------- the two runs


@functools.cache
def stock_annotator() -> Any:
    """Return ERRANT loaded the usual way over the engine's spaCy model (a separate instance)."""
    import errant
    import spacy

    from triplets.annotate import SPACY_MODEL

    return errant.load("en", spacy.load(SPACY_MODEL, disable=["ner"]))


def baseline(pairs: Sequence[LearnerPair]) -> int:
    """Plain ERRANT annotation, one pair at a time: parse both sentences, annotate; return the
    number of edits found."""
    errant = stock_annotator()
    edits = 0
    for pair in pairs:
        if pair.corrected is None:
            continue
        running_text = pair.edits is None  # M2 sentences are already tokenised
        orig = errant.parse(pair.learner, tokenise=running_text)
        cor = errant.parse(pair.corrected, tokenise=running_text)
        edits += len(errant.annotate(orig, cor))
    return edits


def ours(pairs: Sequence[LearnerPair], batch_size: int) -> Any:
    """Our full triplet pipeline over the pairs; return its PipelineResult."""
    from triplets.pipeline import TripletSettings, run_pipeline

    return run_pipeline(pairs, TripletSettings(batch_size=batch_size))


@dataclass(slots=True)
class Run:
    """One of the two runs, timed over the whole input once a round."""

    name: str
    call: Callable[[Sequence[LearnerPair]], Any]
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)
    output: Any = None

    def once(self, pairs: Sequence[LearnerPair]) -> None:
        gc.collect()
        started, started_cpu = time.perf_counter(), time.process_time()
        output = self.call(pairs)
        self.cpu_seconds.append(time.process_time() - started_cpu)
        self.seconds.append(time.perf_counter() - started)
        if self.output is None:
            self.output = output

    def rate(self, n: int) -> float:
        """Pairs per second of wall-clock time, best round."""
        return n / min(self.seconds)

    def cpu_rate(self, n: int) -> float:
        """Pairs per second of the process's CPU time, best round (one thread: the time it had
        the core; steadier than wall-clock time on a shared host, where other jobs take turns)."""
        return n / min(self.cpu_seconds)


# --------------------------------------------------------------------------------- the profile


@dataclass(slots=True)
class Timers:
    """CPU seconds (steadier than wall-clock time on a shared host) and call counts by
    (stage, part), with the stage currently running."""

    seconds: defaultdict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    items: Counter[tuple[str, str]] = field(default_factory=Counter)
    stage: str = "outside a stage"

    @contextmanager
    def part(self, name: str, items: int = 0) -> Iterator[None]:
        started = time.process_time()
        try:
            yield
        finally:
            self.seconds[(self.stage, name)] += time.process_time() - started
            self.items[(self.stage, name)] += items


def _staged(timers: Timers, stage: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        outer, timers.stage = timers.stage, stage
        try:
            with timers.part("total"):
                return function(*args, **kwargs)
        finally:
            timers.stage = outer

    return wrapped


def _timed(timers: Timers, part: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with timers.part(part, 1):
            return function(*args, **kwargs)

    return wrapped


def _timed_docs(timers: Timers, part: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapped(docs: Sequence[Any], *args: Any, **kwargs: Any) -> Any:
        with timers.part(part, len(docs)):
            return function(docs, *args, **kwargs)

    return wrapped


@contextmanager
def instrumented(timers: Timers) -> Iterator[None]:
    """Wrap the engine's stage functions and its parsing / ERRANT calls with timers while inside;
    put the originals back on leaving."""
    from triplets import annotate, pipeline

    errant = annotate.annotator()
    # (owner, name, wrapper of the original): the pipeline module's own names, so its calls go
    # through the timers; the parse and ERRANT calls on the shared instances.
    patches: list[tuple[Any, str, Callable[[Callable[..., Any]], Callable[..., Any]]]] = [
        (annotate, "annotate_pairs", lambda f: _staged(timers, "annotation", f)),
        (pipeline, "atomise", lambda f: _staged(timers, "atomise", f)),
        (pipeline, "_recheck", lambda f: _staged(timers, "re-check", f)),
        (pipeline, "_queue", lambda f: _staged(timers, "candidates", f)),
        (pipeline, "_validate", lambda f: _staged(timers, "validation", f)),
        (pipeline, "rule_candidates", lambda f: _timed(timers, "rule generators", f)),
        # Every parse goes through annotate.parse / parse_near (tok2vec, near the corrected
        # sentence where it can, then the other components); the sentences are counted.
        (annotate, "parse", lambda f: _timed_docs(timers, "spaCy parse", f)),
        (annotate, "parse_near", lambda f: _timed_docs(timers, "spaCy parse", f)),
        (errant, "annotate", lambda f: _timed(timers, "ERRANT align/merge/classify", f)),
    ]
    saved: list[tuple[Any, str, Any, bool]] = []  # (owner, name, original, owned by the owner)
    for owner, name, wrap in patches:
        had_own = name in getattr(owner, "__dict__", {})
        original = getattr(owner, name)
        saved.append((owner, name, original, had_own))
        setattr(owner, name, wrap(original))
    try:
        yield
    finally:
        for owner, name, original, had_own in reversed(saved):
            if had_own:  # a module's function
                setattr(owner, name, original)
            else:  # a bound method shadowed on the instance
                delattr(owner, name)


def baseline_profiled(pairs: Sequence[LearnerPair], timers: Timers) -> None:
    """The baseline with its parse and ERRANT time apart."""
    errant = stock_annotator()
    timers.stage = "baseline"
    for pair in pairs:
        if pair.corrected is None:
            continue
        running_text = pair.edits is None
        with timers.part("spaCy parse", 2):
            orig = errant.parse(pair.learner, tokenise=running_text)
            cor = errant.parse(pair.corrected, tokenise=running_text)
        with timers.part("ERRANT align/merge/classify", 1):
            errant.annotate(orig, cor)


def print_components(pairs: Sequence[LearnerPair], batch_size: int) -> None:
    """Print the CPU milliseconds a sentence of each spaCy component of our pipeline, batched
    (`pipe`, our batch size) and one sentence at a time (the baseline's way), over the input's
    learner and corrected sentences."""
    from triplets.annotate import nlp

    language = nlp()
    texts = [t for p in pairs if p.corrected is not None for t in (p.learner, p.corrected)]
    for how in (f"batched {batch_size}", "one at a time"):
        gc.collect()
        started = time.process_time()
        docs = [language.make_doc(text) for text in texts]
        split = {"tokenizer": time.process_time() - started}
        for name, component in language.pipeline:
            pipe: Any = component  # every component of this model has `pipe`
            started = time.process_time()
            if how == "one at a time":
                docs = [component(doc) for doc in docs]
            else:
                docs = list(pipe.pipe(docs, batch_size=batch_size))
            split[name] = time.process_time() - started
        total = sum(split.values())
        print(
            f"spaCy by component, {how}: {total / len(texts) * 1e3:.3f} ms a sentence = "
            + ", ".join(f"{k} {v / len(texts) * 1e3:.3f} ({v / total:.0%})" for k, v in split.items())
        )


STAGES = ("annotation", "atomise", "re-check", "candidates", "validation")


def print_profile(pairs: Sequence[LearnerPair], batch_size: int) -> None:
    """Run both once more with timers and print the split."""
    timers = Timers()
    gc.collect()
    started = time.process_time()
    with instrumented(timers):
        ours(pairs, batch_size)
    total = time.process_time() - started
    n = len(pairs)
    print()
    print(f"profile of ours ({n:,} pairs, {total:.2f} CPU seconds with the timers on):")
    print(f"  {'stage / part':<42} {'CPU s':>8} {'share':>6} {'calls or sentences':>19} {'per pair':>9}")
    accounted = 0.0
    for stage in STAGES:
        stage_total = timers.seconds.get((stage, "total"), 0.0)
        accounted += stage_total
        print(f"  {stage:<42} {stage_total:8.2f} {stage_total / total:6.1%}")
        parts = sorted(
            (k for k in timers.seconds if k[0] == stage and k[1] != "total"),
            key=lambda k: -timers.seconds[k],
        )
        inner = 0.0
        for key in parts:
            seconds, items = timers.seconds[key], timers.items[key]
            inner += seconds
            print(f"    {key[1]:<40} {seconds:8.2f} {seconds / total:6.1%} {items:19,} {items / n:9.2f}")
        if parts:
            rest = stage_total - inner
            print(f"    {'rest of the stage':<40} {rest:8.2f} {rest / total:6.1%}")
    outside = total - accounted
    print(f"  {'outside the stages':<42} {outside:8.2f} {outside / total:6.1%}")
    parsed = sum(v for (s, p), v in timers.items.items() if p == "spaCy parse")
    parse_s = sum(v for (s, p), v in timers.seconds.items() if p == "spaCy parse")
    errant_s = sum(v for (s, p), v in timers.seconds.items() if p.startswith("ERRANT"))
    print(
        f"  all spaCy parsing: {parse_s:.2f}s ({parse_s / total:.1%}), {parsed:,} sentences, "
        f"{parsed / n:.2f} a pair, {parse_s / max(parsed, 1) * 1e3:.2f} ms a sentence; "
        f"all ERRANT: {errant_s:.2f}s ({errant_s / total:.1%})"
    )

    base = Timers()
    gc.collect()
    started = time.process_time()
    baseline_profiled(pairs, base)
    base_total = time.process_time() - started
    parse_b = base.seconds[("baseline", "spaCy parse")]
    errant_b = base.seconds[("baseline", "ERRANT align/merge/classify")]
    sentences_b = base.items[("baseline", "spaCy parse")]
    print(
        f"profile of the baseline: {base_total:.2f} CPU seconds; spaCy parse {parse_b:.2f}s "
        f"({parse_b / base_total:.1%}), {sentences_b:,} sentences, "
        f"{parse_b / max(sentences_b, 1) * 1e3:.2f} ms a sentence; ERRANT {errant_b:.2f}s "
        f"({errant_b / base_total:.1%})"
    )


# --------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--corpus", type=Path, default=DEFAULT_CORPUS, help="a .tsv/.csv table or an .m2 file"
    )
    parser.add_argument("--repeat", type=int, default=10, help="copies of the corpus (default 10)")
    parser.add_argument("--n", type=int, default=None, help="at most this many pairs")
    parser.add_argument(
        "--rounds", type=int, default=3, help="timed rounds, interleaved; best kept (default 3)"
    )
    parser.add_argument("--batch-size", type=int, default=256, help="our pipeline's spaCy batch size (256)")
    parser.add_argument("--cpu", type=int, default=None, help="the CPU to pin to (default: the last allowed)")
    parser.add_argument("--profile", action="store_true", help="then print where the time goes")
    args = parser.parse_args(argv)

    pinned = pin_to_one_core(args.cpu)
    source = read_corpus(args.corpus)
    pairs = repeated(source, max(1, args.repeat), args.n)
    n = len(pairs)
    same = sum(p.corrected == p.learner for p in pairs)

    started = time.perf_counter()
    from triplets.annotate import annotator, nlp

    annotator()
    stock_annotator()
    loaded = time.perf_counter() - started
    runs = [Run("ours", lambda p: ours(p, args.batch_size)), Run("baseline", baseline)]
    for run in runs:  # warm-up: first parses, word lists, caches of the rules
        run.call(pairs[:WARM_UP])
    for round_ in range(args.rounds):
        for run in runs if round_ % 2 == 0 else reversed(runs):  # neither always goes first
            run.once(pairs)
        print(
            f"  round {round_ + 1}: "
            + ", ".join(f"{r.name} {r.seconds[-1]:.2f}s (CPU {r.cpu_seconds[-1]:.2f}s)" for r in runs),
            file=sys.stderr,
        )

    mine, base = runs
    result, edits = mine.output, base.output
    report = result.report
    singles = sum(report.single_edit_pairs.values())
    ratio, cpu_ratio = mine.rate(n) / base.rate(n), mine.cpu_rate(n) / base.cpu_rate(n)
    print()
    print(
        f"pairs: {n:,} ({len(source):,} of {args.corpus.name} x {args.repeat}"
        + (f", capped at {args.n:,}" if args.n is not None and args.n < len(source) * args.repeat else "")
        + f"); {same:,} with nothing to correct; ERRANT edits found by the baseline: {edits:,}"
    )
    learner_words, corrected_words = mean_words(source)
    print(
        f"mean words a sentence (split at whitespace): {learner_words:.1f} learner, "
        f"{corrected_words:.1f} corrected"
    )
    print(
        f"setup: {pinned}; spaCy {nlp().meta.get('name', '?')} {nlp().meta.get('version', '')}, "
        f"our pipes {', '.join(nlp().pipe_names)}, the baseline's "
        f"{', '.join(stock_annotator().nlp.pipe_names)}; loaded in {loaded:.1f}s; our batch size "
        f"{args.batch_size}; best of {args.rounds} interleaved round(s) after a warm-up of {WARM_UP} pairs"
    )
    from triplets.rules import GENERATORS

    print(
        f"generators in place: {sum(len(g) for g in GENERATORS.values())} for {len(GENERATORS)} ERRANT types"
    )
    print(f"  {'':<9} {'pairs/s':>8} {'by CPU time':>12}   rounds: wall s / CPU s")
    for run in runs:
        rounds = "  ".join(f"{w:.2f}/{c:.2f}" for w, c in zip(run.seconds, run.cpu_seconds, strict=True))
        print(f"  {run.name:<9} {run.rate(n):8.1f} {run.cpu_rate(n):12.1f}   {rounds}")
    for what, value in (("wall-clock", ratio), ("CPU time", cpu_ratio)):
        verdict = "met" if value >= TARGET else "NOT met"
        print(f"  ratio ours / baseline, {what}: {value:.2f}x (target >= {TARGET:.1f}x: {verdict})")
    print(
        f"  ours made {len(result.triplets):,} triplets from {singles:,} single-edit pairs "
        f"({len(result.triplets) / n:.3f} a pair); {sum(report.triplets.values()):,} by type: "
        + ", ".join(f"{t} {c}" for t, c in report.triplets.most_common(8))
    )
    if args.profile:
        print_profile(pairs, args.batch_size)
        print_components(pairs, args.batch_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
