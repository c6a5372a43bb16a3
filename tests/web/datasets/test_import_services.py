"""Importing released datasets as read-only datasets, as a job: the request keeps the files and
queues it; the job stores paradigms per UID and pairs with their source in short chunks, the
report item by item; no pair kept when nothing is usable or too much is; safe to run twice; every
export format."""

import csv
import io
import zipfile
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest
from django.core.exceptions import ValidationError
from django.db.models import Count

from mpp_studio.datasets.exports import blimp_jsonl_lines, csv_lines, jsonl_lines, zhoblimp_jsonl_lines
from mpp_studio.datasets.exports.hf import hf_folder_write
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.datasets.services import (
    UploadedFile,
    dataset_import_run,
    dataset_import_start,
    dataset_require_generated,
)
from mpp_studio.datasets.services import imports as import_service
from mpp_studio.jobs.models import Job

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"


def upload(name: str) -> UploadedFile:
    return UploadedFile(name, io.BytesIO((DATA / name).read_bytes()))


def run_import(files: list[UploadedFile], project: object, **options: object) -> Dataset:
    """Start an import and run its job here, as the worker would; return the dataset after it."""
    dataset = dataset_import_start(
        project=project, name=str(options.pop("name", "Released")), files=files, **options
    )  # type: ignore[arg-type]
    assert dataset.job is not None and dataset.job.status == Job.Status.QUEUED
    assert dataset.paradigms.count() == 0  # nothing is read in the request
    dataset_import_run(dataset_id=dataset.pk)
    dataset.refresh_from_db()
    dataset.job.refresh_from_db()
    return dataset


def do_import(project: object, *names: str, **options: object) -> Dataset:
    dataset = run_import([upload(n) for n in names], project, **options)
    assert dataset.job.status == Job.Status.DONE, dataset.job.message  # type: ignore[union-attr]
    return dataset


def failed_import(project: object, *names: str, **options: object) -> Dataset:
    dataset = run_import([upload(n) for n in names], project, **options)
    assert dataset.job.status == Job.Status.FAILED  # type: ignore[union-attr]
    assert dataset.paradigms.count() == 0 and Pair.objects.filter(paradigm__dataset=dataset).count() == 0
    return dataset


def test_import_stores_paradigms_per_uid_and_pairs_with_their_source(project: object, editor: object) -> None:
    dataset = run_import(
        [upload("zhoblimp.jsonl"), upload("island-effects-adjunct_island.txt")],
        project,
        name="Mixed release",
        created_by=editor,
    )
    assert dataset.is_imported and dataset.source_format == Dataset.SourceFormat.MIXED
    assert dataset.zorro_order == "bad-first" and dataset.created_by == editor
    assert dataset.job.status == Job.Status.DONE and dataset.import_uploads == []  # type: ignore[union-attr]
    assert dataset.job.message == (  # type: ignore[union-attr]
        "Imported “Mixed release”: 5 pairs in 3 paradigms from 2 files. 1 item could not be imported "
        "and 0 came with a note: the import report lists each one."
    )
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


def test_no_pair_is_kept_when_the_whole_upload_is_unusable(project: object) -> None:
    dataset = failed_import(project, "unusable.jsonl", source_format="blimp")
    assert dataset.job.message == import_service.NO_PAIRS  # type: ignore[union-attr]
    issues = dataset.import_report
    assert [i["line"] for i in issues] == [1, 2, 3]
    assert "not UTF-8" in issues[2]["message"]
    detected = failed_import(project, "unusable.jsonl")
    assert [i["message"] for i in detected.import_report] == [
        "format not recognised: none of its first 3 lines is a JSON object"
    ]


def test_too_many_pairs_fail_the_job_and_remove_what_was_written(
    project: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_service, "MAX_IMPORT_PAIRS", 3)
    monkeypatch.setattr(import_service, "WRITE_CHUNK", 2)  # two chunks are written before the fourth pair
    dataset = failed_import(project, "zhoblimp.jsonl", "blimp_some_bad.jsonl")
    assert dataset.job.message == import_service.TOO_MANY_PAIRS.format(limit=3)  # type: ignore[union-attr]
    assert "more than 3 pairs" in dataset.job.message  # type: ignore[union-attr]


def test_the_job_run_twice_or_after_a_crash_stores_each_pair_once(
    project: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_service, "WRITE_CHUNK", 2)
    dataset = dataset_import_start(
        project=project, name="Twice", files=[upload("zhoblimp.jsonl"), upload("blimp_some_bad.jsonl")]
    )  # type: ignore[arg-type]
    real_write = import_service._write
    calls = []

    def dies_after_the_first_chunk(*args: object) -> None:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("worker killed")
        real_write(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(import_service, "_write", dies_after_the_first_chunk)
    with pytest.raises(RuntimeError):
        dataset_import_run(dataset_id=dataset.pk)
    assert Pair.objects.filter(paradigm__dataset=dataset).count() == 2
    monkeypatch.setattr(import_service, "_write", real_write)
    dataset_import_run(dataset_id=dataset.pk)  # the message redelivered
    dataset_import_run(dataset_id=dataset.pk)  # and once more: the job is done, nothing happens
    dataset.refresh_from_db()
    assert dataset.job.status == Job.Status.DONE  # type: ignore[union-attr]
    pairs = Pair.objects.filter(paradigm__dataset=dataset)
    assert pairs.count() == 5
    assert sorted(dataset.paradigms.values_list("uid", "produced")) == [
        ("BA_basic", 2),
        ("classifier_noun", 1),
        ("determiner_noun_agreement_1", 2),
    ]


def test_the_paradigms_count_their_pairs_while_the_import_runs(
    project: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages and lists count an import's pairs from its paradigms' `produced` while it runs."""
    from mpp_studio.datasets.selectors import counts_settled, dataset_pair_count

    monkeypatch.setattr(import_service, "WRITE_CHUNK", 2)
    dataset = dataset_import_start(
        project=project, name="Counted", files=[upload("zhoblimp.jsonl"), upload("blimp_some_bad.jsonl")]
    )  # type: ignore[arg-type]
    real_write = import_service._write
    seen = []

    def write_and_count(*args: object) -> None:
        real_write(*args)  # type: ignore[arg-type]
        dataset.refresh_from_db()
        assert not dataset.job.finished  # type: ignore[union-attr]
        kept = dict(dataset.paradigms.values_list("uid", "produced"))
        stored = dict(
            Pair.objects.filter(paradigm__dataset=dataset)
            .values_list("paradigm__uid")
            .annotate(n=Count("pk"))
            .values_list("paradigm__uid", "n")
        )
        seen.append((kept == stored, counts_settled(dataset), dataset_pair_count(dataset=dataset)))

    monkeypatch.setattr(import_service, "_write", write_and_count)
    dataset_import_run(dataset_id=dataset.pk)
    assert seen[:2] == [(True, True, 2), (True, True, 4)]
    assert all(same and settled for same, settled, _ in seen)


def test_the_request_keeps_the_files_and_the_job_removes_them(project: object, settings: object) -> None:
    from mpp_studio.core.stored_uploads import upload_root

    dataset = dataset_import_start(project=project, name="Kept", files=[upload("zhoblimp.jsonl")])  # type: ignore[arg-type]
    [kept] = dataset.import_uploads
    size = (DATA / "zhoblimp.jsonl").stat().st_size
    assert (dataset.job.progress_unit, dataset.job.progress_total) == ("kib", (size + 1023) // 1024)  # type: ignore[union-attr]
    assert kept["name"] == "zhoblimp.jsonl" and kept["size"] == (DATA / "zhoblimp.jsonl").stat().st_size
    path = upload_root() / kept["path"]
    assert path.read_bytes() == (DATA / "zhoblimp.jsonl").read_bytes()
    dataset_import_run(dataset_id=dataset.pk)
    assert not path.exists() and not path.parent.exists()


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
    dataset = run_import([UploadedFile("release.zip", buffer)], project, name="Zipped")
    assert dataset.paradigms.count() == 3
    assert {f["file"] for f in dataset.source_files} == {
        "release.zip/release/zhoblimp.jsonl",
        "release.zip/release/blimp_some_bad.jsonl",
    }


def test_forced_format_and_bad_arguments(project: object) -> None:
    with pytest.raises(ValidationError) as caught:
        dataset_import_start(project=project, name=" ", files=[], source_format="csv", zorro_order="sideways")  # type: ignore[arg-type]
    assert set(caught.value.message_dict) == {"name", "files", "source_format", "zorro_order"}
    assert Dataset.objects.count() == 0 and Job.objects.count() == 0
    rejected = failed_import(project, "blimp_some_bad.jsonl", source_format="zhoblimp")  # no phenomenon
    first = rejected.import_report[0]
    assert (first["line"], first["field"], first["severity"]) == (1, "phenomenon", "error")
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


@pytest.mark.parametrize(
    "given", ["/home/me/released/blimp_some_bad.jsonl", "C:\\Users\\me\\blimp_some_bad.jsonl"]
)
def test_issue_17_hf_export_names_the_uploaded_file_never_a_local_path(
    project: object, tmp_path: Path, given: str
) -> None:
    """The Parquet rows' provenance names the file by its name, whatever folder the client sent
    and wherever the job found the kept copy on disk."""
    dataset = run_import(
        [UploadedFile(given, io.BytesIO((DATA / "blimp_some_bad.jsonl").read_bytes()))], project
    )
    [written] = hf_folder_write(dataset, tmp_path)
    rows = pq.read_table(tmp_path / written.path).to_pylist()
    assert {orjson.loads(row["provenance"])["source_file"] for row in rows} == {"blimp_some_bad.jsonl"}


def test_issue_17_imported_blimp_exports_as_blimp_byte_for_byte(project: object) -> None:
    """Released BLiMP lines (every order of the pair's own fields BLiMP uses, sorted by UID as
    the export is) come back from the database as the same bytes."""
    dataset = do_import(project, "blimp_released_layout.jsonl")
    data = (DATA / "blimp_released_layout.jsonl").read_bytes()
    assert b"".join(blimp_jsonl_lines(dataset)) == data
