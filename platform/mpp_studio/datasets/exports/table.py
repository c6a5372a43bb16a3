"""The CSV export: one row per pair, with the critical region as character spans.

The layout is the engine's (`formats.table`), shared with `mpp convert --to csv`.
"""

from collections.abc import Iterator

from formats.table import CSV_COLUMNS, PART_SEPARATOR, csv_row, csv_text_lines
from mpp_studio.datasets.exports.records import dataset_records
from mpp_studio.datasets.models import Dataset

__all__ = ["CSV_COLUMNS", "PART_SEPARATOR", "csv_lines", "csv_row"]


def csv_lines(dataset: Dataset) -> Iterator[str]:
    """Yield the dataset as CSV text (UTF-8, a header line first), one pair per line."""
    return csv_text_lines(dataset_records(dataset, with_pair_id=True))
