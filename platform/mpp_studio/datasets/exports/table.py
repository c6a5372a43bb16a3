"""The CSV export: one row per pair, with the critical region as character spans."""

import csv
import io
from collections.abc import Iterator, Mapping

from mpp_studio.datasets.exports.records import dataset_records
from mpp_studio.datasets.models import Dataset

CSV_COLUMNS = (
    "UID",
    "phenomenon",
    "pairID",
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


def csv_row(record: Mapping[str, object]) -> list[str]:
    """Return the CSV cells of one engine record, in CSV_COLUMNS order."""
    region = record.get("critical_region")
    parts = [p for p in region if isinstance(p, Mapping)] if isinstance(region, list) else []
    provenance = record.get("provenance")
    provenance = provenance if isinstance(provenance, Mapping) else {}
    return [
        str(record.get("UID", "")),
        str(record.get("phenomenon", "")),
        str(record.get("pairID", "")),
        str(record.get("item_id", "")),
        str(record.get("language", "")),
        str(record.get("sentence_good", "")),
        str(record.get("sentence_bad", "")),
        PART_SEPARATOR.join(str(p.get("type", "")) for p in parts),
        PART_SEPARATOR.join(_span(p.get("good")) for p in parts),
        PART_SEPARATOR.join(_span(p.get("bad")) for p in parts),
        str(provenance.get("template_version", "")),
        str(provenance.get("vocabulary_version", "")),
        str(provenance.get("seed", "")),
    ]


def csv_lines(dataset: Dataset) -> Iterator[str]:
    """Yield the dataset as CSV text (UTF-8, a header line first), one pair per line."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")

    def take() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(CSV_COLUMNS)
    yield take()
    for record in dataset_records(dataset):
        writer.writerow(csv_row(record))
        yield take()
