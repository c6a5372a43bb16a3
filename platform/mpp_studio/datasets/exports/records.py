"""The stored engine records of a dataset, in export order, and the BLiMP-style JSONL export."""

from collections.abc import Iterator, Mapping

import orjson

from formats.pair_id import pair_id
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair, PairReview

READ_CHUNK = 2_000  # rows fetched per database round trip while streaming

# The generator writes its record's keys in this order (generator.generate.Generator.record).
# PostgreSQL's jsonb keeps keys in its own order, so exports put them back: the lines then read
# as the engine writes them. Keys not listed here (a newer engine's) follow in stored order, and
# so do the position -> item maps inside `fillers` (their order is the template's, which the
# record does not hold): on PostgreSQL a line can differ from the engine's there, never in value.
RECORD_KEYS = (
    "sentence_good",
    "sentence_bad",
    "UID",
    "phenomenon",
    "pairID",
    "item_id",
    "language",
    "words_good",
    "words_bad",
    "critical_region",
    "provenance",
)
REGION_KEYS = ("type", "good", "bad", "source")
SIDE_KEYS = ("tokens", "chars", "positions")
PROVENANCE_KEYS = (
    "template",
    "template_version",
    "template_label",
    "vocabulary",
    "vocabulary_version",
    "seed",
    "generator",
    "structure",
    "fillers",
)


def _ordered(data: Mapping[str, object], keys: tuple[str, ...]) -> dict[str, object]:
    out = {key: data[key] for key in keys if key in data}
    out.update((key, value) for key, value in data.items() if key not in out)
    return out


def record_ordered(record: Mapping[str, object]) -> dict[str, object]:
    """Return a stored record with its keys in the engine's order, at every level."""
    out = _ordered(record, RECORD_KEYS)
    region = out.get("critical_region")
    if isinstance(region, list):
        out["critical_region"] = [
            {
                key: _ordered(value, SIDE_KEYS)
                if key in ("good", "bad", "source") and isinstance(value, dict)
                else value
                for key, value in _ordered(part, REGION_KEYS).items()
            }
            if isinstance(part, dict)
            else part
            for part in region
        ]
    provenance = out.get("provenance")
    if isinstance(provenance, dict):
        ordered = _ordered(provenance, PROVENANCE_KEYS)
        fillers = ordered.get("fillers")
        if isinstance(fillers, dict):
            ordered["fillers"] = _ordered(fillers, ("good", "bad"))
        out["provenance"] = ordered
    return out


def paradigm_records(paradigm: DatasetParadigm, *, with_pair_id: bool = False) -> Iterator[dict[str, object]]:
    """Yield a paradigm's records in pair order, fetching a chunk of rows at a time; pairs a
    person excluded (`services.curation`) are left out of every export. `with_pair_id` adds
    each pair's id as every page and score download gives it (`pair_id`: UID and the pair's
    number in the dataset, `formats.pair_id`), for the CSV and Parquet exports."""
    rows = (
        Pair.objects.filter(paradigm=paradigm)
        .exclude(review__decision=PairReview.Decision.EXCLUDED)
        .order_by("index")
        .values_list("record", "index")
    )
    for record, index in rows.iterator(chunk_size=READ_CHUNK):
        ordered = record_ordered(record)
        if with_pair_id:
            ordered["pair_id"] = pair_id(paradigm.uid, index)
        yield ordered


def dataset_records(dataset: Dataset, *, with_pair_id: bool = False) -> Iterator[dict[str, object]]:
    """Yield every record of the dataset, paradigm by paradigm (by uid), each in pair order."""
    for paradigm in dataset.paradigms.order_by("uid"):
        yield from paradigm_records(paradigm, with_pair_id=with_pair_id)


def jsonl_lines(dataset: Dataset) -> Iterator[bytes]:
    """Yield the dataset as BLiMP-style JSONL: one engine record per line, newline-terminated."""
    for record in dataset_records(dataset):
        yield orjson.dumps(record) + b"\n"
