"""Exports: JSONL of the engine's records, CSV with region spans, and a Hugging Face folder."""

import csv
import io
import json
import random
import zipfile
from collections.abc import Callable
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest
import yaml

from mpp_studio.datasets.exports import CSV_COLUMNS, csv_lines, hf_zip, jsonl_lines
from mpp_studio.datasets.exports.hf import SCHEMA, export_folder_name, hf_folder_write
from mpp_studio.datasets.exports.records import record_ordered
from mpp_studio.datasets.models import Dataset, Pair
from tests.web.datasets.conftest import ZH_CAPACITY, run_generation
from tests.web.datasets.test_engine import engine_generator

pytestmark = pytest.mark.django_db


def test_jsonl_lines_are_the_engine_records_paradigm_by_paradigm(generated: Dataset) -> None:
    lines = list(jsonl_lines(generated))
    assert len(lines) == 20 and all(line.endswith(b"\n") for line in lines)
    records = [orjson.loads(line) for line in lines]
    assert [r["UID"] for r in records] == ["en_sv_agreement"] * 10 + ["zh_classifier_noun"] * 10
    assert [r["pairID"] for r in records[:10]] == [str(i) for i in range(10)]
    # Byte for byte what `mpp generate` writes for the same template, vocabulary and seed.
    assert lines[:10] == list(engine_generator().jsonl_lines(10, 0))
    assert records[10]["sentence_good"].startswith("一")


def test_record_order_is_restored_whatever_the_database_kept() -> None:
    """PostgreSQL's jsonb reorders keys; exports put them back in the engine's order.

    (The inner maps of `fillers`, position -> item id, keep the order the database gives.)
    """
    record = orjson.loads(next(iter(engine_generator().jsonl_lines(1, 0))))

    def shuffled(value: object, rng: random.Random, key: str = "") -> object:
        if isinstance(value, dict):
            items = list(value.items())
            if key not in ("good", "bad") or "tokens" in value:  # not a fillers map
                rng.shuffle(items)
            return {k: shuffled(v, rng, k) for k, v in items}
        if isinstance(value, list):
            return [shuffled(v, rng) for v in value]
        return value

    mixed = shuffled(record, random.Random(4))
    assert list(mixed) != list(record)  # type: ignore[arg-type]
    assert orjson.dumps(record_ordered(mixed)) == orjson.dumps(record)  # type: ignore[arg-type]


def test_csv_has_one_row_per_pair_with_region_spans_and_versions(generated: Dataset) -> None:
    text = "".join(csv_lines(generated))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == 20
    first = Pair.objects.get(paradigm__uid="en_sv_agreement", index=0)
    region = first.record["critical_region"][0]
    row = rows[0]
    assert (row["UID"], row["pairID"], row["sentence_good"], row["sentence_bad"]) == (
        "en_sv_agreement",
        "0",
        first.sentence_good,
        first.sentence_bad,
    )
    assert row["critical_region_type"] == "substitution"
    assert row["critical_region_good"] == f"{region['good']['chars'][0]}:{region['good']['chars'][1]}"
    assert row["critical_region_bad"] == f"{region['bad']['chars'][0]}:{region['bad']['chars'][1]}"
    good_start, good_end = region["good"]["chars"]
    assert first.sentence_good[good_start:good_end].endswith("s")  # "sleeps", "runs", ...
    assert row["template_version"] == first.paradigm.template_hash
    assert row["vocabulary_version"] == first.paradigm.vocabulary_snapshot.content_hash
    assert row["seed"] == "0"
    assert rows[10]["sentence_good"].startswith("一") and rows[10]["language"] == "zh"


def test_hf_folder_parquet_reads_back_with_pyarrow(generated: Dataset, tmp_path: Path) -> None:
    files = hf_folder_write(generated, tmp_path)
    assert [f.path for f in files] == ["data/en_sv_agreement.parquet", "data/zh_classifier_noun.parquet"]
    table = pq.read_table(tmp_path / "data" / "en_sv_agreement.parquet")
    assert table.schema.equals(SCHEMA) and table.num_rows == 10
    exported = table.to_pylist()
    stored = [orjson.loads(line) for line in jsonl_lines(generated)][:10]
    for row, record in zip(exported, stored, strict=True):
        assert json.loads(row.pop("provenance")) == record["provenance"]
        regions = row.pop("critical_region")
        assert [{k: v for k, v in part.items() if v is not None} for part in regions] == record[
            "critical_region"
        ]
        assert row.pop("pair_id") == f"{record['UID']}/{record['pairID']}"  # the id every export gives it
        assert row == {k: v for k, v in record.items() if k not in ("provenance", "critical_region")}
    zh = pq.read_table(tmp_path / "data" / "zh_classifier_noun.parquet").to_pylist()
    assert zh[0]["sentence_good"].startswith("一") and len(zh) == 10


def test_dataset_card_lists_paradigms_versions_seeds_and_counts(generated: Dataset, tmp_path: Path) -> None:
    hf_folder_write(generated, tmp_path)
    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    front, body = card.split("---\n")[1], card.split("---\n", 2)[2]
    meta = yaml.safe_load(front)
    assert meta["pretty_name"] == "Agreement set" and meta["language"] == ["en", "zh"]
    assert "license" not in meta and meta["size_categories"] == ["n<1K"]
    assert [c["config_name"] for c in meta["configs"]] == ["all", "en_sv_agreement", "zh_classifier_noun"]
    assert meta["configs"][0]["default"] is True
    assert meta["configs"][1]["data_files"] == [{"split": "train", "path": "data/en_sv_agreement.parquet"}]
    for paradigm in generated.paradigms.all():
        snapshot = paradigm.vocabulary_snapshot
        row = (
            f"| {paradigm.uid} | {paradigm.phenomenon} | {paradigm.language} | 1 | {paradigm.template_hash} "
            f"| {snapshot.name} | {snapshot.content_hash} | 0 | 10 | 10 | done "
            f"| {paradigm.generator_version} |"
        )
        assert row in body
    assert "seed 0" in body and "20 pairs" in body

    info = json.loads((tmp_path / "dataset_info.json").read_text(encoding="utf-8"))
    assert info["splits"] == {"train": {"name": "train", "num_examples": 20}}
    facts = info["mpp_studio"]["paradigms"][0]
    assert (
        facts["uid"],
        facts["template_version"],
        facts["seed"],
        facts["requested"],
        facts["produced"],
    ) == (
        "en_sv_agreement",
        1,
        0,
        10,
        10,
    )
    assert facts["vocabulary"] == "en_nouns" and facts["file"] == "data/en_sv_agreement.parquet"


def test_failed_paradigm_is_listed_in_the_card_without_a_file(
    make_dataset: Callable[..., Dataset], tmp_path: Path
) -> None:
    dataset = make_dataset("en", "zh", n=ZH_CAPACITY + 1)
    run_generation(dataset)
    files = hf_folder_write(dataset, tmp_path)
    assert [f.path for f in files] == ["data/en_sv_agreement.parquet", ""]
    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "### Paradigms that did not finish" in card
    assert "- `zh_classifier_noun` (0 of 12 pairs): zh_classifier_noun can make at most 11" in card
    meta = yaml.safe_load(card.split("---\n")[1])
    assert [c["config_name"] for c in meta["configs"]] == ["all", "en_sv_agreement"]


def test_hf_zip_holds_the_folder(generated: Dataset) -> None:
    archive = hf_zip(generated)
    with zipfile.ZipFile(archive) as zf:
        names = sorted(zf.namelist())
    archive.close()
    assert export_folder_name(generated) == "agreement-set"
    assert names == [
        "agreement-set/README.md",
        "agreement-set/data/en_sv_agreement.parquet",
        "agreement-set/data/zh_classifier_noun.parquet",
        "agreement-set/dataset_info.json",
    ]


def test_export_name_of_a_chinese_name_falls_back_to_the_id(generated: Dataset) -> None:
    generated.name = "量词数据"
    assert export_folder_name(generated) == f"dataset-{generated.pk}"


def test_huggingface_datasets_loads_the_folder(
    generated: Dataset, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`datasets.load_dataset` reads every config the card declares, and the plain Parquet folder."""
    datasets = pytest.importorskip("datasets", reason="the `datasets` library (dev extra) is not installed")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    folder = tmp_path / "export"
    folder.mkdir()
    hf_folder_write(generated, folder)
    cache = str(tmp_path / "cache")

    everything = datasets.load_dataset(str(folder), cache_dir=cache)["train"]
    assert everything.num_rows == 20 and set(everything["UID"]) == {"en_sv_agreement", "zh_classifier_noun"}
    one = datasets.load_dataset(str(folder), "zh_classifier_noun", cache_dir=cache)["train"]
    assert one.num_rows == 10 and one[0]["critical_region"][0]["type"] == "substitution"
    plain = datasets.load_dataset("parquet", data_dir=str(folder / "data"), cache_dir=cache)["train"]
    assert plain.num_rows == 20
    info = datasets.DatasetInfo.from_dict(json.loads((folder / "dataset_info.json").read_text()))
    assert info.features == everything.features


def test_csv_and_parquet_name_each_pair_as_scores_and_studies_do(generated: Dataset, tmp_path: Path) -> None:
    """`pair_id` is the paradigm and the pair's number in the dataset, as per-item scores and
    study analyses give it, even where a released file numbered its pairs otherwise."""
    pair = Pair.objects.filter(paradigm__dataset=generated, paradigm__uid="en_sv_agreement", index=3).get()
    pair.record = {**pair.record, "pairID": "77"}  # an imported file's own numbering
    pair.save()
    rows = list(csv.DictReader(io.StringIO("".join(csv_lines(generated)))))
    assert [r["pair_id"] for r in rows[:5]] == [f"en_sv_agreement/{i}" for i in range(5)]
    assert rows[3]["pairID"] == "77"
    hf_folder_write(generated, tmp_path)
    ids = pq.read_table(tmp_path / "data" / "en_sv_agreement.parquet").column("pair_id").to_pylist()
    assert ids[3] == "en_sv_agreement/3"
