"""The BLiMP JSONL export: BLiMP's own fields a line, in its order, pairID as text; the layout is
the engine's (`formats.blimp`). An imported BLiMP pair gets its own fields back."""

from collections.abc import Iterator

from formats.blimp import blimp_lines
from mpp_studio.datasets.exports.records import dataset_records
from mpp_studio.datasets.models import Dataset


def blimp_jsonl_lines(dataset: Dataset) -> Iterator[bytes]:
    """Yield the dataset in BLiMP's JSONL layout, paradigm by paradigm, each in pair order."""
    return blimp_lines(dataset_records(dataset))
