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
from pathlib import Path
from typing import IO

from formats.parquet import ROW_GROUP, SCHEMA, parquet_write
from mpp_studio.datasets.exports.card import ParadigmFile, dataset_card, dataset_info, paradigm_file_path
from mpp_studio.datasets.exports.records import paradigm_records
from mpp_studio.datasets.models import Dataset, DatasetParadigm

# The Parquet layout is the engine's (formats.parquet), shared with `mpp convert --to hf`.
__all__ = ["ROW_GROUP", "SCHEMA", "export_folder_name", "hf_folder_write", "hf_zip", "paradigm_parquet_write"]


def paradigm_parquet_write(paradigm: DatasetParadigm, path: Path) -> int:
    """Write a paradigm's pairs to a Parquet file, a row group at a time; return the row count."""
    return parquet_write(paradigm_records(paradigm, with_pair_id=True), path)


def hf_folder_write(dataset: Dataset, folder: Path) -> list[ParadigmFile]:
    """Write the export folder (README.md, dataset_info.json, data/*.parquet); return its files.

    A paradigm with no stored pairs gets no Parquet file (the card lists it, with its reason).
    """
    files: list[ParadigmFile] = []
    used: set[str] = set()
    for paradigm in dataset.paradigms.select_related("template_version", "vocabulary_snapshot").order_by(
        "uid"
    ):
        path = ""
        if paradigm.produced:
            path = paradigm_file_path(paradigm)
            while path.lower() in used:  # imported UIDs that clean to one file name
                path = path.removesuffix(".parquet") + "_.parquet"
            used.add(path.lower())
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
