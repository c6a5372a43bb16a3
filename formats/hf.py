"""A Hugging Face `datasets` folder of pairs: data/<UID>.parquet per paradigm and a README.md
dataset card whose configs name "all" (the default) and each paradigm, as
`datasets.load_dataset(folder)` and `load_dataset(folder, "<UID>")` read them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from formats.parquet import parquet_write
from formats.record import record_text

DATA_FOLDER = "data"
SPLIT = "train"


@dataclass(frozen=True, slots=True)
class ParquetFile:
    """One paradigm's file in the folder and how many pairs it holds."""

    uid: str
    path: str  # relative to the folder
    rows: int


def parquet_file_name(uid: str) -> str:
    """Return a paradigm's file name: its UID with anything but letters, digits, `._-` replaced."""
    return re.sub(r"[^\w.-]+", "_", uid).strip(".") or "paradigm"


def hf_folder_write(records: Iterable[Mapping[str, object]], folder: Path, name: str) -> list[ParquetFile]:
    """Write the records into `folder` as a Hugging Face dataset folder; return its Parquet files.

    Records are grouped by UID in the order met; within a paradigm they keep their order.
    """
    by_uid: dict[str, list[Mapping[str, object]]] = {}
    for record in records:
        by_uid.setdefault(record_text(record, "UID"), []).append(record)
    (folder / DATA_FOLDER).mkdir(parents=True, exist_ok=True)
    files: list[ParquetFile] = []
    used: set[str] = set()
    for uid, group in by_uid.items():
        stem = parquet_file_name(uid)
        while stem.lower() in used:  # two UIDs that clean to one name, or differ only in case
            stem += "_"
        used.add(stem.lower())
        path = f"{DATA_FOLDER}/{stem}.parquet"
        files.append(ParquetFile(uid, path, parquet_write(group, folder / path)))
    (folder / "README.md").write_text(dataset_card(name, files), encoding="utf-8")
    return files


def dataset_card(name: str, files: list[ParquetFile]) -> str:
    """Return the README.md dataset card: YAML configs, then the paradigms and the fields."""
    configs: list[dict[str, object]] = []
    if files:
        configs.append(
            {
                "config_name": "all",
                "data_files": [{"split": SPLIT, "path": f"{DATA_FOLDER}/*.parquet"}],
                "default": True,
            }
        )
        configs += [{"config_name": f.uid, "data_files": [{"split": SPLIT, "path": f.path}]} for f in files]
    front: dict[str, object] = {"pretty_name": name, "tags": ["minimal-pairs", "linguistics", "mpp-studio"]}
    if configs:
        front["configs"] = configs
    lines = [
        "---",
        yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1000).rstrip("\n"),
        "---",
        "",
        f"# {name}",
        "",
        f"Minimal pairs written by MPP Studio: {len(files)} paradigm(s), "
        f"{sum(f.rows for f in files):,} pairs.",
        "",
        "| UID | Pairs | File |",
        "|---|---|---|",
        *(f"| {f.uid} | {f.rows:,} | {f.path} |" for f in files),
        "",
        "Fields: `sentence_good`, `sentence_bad`, `UID`, `phenomenon`, `pairID`, `item_id`, `language`, "
        "`words_good`, `words_bad`, `critical_region` (generated pairs only) and `provenance` (JSON text: "
        "the template, vocabulary and seed of a generated pair, or the file and line an imported pair "
        "was read from with its other fields).",
        "",
    ]
    return "\n".join(lines)
