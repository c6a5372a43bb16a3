"""The template commands of `mpp`: validate templates, preview and generate pairs.

`mpp.cli` puts them beside the other engines' commands; this module imports no other engine's
command line."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from generator.errors import GenerationError, TemplateError
from generator.generate import GenerationStats, Generator
from generator.library import VocabularyCache, find_templates, load_with_vocabulary


def _print_problems(exc: TemplateError | GenerationError) -> None:
    problems = exc.problems if isinstance(exc, TemplateError) else [exc.problem]
    for problem in problems:
        print(f"error [{problem.code}] {problem}", file=sys.stderr)


def _exclusions(specs: Sequence[str]) -> list[tuple[str, str]]:
    """Return (feature, value) pairs from `--exclude FEATURE=VALUE` arguments.

    Raises:
        ValueError: naming an argument without '='.
    """
    pairs = []
    for spec in specs:
        feature, sep, value = spec.partition("=")
        if not sep or not feature.strip():
            raise ValueError(f"--exclude needs FEATURE=VALUE (for example balanced=0), not '{spec}'")
        pairs.append((feature.strip(), value.strip()))
    return pairs


def _generators(
    paths: Sequence[str], exclude: Sequence[str] = ()
) -> tuple[list[tuple[Path, Generator]], int]:
    """Return a Generator per template found, printing the problems of those that fail.

    `exclude` (FEATURE=VALUE) leaves the matching vocabulary items out, e.g. the words a
    frequency balance dropped (`balanced=0`).
    """
    try:
        exclusions = _exclusions(exclude)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return [], 1
    cache = VocabularyCache()
    out: list[tuple[Path, Generator]] = []
    failures = 0
    files = find_templates(paths)
    if not files:
        print(f"error: no template files found in {', '.join(paths)}", file=sys.stderr)
        return [], 1
    for path in files:
        try:
            template, vocabulary = load_with_vocabulary(path, cache)
            for feature, value in exclusions:
                vocabulary = vocabulary.excluding(feature, [value])
            out.append((path, Generator(template, vocabulary)))
        except TemplateError as exc:
            _print_problems(exc)
            failures += 1
    return out, failures


def cmd_validate(args: argparse.Namespace) -> int:
    generators, failures = _generators(args.paths, args.exclude)
    for path, generator in generators:
        capacity = generator.capacity()
        t = generator.template
        print(
            f"ok   {t.uid}  ({path})  {t.language}/{t.phenomenon}  capacity: {capacity.describe()} "
            f"unique {t.options.unique} sentences"
        )
    if failures:
        print(f"{failures} template(s) have problems", file=sys.stderr)
    return 2 if failures else 0


def _highlight(text: str, spans: Sequence[tuple[int, int]]) -> str:
    out, last = [], 0
    for start, end in sorted(spans):
        out.append(text[last:start])
        out.append(f"[{text[start:end]}]" if end > start else "[^]")
        last = end
    out.append(text[last:])
    return "".join(out)


def cmd_preview(args: argparse.Namespace) -> int:
    generators, failures = _generators(args.paths, args.exclude)
    for _, generator in generators:
        print(f"== {generator.template.uid}")
        try:
            for pair in generator.pairs(args.n, args.seed):
                good = _highlight(pair.good, [g.chars for _, g, _, _ in pair.critical_region])
                bad = _highlight(pair.bad, [b.chars for _, _, b, _ in pair.critical_region])
                print(f"  {good}\n* {bad}   ({', '.join(pair.edit_types())})")
        except GenerationError as exc:
            _print_problems(exc)
            failures += 1
    return 2 if failures else 0


def cmd_generate(args: argparse.Namespace) -> int:
    if (args.out is None) == (args.out_dir is None):
        print("error: give exactly one of --out FILE or --out-dir FOLDER", file=sys.stderr)
        return 2
    generators, failures = _generators(args.paths, args.exclude)
    out_dir = Path(args.out_dir) if args.out_dir else None
    single = Path(args.out) if args.out else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    # Write to a temporary file and rename, so a failed run never leaves a truncated file
    # where a complete one is expected; finished paradigms are kept whatever happens later.
    single_tmp = single.with_name(single.name + ".partial") if single else None
    single_handle = single_tmp.open("wb") if single_tmp else None
    written = 0
    try:
        for path, generator in generators:
            uid = generator.template.uid
            stats = GenerationStats()
            started = time.perf_counter()
            target = out_dir / f"{uid}.jsonl" if out_dir else None
            tmp = target.with_name(target.name + ".partial") if target else None
            try:
                if tmp is not None:
                    with tmp.open("wb") as handle:
                        for line in generator.jsonl_lines(args.n, args.seed, unique=args.unique, stats=stats):
                            handle.write(line)
                    os.replace(tmp, target)  # type: ignore[arg-type]
                else:
                    assert single_handle is not None
                    mark = single_handle.tell()
                    try:
                        for line in generator.jsonl_lines(args.n, args.seed, unique=args.unique, stats=stats):
                            single_handle.write(line)
                    except GenerationError:
                        # Drop this paradigm's partial lines; the ones before it stay.
                        single_handle.seek(mark)
                        single_handle.truncate()
                        raise
            except GenerationError as exc:
                if tmp is not None and tmp.exists():
                    tmp.unlink()
                _print_problems(exc)
                failures += 1
                continue
            written += 1
            seconds = time.perf_counter() - started
            print(
                f"{uid}: {stats.produced:,} pairs in {seconds:.2f}s ({stats.attempts:,} tries) from {path}",
                file=sys.stderr,
            )
    finally:
        if single_handle is not None:
            single_handle.close()
            assert single_tmp is not None and single is not None
            if written:
                os.replace(single_tmp, single)
            else:
                single_tmp.unlink()
    if failures:
        print(f"{failures} paradigm(s) failed; {written} written", file=sys.stderr)
        return 1
    return 0


def _add_exclude(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="FEATURE=VALUE",
        help="leave out vocabulary items with this feature value, e.g. balanced=0 for the words a "
        "frequency balance dropped (repeatable)",
    )


def add_generator_commands(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],  # argparse has no public name
) -> None:
    """Add the `validate`, `preview` and `generate` commands to `subparsers`.

    Parsed arguments carry `func`: call `args.func(args)` to run the command.
    """
    validate = subparsers.add_parser("validate", help="check templates against their vocabularies")
    validate.add_argument("paths", nargs="+", help="template files or folders of templates")
    _add_exclude(validate)
    validate.set_defaults(func=cmd_validate)

    preview = subparsers.add_parser(
        "preview", help="print a few pairs with the critical region in [brackets]"
    )
    preview.add_argument("paths", nargs="+")
    preview.add_argument("--n", type=int, default=10)
    preview.add_argument("--seed", type=int, default=0)
    _add_exclude(preview)
    preview.set_defaults(func=cmd_preview)

    generate = subparsers.add_parser("generate", help="generate N unique pairs per paradigm as JSONL")
    generate.add_argument("paths", nargs="+")
    generate.add_argument("--n", type=int, required=True, help="pairs per paradigm")
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("--out", help="one JSONL file for all paradigms")
    generate.add_argument("--out-dir", help="a folder with one <UID>.jsonl per paradigm")
    generate.add_argument(
        "--unique",
        choices=["good", "bad", "pair"],
        default=None,
        help="what must be unique (default: the template's option, else good)",
    )
    _add_exclude(generate)
    generate.set_defaults(func=cmd_generate)
