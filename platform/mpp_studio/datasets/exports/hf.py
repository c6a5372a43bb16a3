"""The Hugging Face `datasets` export: a folder zipped, with one Parquet file per paradigm.

Layout (inside `<name>/` in the zip):
    README.md            dataset card; its YAML `configs` name config "all" (every file, the
                         default) and one config per paradigm, each with a `train` split
    dataset_info.json    the card's facts as data
    data/<UID>.parquet   the paradigm's pairs, in pair order

`datasets.load_dataset("<folder>")`, `load_dataset("<folder>", "<UID>")` and
`load_dataset("parquet", data_dir="<folder>/data")` read it. Parquet files are written a row
group at a time into a temporary folder on disk, and the zip into a temporary file: memory stays
flat however large the dataset.
"""

import json
import re
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from mpp_studio.datasets.exports.card import ParadigmFile, dataset_card, dataset_info, paradigm_file_path
from mpp_studio.datasets.exports.records import paradigm_records
from mpp_studio.datasets.models import Dataset, DatasetParadigm

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


def _row(record: dict[str, object]) -> dict[str, object]:
    region = record.get("critical_region")
    return {
        "sentence_good": record.get("sentence_good"),
        "sentence_bad": record.get("sentence_bad"),
        "UID": record.get("UID"),
        "phenomenon": record.get("phenomenon"),
        "pairID": record.get("pairID"),
        "item_id": record.get("item_id"),
        "language": record.get("language"),
        "words_good": record.get("words_good"),
        "words_bad": record.get("words_bad"),
        "critical_region": [
            {key: part.get(key) for key in ("type", "good", "bad", "source")}
            for part in (region if isinstance(region, list) else [])
            if isinstance(part, dict)
        ],
        "provenance": orjson.dumps(record.get("provenance")).decode(),
    }


def _batches(paradigm: DatasetParadigm) -> Iterator[pa.RecordBatch]:
    rows: list[dict[str, object]] = []
    for record in paradigm_records(paradigm):
        rows.append(_row(record))
        if len(rows) >= ROW_GROUP:
            yield pa.RecordBatch.from_pylist(rows, schema=SCHEMA)
            rows = []
    if rows:
        yield pa.RecordBatch.from_pylist(rows, schema=SCHEMA)


def paradigm_parquet_write(paradigm: DatasetParadigm, path: Path) -> int:
    """Write a paradigm's pairs to a Parquet file, a row group at a time; return the row count."""
    count = 0
    with pq.ParquetWriter(path, SCHEMA, compression="zstd") as writer:
        for batch in _batches(paradigm):
            writer.write_batch(batch, row_group_size=ROW_GROUP)
            count += batch.num_rows
    return count


def hf_folder_write(dataset: Dataset, folder: Path) -> list[ParadigmFile]:
    """Write the export folder (README.md, dataset_info.json, data/*.parquet); return its files.

    A paradigm with no stored pairs gets no Parquet file (the card lists it, with its reason).
    """
    files: list[ParadigmFile] = []
    for paradigm in dataset.paradigms.select_related("template_version", "vocabulary_snapshot").order_by(
        "uid"
    ):
        path = ""
        if paradigm.produced:
            path = paradigm_file_path(paradigm)
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            paradigm_parquet_write(paradigm, target)
        files.append(ParadigmFile(paradigm, path))
    (folder / "README.md").write_text(dataset_card(dataset, files), encoding="utf-8")
    (folder / "dataset_info.json").write_text(
        json.dumps(dataset_info(dataset, files), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    return files


def export_folder_name(dataset: Dataset) -> str:
    """Return the folder (and file) name of a dataset's export: its name in safe characters."""
    slug = re.sub(r"[^\w.-]+", "-", dataset.name, flags=re.ASCII).strip("-.").lower()
    return slug or f"dataset-{dataset.pk}"


def hf_zip(dataset: Dataset) -> IO[bytes]:
    """Return a temporary file (positioned at its start) holding the zipped export folder.

    The file disappears when closed.
    """
    name = export_folder_name(dataset)
    # Not a `with` block: the caller streams the file and closes it (FileResponse does).
    archive = tempfile.TemporaryFile(prefix="mpp-export-", suffix=".zip")  # noqa: SIM115
    with tempfile.TemporaryDirectory(prefix="mpp-export-") as tmp:
        folder = Path(tmp) / name
        folder.mkdir()
        hf_folder_write(dataset, folder)
        # Parquet is compressed already; storing it again as deflate would only cost time.
        with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(p for p in folder.rglob("*") if p.is_file()):
                arcname = f"{name}/{path.relative_to(folder).as_posix()}"
                method = zipfile.ZIP_STORED if path.suffix == ".parquet" else zipfile.ZIP_DEFLATED
                zf.write(path, arcname, compress_type=method)
    archive.seek(0)
    return archive
