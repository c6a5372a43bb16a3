"""The ZhoBLiMP JSONL export: `UID, phenomenon, sentence_good, sentence_bad, pairID` (an int) a
line, non-ASCII characters as they are; the layout is the engine's (`formats.zhoblimp`)."""

from collections.abc import Iterator

from formats.zhoblimp import zhoblimp_lines
from mpp_studio.datasets.exports.records import dataset_records
from mpp_studio.datasets.models import Dataset


def zhoblimp_jsonl_lines(dataset: Dataset) -> Iterator[bytes]:
    """Yield the dataset in ZhoBLiMP's JSONL layout, paradigm by paradigm, each in pair order."""
    return zhoblimp_lines(dataset_records(dataset))
