"""Zorro's text files (`phueb/Zorro` sentences/babyberta/<phenomenon>-<paradigm>.txt).

One sentence a line, two lines a pair, 4,000 lines per paradigm. `phueb/Zorro` puts the
ungrammatical sentence first; the copy in `phueb/UnMasked` (test_suites/zorro/) puts the
grammatical one first: the reader is told which (`bad-first` by default). The file name gives
the phenomenon and the paradigm; a phenomenon can itself contain "-" (`filler-gap`,
`island-effects`), so the name is resolved against Zorro's 13 phenomena, never cut at the
first "-".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePath
from typing import IO, Literal

from formats.lines import numbered_lines
from formats.record import FORMAT_LANGUAGES, ImportedPair, IssueList, ReadResult

FORMAT = "zorro"
Order = Literal["bad-first", "good-first"]
ORDERS: tuple[Order, ...] = ("bad-first", "good-first")

PHENOMENA = (
    "agreement_determiner_noun",
    "agreement_subject_verb",
    "anaphor_agreement",
    "argument_structure",
    "binding",
    "case",
    "ellipsis",
    "filler-gap",
    "irregular",
    "island-effects",
    "local_attractor",
    "npi_licensing",
    "quantifiers",
)


@dataclass(frozen=True, slots=True)
class ZorroName:
    """What a file name says: the paradigm, its phenomenon, and any doubt.

    The pairs' UID is the whole name (`filler-gap-wh_question_object`): paradigm names alone
    repeat across phenomena in Zorro's history (`...-between_neighbors`).
    """

    uid: str
    paradigm: str
    phenomenon: str  # "" when the name does not say it for certain
    problem: str  # why the phenomenon is blank or not one of Zorro's ("" when all is well)


def zorro_name(file_name: str) -> ZorroName:
    """Return the UID, paradigm and phenomenon a Zorro file name `phenomenon-paradigm.txt` gives.

    A name starting with one of Zorro's 13 phenomena and "-" splits there. Otherwise a name
    with exactly one "-" splits at it (the phenomenon is then not a Zorro one, and said so);
    a name with several "-" could split at any of them, so the phenomenon is left blank and
    the whole name is the paradigm, as is a name with no "-".
    """
    stem = PurePath(file_name).stem
    known = [p for p in PHENOMENA if stem.startswith(p + "-") and len(stem) > len(p) + 1]
    if len(known) == 1:
        return ZorroName(stem, stem[len(known[0]) + 1 :], known[0], "")
    if len(known) > 1:  # cannot happen with Zorro's own names; said rather than chosen
        choices = " or ".join(f"'{p}'" for p in known)
        return ZorroName(
            stem, stem, "", f"the file name could start with phenomenon {choices}; phenomenon left blank"
        )
    dashes = stem.count("-")
    if dashes == 0:
        return ZorroName(
            stem,
            stem,
            "",
            "the file name is not 'phenomenon-paradigm'; the paradigm is the whole name, phenomenon blank",
        )
    if dashes == 1 and all(stem.split("-")):
        phenomenon, paradigm = stem.split("-")
        return ZorroName(
            stem,
            paradigm,
            phenomenon,
            f"'{phenomenon}' is not one of Zorro's 13 phenomena ({', '.join(PHENOMENA)}); "
            "kept as the file name gives it",
        )
    splits = [(stem[:i], stem[i + 1 :]) for i, c in enumerate(stem) if c == "-" and 0 < i < len(stem) - 1]
    shown = "; ".join(f"'{a}' + '{b}'" for a, b in splits)
    return ZorroName(
        stem,
        stem,
        "",
        f"the file name is ambiguous: it could be phenomenon + paradigm as {shown}, and none starts with "
        "one of Zorro's 13 phenomena; the paradigm is the whole name, phenomenon blank",
    )


def read_zorro(stream: IO[bytes], file_name: str, order: Order = "bad-first") -> ReadResult:
    """Return the pairs of a Zorro text file and every issue met (see `zorro_pairs`)."""
    issues = IssueList(file_name)
    return issues.result(list(zorro_pairs(stream, file_name, issues, order)), FORMAT)


def zorro_pairs(
    stream: IO[bytes], file_name: str, issues: IssueList, order: Order = "bad-first"
) -> Iterator[ImportedPair]:
    """Yield the pairs of a Zorro text file as they are read, adding every issue to `issues`.

    Lines pair up in order (`order` says which of the two is ungrammatical); a blank line is
    skipped with a warning and the lines after it pair up as they come; an odd line left at
    the end has no partner and is skipped (an error); equal sentences are kept with a warning.
    """
    name = zorro_name(file_name)
    if name.problem:
        issues.warning(None, name.problem)
    count = 0
    waiting: tuple[int, str] | None = None
    for number, text in numbered_lines(stream, issues):
        sentence = text.strip()
        if not sentence:
            issues.warning(number, "blank line skipped; the lines after it pair up as they come")
            continue
        if waiting is None:
            waiting = (number, sentence)
            continue
        first_line, first = waiting
        waiting = None
        good, bad = (sentence, first) if order == "bad-first" else (first, sentence)
        if good == bad:
            issues.warning(first_line, f"lines {first_line} and {number} are the same sentence")
        yield (
            ImportedPair(
                uid=name.uid,
                phenomenon=name.phenomenon,
                sentence_good=good,
                sentence_bad=bad,
                pair_id=str(count),
                source_format=FORMAT,
                file=file_name,
                line=first_line,
                language=FORMAT_LANGUAGES[FORMAT],
                fields={"paradigm": name.paradigm, "order": order},
            )
        )
        count += 1
    if waiting is not None:
        issues.error(
            waiting[0],
            "the file has an odd number of sentences: this last one has no partner",
        )
