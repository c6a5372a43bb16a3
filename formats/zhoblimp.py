"""ZhoBLiMP's JSONL (`sjtu-compling/ZhoBLiMP` data/ZhoBLiMP/<UID>.jsonl).

Each line holds `UID, phenomenon, sentence_good, sentence_bad, pairID` (an int from 0), written
by pandas with non-ASCII characters as they are. Any other field is kept as the pair's fields.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO

import orjson

from formats.jsonl import json_objects, required_text, sentences, type_name
from formats.record import FORMAT_LANGUAGES, ImportedPair, IssueList, ReadResult, record_text

FORMAT = "zhoblimp"
FIELDS = ("UID", "phenomenon", "sentence_good", "sentence_bad", "pairID")


def _pair_id(data: Mapping[str, object], number: int, issues: IssueList) -> str | None:
    if "pairID" not in data:
        issues.error(number, "the line lacks this field", field="pairID")
        return None
    value = data["pairID"]
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return str(value)
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        issues.warning(number, f"is text ({value!r}); ZhoBLiMP writes a number", field="pairID")
        return str(int(value))
    issues.error(number, f"must be a whole number from 0; found {type_name(value)} {value!r}", field="pairID")
    return None


def read_zhoblimp(stream: IO[bytes], file_name: str) -> ReadResult:
    """Return the pairs of a ZhoBLiMP JSONL file and every issue met (see `zhoblimp_pairs`)."""
    issues = IssueList(file_name)
    return issues.result(list(zhoblimp_pairs(stream, file_name, issues)), FORMAT)


@dataclass(slots=True)
class _EmptyPhenomena:
    """The lines of a file with an empty phenomenon: the first, and how many."""

    first: int = 0
    count: int = 0


def zhoblimp_pairs(stream: IO[bytes], file_name: str, issues: IssueList) -> Iterator[ImportedPair]:
    """Yield the pairs of a ZhoBLiMP JSONL file as they are read, adding every issue to `issues`.

    A line without usable sentences, UID or pairID is skipped (an error); an empty phenomenon
    (released data has one), a pairID written as text, equal sentences, a repeated pairID or
    a field ZhoBLiMP does not have is kept with a warning. Empty phenomena and unknown fields
    are warned about once per file (the empty phenomena with their count, once the file is read).
    """
    empty = _EmptyPhenomena()
    try:
        yield from _pairs(stream, file_name, issues, empty)
    finally:
        # Released files label a whole paradigm at once, so an empty label is on every line:
        # one warning per file, at its first line, with the count (not one per line).
        if empty.count:
            times = f" on {empty.count:,} lines (this is the first)" if empty.count > 1 else ""
            issues.warning(
                empty.first, f"is empty{times}; kept as it is (noted once per file)", field="phenomenon"
            )


def _pairs(
    stream: IO[bytes], file_name: str, issues: IssueList, empty: _EmptyPhenomena
) -> Iterator[ImportedPair]:
    """Yield the pairs of `zhoblimp_pairs`, counting the lines of empty phenomenon in `empty`."""
    seen: dict[tuple[str, str], int] = {}
    unknown_reported: set[str] = set()
    for number, data in json_objects(stream, issues):
        texts = sentences(data, number, issues)
        uid = required_text(data, "UID", number, issues)
        phenomenon = required_text(data, "phenomenon", number, issues, allow_empty=True)
        pair_id = _pair_id(data, number, issues)
        if texts is None or uid is None or phenomenon is None or pair_id is None:
            continue
        if not phenomenon.strip():
            empty.first = empty.first or number
            empty.count += 1
        uid = uid.strip()
        if (uid, pair_id) in seen:
            issues.warning(
                number,
                f"pair {pair_id} of {uid} was already read on line {seen[uid, pair_id]}",
                field="pairID",
            )
        seen.setdefault((uid, pair_id), number)
        fields = {key: value for key, value in data.items() if key not in FIELDS}
        for key in fields:
            if key not in unknown_reported:
                unknown_reported.add(key)
                issues.warning(number, "not a ZhoBLiMP field; kept as it is (noted once per file)", field=key)
        yield (
            ImportedPair(
                uid=uid,
                phenomenon=phenomenon.strip(),
                sentence_good=texts[0],
                sentence_bad=texts[1],
                pair_id=pair_id,
                source_format=FORMAT,
                file=file_name,
                line=number,
                language=FORMAT_LANGUAGES[FORMAT],
                fields=fields,
            )
        )


def zhoblimp_records(records: Iterable[Mapping[str, object]]) -> Iterator[dict[str, object]]:
    """Yield each record in ZhoBLiMP's layout: UID, phenomenon, sentences and an int pairID.

    A pairID that is not a whole number (never one the engine or these readers make) is
    replaced by the pair's place among its paradigm's pairs in this output.
    """
    counts: dict[str, int] = {}
    for record in records:
        uid = record_text(record, "UID")
        place = counts.get(uid, 0)
        counts[uid] = place + 1
        raw = record_text(record, "pairID")
        yield {
            "UID": uid,
            "phenomenon": record_text(record, "phenomenon"),
            "sentence_good": record_text(record, "sentence_good"),
            "sentence_bad": record_text(record, "sentence_bad"),
            "pairID": int(raw) if raw.isascii() and raw.isdigit() else place,
        }


def zhoblimp_lines(records: Iterable[Mapping[str, object]]) -> Iterator[bytes]:
    """Yield ZhoBLiMP JSONL lines (UTF-8, non-ASCII characters unescaped), one per record."""
    for record in zhoblimp_records(records):
        yield orjson.dumps(record) + b"\n"
