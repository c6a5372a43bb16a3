"""The Parquet layout of pairs (the Hugging Face `datasets` export): one row per pair.

Generated records fill every column; an imported record has no words or critical region
(empty) and its provenance says where it was read. `provenance` is JSON text, since its shape
differs between paradigms.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

import orjson
import pyarrow as pa  # type: ignore[import-untyped]  # pyarrow ships no type information
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from formats.pair_id import pair_id_of_record

ROW_GROUP = 2_000

_SIDE = pa.struct(
    [
        pa.field("tokens", pa.list_(pa.int64())),
        pa.field("chars", pa.list_(pa.int64())),
        pa.field("positions", pa.list_(pa.string())),
    ]
)
SCHEMA = pa.schema(
    [
        pa.field("sentence_good", pa.string()),
        pa.field("sentence_bad", pa.string()),
        pa.field("UID", pa.string()),
        pa.field("phenomenon", pa.string()),
        pa.field("pairID", pa.string()),
        pa.field("pair_id", pa.string()),  # UID/pairID (formats.pair_id)
        pa.field("item_id", pa.string()),
        pa.field("language", pa.string()),
        pa.field("words_good", pa.list_(pa.string())),
        pa.field("words_bad", pa.list_(pa.string())),
        pa.field(
            "critical_region",
            pa.list_(
                pa.struct(
                    [
                        pa.field("type", pa.string()),
                        pa.field("good", _SIDE),
                        pa.field("bad", _SIDE),
                        pa.field("source", _SIDE),  # null unless the edit copies or moves material
                    ]
                )
            ),
        ),
        pa.field("provenance", pa.string()),  # JSON: its fillers differ in shape between paradigms
    ]
)


def parquet_row(record: Mapping[str, object]) -> dict[str, object]:
    """Return a record as a row of SCHEMA."""
    region = record.get("critical_region")
    return {
        "sentence_good": record.get("sentence_good"),
        "sentence_bad": record.get("sentence_bad"),
        "UID": record.get("UID"),
        "phenomenon": record.get("phenomenon"),
        "pairID": record.get("pairID"),
        "pair_id": pair_id_of_record(record) or None,
        "item_id": record.get("item_id"),
        "language": record.get("language"),
        "words_good": record.get("words_good"),
        "words_bad": record.get("words_bad"),
        "critical_region": [
            {key: part.get(key) for key in ("type", "good", "bad", "source")}
            for part in (region if isinstance(region, list) else [])
            if isinstance(part, Mapping)
        ],
        "provenance": orjson.dumps(record.get("provenance")).decode(),
    }


def record_batches(
    records: Iterable[Mapping[str, object]], rows: int = ROW_GROUP
) -> Iterator[pa.RecordBatch]:
    """Yield the records as Arrow batches of SCHEMA, `rows` at a time."""
    batch: list[dict[str, object]] = []
    for record in records:
        batch.append(parquet_row(record))
        if len(batch) >= rows:
            yield pa.RecordBatch.from_pylist(batch, schema=SCHEMA)
            batch = []
    if batch:
        yield pa.RecordBatch.from_pylist(batch, schema=SCHEMA)


def parquet_write(records: Iterable[Mapping[str, object]], path: Path) -> int:
    """Write records to a Parquet file, a row group at a time; return the row count."""
    count = 0
    with pq.ParquetWriter(path, SCHEMA, compression="zstd") as writer:
        for batch in record_batches(records):
            writer.write_batch(batch, row_group_size=ROW_GROUP)
            count += batch.num_rows
    return count
