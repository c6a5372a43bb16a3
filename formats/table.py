"""The CSV layout of pairs: one row per pair, the critical region as character spans.

Used for generated and imported records alike (an imported pair has no critical region or
versions: those cells are blank).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping

from formats.pair_id import pair_id_of_record
from vocab.csv_cells import safe_row

CSV_COLUMNS = (
    "UID",
    "phenomenon",
    "pairID",
    "pair_id",
    "item_id",
    "language",
    "sentence_good",
    "sentence_bad",
    "critical_region_type",
    "critical_region_good",
    "critical_region_bad",
    "template_version",
    "vocabulary_version",
    "seed",
)
# A region part's span is "start:end" in characters (end exclusive, as Python slices);
# several parts are joined with this.
PART_SEPARATOR = "; "


def _span(side: object) -> str:
    chars = side.get("chars") if isinstance(side, Mapping) else None
    if isinstance(chars, list) and len(chars) == 2:
        return f"{chars[0]}:{chars[1]}"
    return ""


def _text(record: Mapping[str, object], key: str) -> str:
    value = record.get(key)
    return "" if value is None else str(value)


def csv_row(record: Mapping[str, object]) -> list[str]:
    """Return the CSV cells of one record, in CSV_COLUMNS order."""
    region = record.get("critical_region")
    parts = [p for p in region if isinstance(p, Mapping)] if isinstance(region, list) else []
    provenance = record.get("provenance")
    provenance = provenance if isinstance(provenance, Mapping) else {}
    return [
        _text(record, "UID"),
        _text(record, "phenomenon"),
        _text(record, "pairID"),
        pair_id_of_record(record),
        _text(record, "item_id"),
        _text(record, "language"),
        _text(record, "sentence_good"),
        _text(record, "sentence_bad"),
        PART_SEPARATOR.join(str(p.get("type", "")) for p in parts),
        PART_SEPARATOR.join(_span(p.get("good")) for p in parts),
        PART_SEPARATOR.join(_span(p.get("bad")) for p in parts),
        _text(provenance, "template_version"),
        _text(provenance, "vocabulary_version"),
        _text(provenance, "seed"),
    ]


def csv_text_lines(records: Iterable[Mapping[str, object]]) -> Iterator[str]:
    """Yield CSV text, a header line first, then one line per record."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")

    def take() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(CSV_COLUMNS)
    yield take()
    for record in records:
        writer.writerow(safe_row(csv_row(record)))
        yield take()
