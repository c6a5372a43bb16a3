"""Importing released datasets as read-only datasets: paradigms per UID, pairs with their source,
the report item by item, nothing stored when nothing is usable, and every export format."""

import csv
import io
import zipfile
from pathlib import Path

import orjson
import pytest
from django.core.exceptions import ValidationError

from mpp_studio.datasets.exports import csv_lines, jsonl_lines, zhoblimp_jsonl_lines
from mpp_studio.datasets.exports.hf import hf_folder_write
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.datasets.services import (
    DatasetImportRejected,
    UploadedFile,
    dataset_import,
    dataset_require_generated,
)

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"


def upload(name: str) -> UploadedFile:
    return UploadedFile(name, io.BytesIO((DATA / name).read_bytes()))


def do_import(project: object, *names: str, **options: object) -> Dataset:
    return dataset_import(
        project=project,  # type: ignore[arg-type]
        name="Released",
        files=[upload(n) for n in names],
        **options,  # type: ignore[arg-type]
    ).dataset


def test_import_stores_paradigms_per_uid_and_pairs_with_their_source(project: object, editor: object) -> None:
    outcome = dataset_import(
        project=project,  # type: ignore[arg-type]
        name="Mixed release",
        files=[upload("zhoblimp.jsonl"), upload("island-effects-adjunct_island.txt")],
        created_by=editor,  # type: ignore[arg-type]
    )
    dataset = outcome.dataset
    assert dataset.is_imported and dataset.source_format == Dataset.SourceFormat.MIXED
    assert dataset.zorro_order == "bad-first" and dataset.job is None and dataset.created_by == editor
    paradigms = list(dataset.paradigms.order_by("uid"))
    assert [
        (p.uid, p.phenomenon, p.language, p.produced, p.status, p.template_version) for p in paradigms
    ] == [
        ("BA_basic", "BA", "zh", 2, DatasetParadigm.Status.DONE, None),
        ("classifier_noun", "classifier", "zh", 1, DatasetParadigm.Status.DONE, None),
        ("island-effects-adjunct_island", "island-effects", "en", 2, DatasetParadigm.Status.DONE, None),
    ]
    pair = Pair.objects.get(paradigm__uid="island-effects-adjunct_island", index=1)
    assert pair.sentence_good == "what did sarah see after hearing the dog ?"
    assert pair.record["provenance"]["source_line"] == 3
    assert pair.record["provenance"]["source_file"] == "island-effects-adjunct_island.txt"
    assert [f["file"] for f in dataset.source_files] == [
        "zhoblimp.jsonl",
        "island-effects-adjunct_island.txt",
    ]
    # The Zorro file's fifth line has no partner: one error, by line.
    assert dataset.import_report == [
        {
            "file": "island-effects-adjunct_island.txt",
            "line": 5,
            "field": "",
            "severity": "error",
            "message": "the file has an odd number of sentences: this last one has no partner",
        }
    ]


def test_a_file_with_bad_lines_imports_the_good_ones_and_lists_the_bad(project: object) -> None:
    dataset = do_import(project, "blimp_some_bad.jsonl")
    assert dataset.source_format == "blimp" and dataset.zorro_order == ""
    pairs = list(Pair.objects.filter(paradigm__dataset=dataset).order_by("index"))
    assert [p.record["pairID"] for p in pairs] == ["0", "1"]
    assert [(i["line"], i["field"], i["severity"]) for i in dataset.import_report] == [
        (2, "", "error"),
        (4, "sentence_bad", "error"),
    ]
    assert dataset.source_files == [
        {"file": "blimp_some_bad.jsonl", "format": "blimp", "pairs": 2, "errors": 2, "warnings": 0}
    ]


def test_nothing_is_saved_when_the_whole_upload_is_unusable(project: object) -> None:
    with pytest.raises(DatasetImportRejected) as caught:
        do_import(project, "unusable.jsonl", source_format="blimp")
    assert Dataset.objects.count() == 0 and Pair.objects.count() == 0
    issues = caught.value.result.issues
    assert [i.line for i in issues] == [1, 2, 3]
    assert "not UTF-8" in issues[2].message
    with pytest.raises(DatasetImportRejected) as detected:
        do_import(project, "unusable.jsonl")
    assert [i.message for i in detected.value.result.issues] == [
        "format not recognised: none of its first 3 lines is a JSON object"
    ]


def test_zorro_good_first_order_swaps_the_sentences(project: object) -> None:
    dataset = do_import(project, "island-effects-adjunct_island.txt", zorro_order="good-first")
    first = Pair.objects.get(paradigm__dataset=dataset, index=0)
    assert first.sentence_good == "what did robert eat the kiss while facing ?"
    assert dataset.zorro_order == "good-first"


def test_a_zip_of_files_is_imported_member_by_member(project: object) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.write(DATA / "zhoblimp.jsonl", "release/zhoblimp.jsonl")
        zf.write(DATA / "blimp_some_bad.jsonl", "release/blimp_some_bad.jsonl")
    buffer.seek(0)
    outcome = dataset_import(project=project, name="Zipped", files=[UploadedFile("release.zip", buffer)])  # type: ignore[arg-type]
    assert outcome.dataset.paradigms.count() == 3
    assert {f["file"] for f in outcome.dataset.source_files} == {
        "release.zip/release/zhoblimp.jsonl",
        "release.zip/release/blimp_some_bad.jsonl",
    }


def test_forced_format_and_bad_arguments(project: object) -> None:
    with pytest.raises(ValidationError) as caught:
        dataset_import(project=project, name=" ", files=[], source_format="csv", zorro_order="sideways")  # type: ignore[arg-type]
    assert set(caught.value.message_dict) == {"name", "files", "source_format", "zorro_order"}
    with pytest.raises(DatasetImportRejected) as caught_rejected:  # BLiMP lines lack ZhoBLiMP's phenomenon
        do_import(project, "blimp_some_bad.jsonl", source_format="zhoblimp")
    assert "field 'phenomenon': the line lacks this field" in str(caught_rejected.value.result.issues[0])
    forced = do_import(project, "zhoblimp.jsonl", source_format="blimp")
    notes = {(i["field"], i["severity"]) for i in forced.import_report}
    assert notes == {("pairID", "warning"), ("phenomenon", "warning")}


def test_imported_dataset_refuses_generated_only_actions(project: object) -> None:
    dataset = do_import(project, "zhoblimp.jsonl")
    with pytest.raises(ValidationError) as caught:
        dataset_require_generated(dataset=dataset)
    assert "imported dataset: it is read-only" in caught.value.messages[0]


def test_imported_dataset_exports_in_every_format(project: object, tmp_path: Path) -> None:
    dataset = do_import(project, "zhoblimp.jsonl", "blimp_some_bad.jsonl")
    records = [orjson.loads(line) for line in jsonl_lines(dataset)]
    assert [r["UID"] for r in records] == [
        "BA_basic",
        "BA_basic",
        "classifier_noun",
        *["determiner_noun_agreement_1"] * 2,
    ]
    assert records[3]["provenance"]["fields"]["one_prefix_word_bad"] == "sketches"
    zho = [orjson.loads(line) for line in zhoblimp_jsonl_lines(dataset)]
    assert zho[0] == {
        "UID": "BA_basic",
        "phenomenon": "BA",
        "sentence_good": "他把书放在桌子上。",
        "sentence_bad": "他把放书在桌子上。",
        "pairID": 0,
    }
    assert "他把书" in b"".join(zhoblimp_jsonl_lines(dataset)).decode()  # not escaped
    rows = list(csv.DictReader(io.StringIO("".join(csv_lines(dataset)))))
    assert len(rows) == 5 and rows[3]["phenomenon"] == "determiner_noun_agreement" and rows[3]["seed"] == ""
    files = hf_folder_write(dataset, tmp_path)
    assert [f.path for f in files] == [
        "data/BA_basic.parquet",
        "data/classifier_noun.parquet",
        "data/determiner_noun_agreement_1.parquet",
    ]
    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "imported into MPP Studio" in card and "| blimp_some_bad.jsonl | blimp | 2 | 2 | 0 |" in card
