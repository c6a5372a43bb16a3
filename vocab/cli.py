"""The `vocab` command line: check, export, add frequencies, counterbalance, filter by tokenizer.

Exit codes: 0 done; 1 a balanced subset was not found; 2 unusable input (the problems are
printed to stderr, one per line, with file, line and column).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from vocab.balance_report import balance_report, lookups_for, mark_balanced
from vocab.blimp_cli import add_import_blimp_command, import_blimp
from vocab.counterbalance import BalanceResult, counterbalance
from vocab.coverage import filter_by_coverage, load_tokenizer, word_tokens
from vocab.errors import BalanceError, CoverageError, FrequencyError, VocabularyError
from vocab.frequency import (
    FREQUENCY_SOURCES,
    PACKAGED_SOURCES,
    attach_frequencies,
    count_corpus_file,
    source_frequencies,
    wordfreq_frequencies,
)
from vocab.io import read_vocabulary, sidecar_schema_path, write_vocabulary
from vocab.lexicon import Vocabulary
from vocab.marked_copy import copy_with_column

EXIT_OK, EXIT_NOT_MET, EXIT_BAD_INPUT = 0, 1, 2
# Values listed per feature by `vocab check` before "... and N more".
_MAX_SHOWN_VALUES = 20


def add_vocab_commands(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],  # argparse has no public name
) -> argparse.ArgumentParser:
    """Add the `vocab` command and its subcommands to `subparsers`; return the `vocab` parser.

    Parsed arguments carry `func=handle`: call `args.func(args)` to run the command.
    """
    vocab = subparsers.add_parser(
        "vocab",
        help="check, convert and prepare vocabulary files",
        description="Check, convert and prepare vocabulary files (CSV/TSV with a .schema.yaml).",
    )
    commands = vocab.add_subparsers(dest="vocab_command", metavar="COMMAND", required=True)

    check = commands.add_parser("check", help="read a vocabulary and summarise it, or list its problems")
    _add_input(check)

    export = commands.add_parser("export", help="write a vocabulary (and its schema) as CSV/TSV")
    _add_input(export)
    export.add_argument("--out", type=Path, required=True, help="file to write")
    export.add_argument("--tsv", action="store_true", help="write tab-separated values")

    freq = commands.add_parser("freq", help="add a frequency feature freq_NAME to every item")
    _add_input(freq)
    freq.add_argument(
        "--source",
        required=True,
        help="a named source (wordfreq; spoken, written: English lists shipped in packages) "
        "or a UTF-8 corpus text file to count",
    )
    freq.add_argument("--name", help="source name (default: the named source or the corpus file stem)")
    freq.add_argument("--out", type=Path, required=True, help="file to write")

    balance = commands.add_parser(
        "balance", help="choose words with balanced frequencies across corpora (Zorro-style)"
    )
    _add_input(balance)
    sources = balance.add_mutually_exclusive_group(required=True)
    sources.add_argument(
        "--corpora", nargs="+", metavar="NAME=PATH", help="two or more corpus text files to count"
    )
    sources.add_argument(
        "--wordfreq-vs",
        nargs="+",
        metavar="[NAME=]PATH",
        help="compare wordfreq with one or more corpus text files",
    )
    sources.add_argument(
        "--sources",
        nargs="+",
        choices=FREQUENCY_SOURCES,
        metavar="SOURCE",
        help=f"two or more named frequency sources ({', '.join(FREQUENCY_SOURCES)})",
    )
    sources.add_argument(
        "--freq-features",
        nargs="+",
        metavar="FEATURE",
        help="two or more frequency features of the vocabulary (freq_...)",
    )
    balance.add_argument("--pos", help="only items with this part of speech")
    balance.add_argument(
        "--pair-feature", metavar="FEATURE", help="feature holding each word's second form (also counted)"
    )
    balance.add_argument("--size", type=int, required=True, help="number of words to choose")
    balance.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    balance.add_argument(
        "--tolerance", type=float, default=0.1, help="largest relative bias accepted (default 0.1)"
    )
    balance.add_argument("--max-iterations", type=int, default=20_000)
    balance.add_argument(
        "--best-effort",
        action="store_true",
        help="keep the best subset found even if it misses the tolerance",
    )
    balance.add_argument("--out", type=Path, help="write the chosen words, one per line")

    report = commands.add_parser(
        "balance-report",
        help="frequency balance of the noun, verb and adjective lists across sources, and what to drop",
    )
    _add_input(report)
    report.add_argument(
        "--sources",
        nargs="+",
        choices=FREQUENCY_SOURCES,
        default=["spoken", "written"],
        metavar="SOURCE",
        help="two or more named frequency sources (default: spoken written)",
    )
    report.add_argument("--tolerance", type=float, default=0.05, help="largest relative bias (default 0.05)")
    report.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    report.add_argument(
        "--max-drop",
        type=float,
        default=0.5,
        help="largest share of a list that may be dropped (default 0.5)",
    )
    report.add_argument("--out", type=Path, help="write the report (Markdown) here")
    report.add_argument("--mark-out", type=Path, help="write the vocabulary with a balanced column here")
    report.add_argument("--mark-feature", default="balanced", help="name of that column (default balanced)")

    coverage = commands.add_parser("coverage", help="keep the items a tokenizer covers in at most N tokens")
    _add_input(coverage)
    coverage.add_argument("--tokenizer", required=True, help="local tokenizer folder")
    coverage.add_argument("--max-tokens", type=int, default=1)
    coverage.add_argument(
        "--leading-space",
        choices=("auto", "yes", "no"),
        default="auto",
        help="tokenize ' word' (yes), 'word' (no) or as mid-sentence (auto)",
    )
    coverage.add_argument("--out", type=Path, required=True, help="file for the kept items")

    add_import_blimp_command(commands)

    vocab.set_defaults(func=handle)
    return vocab


def handle(args: argparse.Namespace) -> int:
    """Run the parsed `vocab` subcommand; return its exit code (problems go to stderr)."""
    handler = _HANDLERS[args.vocab_command]
    try:
        return handler(args)
    except VocabularyError as exc:
        _error(str(exc))
    except (FrequencyError, CoverageError, BalanceError) as exc:
        _error(f"error: {exc}")
    except OSError as exc:
        target = f" '{exc.filename}'" if exc.filename else ""
        _error(f"error: cannot use{target}: {exc.strerror or exc}")
    return EXIT_BAD_INPUT


def main(argv: Sequence[str] | None = None) -> int:
    """Run `vocab ...` from `argv` (for `python -m vocab.cli`); return the exit code."""
    parser = argparse.ArgumentParser(prog="mpp")
    add_vocab_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


def _add_input(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="vocabulary file (.csv or .tsv)")
    parser.add_argument(
        "--schema", type=Path, help="schema file (default: <stem>.schema.yaml beside the file)"
    )
    parser.add_argument("--language", help="language code (overrides the schema's)")
    parser.add_argument("--separator", help="multi-value separator when there is no schema")


def _read(args: argparse.Namespace) -> Vocabulary:
    return read_vocabulary(
        args.file, schema_path=args.schema, language=args.language, multi_separator=args.separator
    )


def _error(message: str) -> None:
    print(message, file=sys.stderr)


def _check(args: argparse.Namespace) -> int:
    vocab = _read(args)
    schema_file = args.schema or sidecar_schema_path(args.file)
    source = schema_file.name if Path(schema_file).exists() else "inferred from the columns"
    print(f"{args.file.name}: {len(vocab)} items, language {vocab.language or 'not set'}, schema {source}")
    print(f"pos: {_value_counts(Counter(i.pos for i in vocab.items if i.pos)) or '(none)'}")
    if not vocab.schema.features:
        print("no features")
    for name, spec in vocab.schema.features.items():
        counts = Counter(v for item in vocab.items for v in item.features.get(name, ()))
        kind = spec.type + (", multi" if spec.multi else "")
        blank = sum(1 for item in vocab.items if name not in item.features)
        if spec.type in ("category", "bool"):
            summary = _value_counts(counts) or "(no values)"
            unused = [v for v in spec.values or () if v not in counts]
            if unused:
                summary += f"; declared but unused: {', '.join(unused)}"
        elif spec.type in ("int", "float") and counts:
            numbers = [float(v) for v in counts]
            summary = f"{len(counts)} distinct values from {min(numbers):g} to {max(numbers):g}"
        else:
            summary = f"{len(counts)} distinct values"
        print(f"  {name} ({kind}): {summary}; blank in {blank} item{'' if blank == 1 else 's'}")
    return EXIT_OK


def _value_counts(counts: Counter[str]) -> str:
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{v} {n}" for v, n in ordered[:_MAX_SHOWN_VALUES])
    hidden = len(ordered) - _MAX_SHOWN_VALUES
    return shown + (f", ... and {hidden} more" if hidden > 0 else "")


def _export(args: argparse.Namespace) -> int:
    vocab = _read(args)
    write_vocabulary(vocab, args.out, delimiter="\t" if args.tsv else None)
    print(
        f"wrote {len(vocab)} items to {args.out} and its schema to "
        f"{args.out.with_name(args.out.stem + '.schema.yaml')}"
    )
    return EXIT_OK


def _freq(args: argparse.Namespace) -> int:
    vocab = _read(args)
    language = _language(vocab)
    forms = [item.form for item in vocab.items]
    if args.source in FREQUENCY_SOURCES:
        name = args.name or args.source
        freqs = source_frequencies(args.source, forms, language)
    else:
        name = args.name or Path(args.source).stem
        freqs = count_corpus_file(args.source, language)
    result = attach_frequencies(vocab, name, freqs)
    write_vocabulary(result, args.out)
    zero = sum(1 for item in result.items if float(item.features[f"freq_{name}"][0]) == 0.0)
    print(f"added freq_{name} to {len(result)} items ({zero} not found: frequency 0); wrote {args.out}")
    return EXIT_OK


def _language(vocab: Vocabulary) -> str:
    if not vocab.language:
        raise FrequencyError("the vocabulary has no language; give --language (e.g. en or zh)")
    return vocab.language


def _balance(args: argparse.Namespace) -> int:
    vocab = _read(args)
    items = [i for i in vocab.items if args.pos is None or i.pos == args.pos]
    if not items:
        raise BalanceError(f"no items with part of speech '{args.pos}'")
    candidates = list(dict.fromkeys(item.form for item in items))
    paired: dict[str, str] = {}
    if args.pair_feature:
        for item in items:
            values = item.values(args.pair_feature)
            if values:
                paired.setdefault(item.form, values[0])
    frequencies = _balance_frequencies(args, vocab, [*candidates, *paired.values()])
    try:
        result = counterbalance(
            candidates,
            frequencies,
            args.size,
            seed=args.seed,
            tolerance=args.tolerance,
            paired=paired or None,
            max_iterations=args.max_iterations,
            require_met=not args.best_effort,
        )
    except BalanceError as exc:
        if exc.best is None:  # unusable input (too few candidates, ...), not a failed search
            raise
        print(exc.best.report())
        _error(f"error: {exc}")
        return EXIT_NOT_MET
    print(result.report())
    if not result.met:
        _error(f"warning: the tolerance {args.tolerance:g} was not met; keeping the best subset")
    _write_words(result, args.out)
    return EXIT_OK


def _balance_frequencies(
    args: argparse.Namespace, vocab: Vocabulary, words: Sequence[str]
) -> dict[str, Mapping[str, float]]:
    out: dict[str, Mapping[str, float]] = {}
    if args.freq_features:
        for feature in args.freq_features:
            if feature not in vocab.schema.features:
                raise FrequencyError(f"the vocabulary has no feature '{feature}'")
            values: dict[str, float] = {}
            for item in vocab.items:
                found = item.features.get(feature)
                if found:
                    values.setdefault(item.form, float(found[0]))
            out[feature] = values
        return out
    if args.sources:
        if len(set(args.sources)) < 2:
            raise FrequencyError("--sources needs two or more different sources, e.g. spoken written")
        return {name: source_frequencies(name, words, _language(vocab)) for name in args.sources}
    if args.corpora:
        return {
            name: count_corpus_file(path, _language(vocab))
            for name, path in _named_paths(args.corpora, require_name=True)
        }
    language = _language(vocab)
    out["wordfreq"] = wordfreq_frequencies(words, language)
    for name, path in _named_paths(args.wordfreq_vs, require_name=False):
        out[name] = count_corpus_file(path, language)
    return out


def _named_paths(specs: Sequence[str], *, require_name: bool) -> list[tuple[str, Path]]:
    pairs: list[tuple[str, Path]] = []
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep:
            if require_name:
                raise FrequencyError(f"'{spec}' should be NAME=PATH, e.g. childes=childes.txt")
            name, path = Path(spec).stem, spec
        if not name or not path:
            raise FrequencyError(f"'{spec}' should be NAME=PATH, e.g. childes=childes.txt")
        if name in dict(pairs):
            raise FrequencyError(f"the corpus name '{name}' is used twice")
        pairs.append((name, Path(path)))
    return pairs


def _write_words(result: BalanceResult, out: Path | None) -> None:
    if out is not None:
        out.write_text("".join(f"{word}\n" for word in result.words), encoding="utf-8")
        print(f"wrote {len(result.words)} words to {out}")


def _balance_report(args: argparse.Namespace) -> int:
    vocab = _read(args)
    report = balance_report(
        vocab,
        lookups_for(args.sources, _language(vocab), source_frequencies),
        tolerance=args.tolerance,
        seed=args.seed,
        descriptions={name: source.description for name, source in PACKAGED_SOURCES.items()},
        max_drop=args.max_drop,
    )
    for c in report.classes:
        print(
            f"{c.name} ({c.pos}): {len(c.lemmas)} lemmas, relative bias {c.bias:.4f}; "
            f"keep {len(c.kept)} (bias {c.kept_bias:.4f}, {'within' if c.met else 'NOT within'} "
            f"{args.tolerance:g}); drop {len(c.dropped)}: {', '.join(c.dropped) or '-'}"
        )
    if args.out is not None:
        args.out.write_text(report.markdown(), encoding="utf-8")
        print(f"wrote the report to {args.out}")
    if args.mark_out is not None:
        marked = mark_balanced(vocab, report, args.mark_feature)
        values = {item.id: "".join(item.features.get(args.mark_feature, ())) for item in marked.items}
        spec = marked.schema.features[args.mark_feature]
        schema = copy_with_column(Path(args.file), args.mark_out, args.mark_feature, values, spec)
        print(
            f"wrote {len(vocab)} items with the column {args.mark_feature} to {args.mark_out}"
            + (f" (schema: {schema})" if schema else "")
        )
    return EXIT_OK if all(c.met for c in report.classes) else EXIT_NOT_MET


def _coverage(args: argparse.Namespace) -> int:
    vocab = _read(args)
    tokenizer = load_tokenizer(args.tokenizer)
    leading = {"auto": None, "yes": True, "no": False}[args.leading_space]
    kept, dropped = filter_by_coverage(vocab, tokenizer, args.max_tokens, with_leading_space=leading)
    write_vocabulary(kept, args.out)
    print(
        f"kept {len(kept)} of {len(vocab)} items (at most {args.max_tokens} token"
        f"{'s' if args.max_tokens != 1 else ''} each); wrote {args.out}"
    )
    if dropped:
        tokens = word_tokens(
            [i.form for i in dropped], tokenizer, with_leading_space=leading, language=vocab.language
        )
        print(f"dropped {len(dropped)}:")
        unk = getattr(tokenizer, "unk_token", None)
        for item in dropped:
            pieces = tokens[item.form]
            note = " (unknown to the tokenizer)" if unk is not None and unk in pieces else ""
            print(f"  {item.form}: {' + '.join(pieces)} ({len(pieces)} tokens){note}")
    return EXIT_OK


_HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": _check,
    "export": _export,
    "freq": _freq,
    "balance": _balance,
    "balance-report": _balance_report,
    "coverage": _coverage,
    "import-blimp": import_blimp,
}

if __name__ == "__main__":
    raise SystemExit(main())
