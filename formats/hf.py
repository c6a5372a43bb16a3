"""A Hugging Face `datasets` folder of pairs: data/<UID>.parquet per paradigm and a README.md
dataset card whose configs name "all" (the default) and each paradigm, as
`datasets.load_dataset(folder)` and `load_dataset(folder, "<UID>")` read them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import yaml

from formats.parquet import parquet_write
from formats.uid_files import UidFile, records_by_uid

DATA_FOLDER = "data"
SPLIT = "train"


def hf_folder_write(records: Iterable[Mapping[str, object]], folder: Path, name: str) -> list[UidFile]:
    """Write the records into `folder` as a Hugging Face dataset folder; return its Parquet files
    (`path` relative to the folder).

    Records are grouped by UID in the order met (`records_by_uid`: one `data/<UID>.parquet`
    each); within a paradigm they keep their order.
    """
    (folder / DATA_FOLDER).mkdir(parents=True, exist_ok=True)
    files: list[UidFile] = []
    for uid, stem, group in records_by_uid(records):
        path = f"{DATA_FOLDER}/{stem}.parquet"
        files.append(UidFile(uid, path, parquet_write(group, folder / path)))
    (folder / "README.md").write_text(dataset_card(name, files), encoding="utf-8")
    return files


def dataset_card(name: str, files: list[UidFile]) -> str:
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
