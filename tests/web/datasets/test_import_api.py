"""The import endpoint: editors upload files (202 with the dataset and its job, which then reads
them; the dataset ends with the report), viewers 403, outsiders 404; no pair kept and every issue
named when nothing is usable; imported datasets read and export."""

from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from mpp_studio.datasets.models import Dataset

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"


def url(name: str, *args: int) -> str:
    return reverse(f"datasets_api:{name}", args=args)


def file(name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, (DATA / name).read_bytes())


def test_editor_imports_files_and_gets_the_report(
    api_client_for: Callable[[object], object], project: object, editor: object, run_jobs_now: None
) -> None:
    api = api_client_for(editor)
    response = api.post(  # type: ignore[attr-defined]
        url("dataset_import", project.pk),  # type: ignore[attr-defined]
        {
            "name": "By API",
            "files": [file("zhoblimp.jsonl"), file("island-effects-adjunct_island.txt")],
            "zorro_order": "good-first",
        },
        format="multipart",
    )
    assert response.status_code == 202, response.json()
    accepted = response.json()
    assert accepted["job"]["kind"] == "dataset_import"
    body = api.get(url("dataset_detail", project.pk, accepted["id"])).json()  # type: ignore[attr-defined]
    assert (body["origin"], body["source_format"], body["zorro_order"], body["pair_count"]) == (
        "imported",
        "mixed",
        "good-first",
        5,
    )
    assert body["job"]["status"] == "done" and body["job"]["message"].startswith("Imported “By API”: 5 pairs")
    assert [(p["uid"], p["produced"], p["template_version"]) for p in body["paradigms"]] == [
        ("BA_basic", 2, None),
        ("classifier_noun", 1, None),
        ("island-effects-adjunct_island", 2, None),
    ]
    assert body["import_report"] == [
        {
            "file": "island-effects-adjunct_island.txt",
            "line": 5,
            "field": "",
            "severity": "error",
            "message": "the file has an odd number of sentences: this last one has no partner",
        }
    ]
    assert [f["pairs"] for f in body["source_files"]] == [3, 2]
    exported = api.get(url("dataset_export", project.pk, body["id"]) + "?format=zhoblimp")  # type: ignore[attr-defined]
    lines = [orjson.loads(line) for line in b"".join(exported.streaming_content).splitlines()]
    assert lines[-1]["sentence_good"] == "what did sarah see the dog after hearing ?"  # good first


def test_unusable_upload_fails_its_job_with_each_issue_and_keeps_no_pair(
    api_client_for: Callable[[object], object], project: object, editor: object, run_jobs_now: None
) -> None:
    api = api_client_for(editor)
    response = api.post(  # type: ignore[attr-defined]
        url("dataset_import", project.pk),  # type: ignore[attr-defined]
        {"name": "Broken", "files": [file("unusable.jsonl")], "source_format": "blimp"},
        format="multipart",
    )
    assert response.status_code == 202
    body = api.get(url("dataset_detail", project.pk, response.json()["id"])).json()  # type: ignore[attr-defined]
    assert body["job"]["status"] == "failed" and body["pair_count"] == 0 and body["paradigms"] == []
    assert body["job"]["message"].startswith("No file gave a usable pair, so nothing was imported")
    assert [(e["file"], e["line"], e["severity"]) for e in body["import_report"]] == [
        ("unusable.jsonl", 1, "error"),
        ("unusable.jsonl", 2, "error"),
        ("unusable.jsonl", 3, "error"),
    ]


def test_the_answer_comes_before_the_files_are_read(
    api_client_for: Callable[[object], object], project: object, editor: object
) -> None:
    """No worker here: the request has only kept the files and queued the job."""
    response = api_client_for(editor).post(  # type: ignore[attr-defined]
        url("dataset_import", project.pk),  # type: ignore[attr-defined]
        {"name": "Later", "files": [file("zhoblimp.jsonl")]},
        format="multipart",
    )
    assert response.status_code == 202
    body = response.json()
    assert body["job"]["status"] == "queued" and body["pair_count"] == 0 and body["paradigms"] == []
    assert Dataset.objects.get(pk=body["id"]).import_uploads[0]["name"] == "zhoblimp.jsonl"


def test_bad_format_names_the_field(
    api_client_for: Callable[[object], object], project: object, editor: object
) -> None:
    response = api_client_for(editor).post(  # type: ignore[attr-defined]
        url("dataset_import", project.pk),  # type: ignore[attr-defined]
        {"name": "X", "files": [file("zhoblimp.jsonl")], "source_format": "csv"},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "source_format"


def test_viewer_403_and_outsider_404(
    api_client_for: Callable[[object], object], project: object, viewer: object, outsider: object
) -> None:
    data = {"name": "Nope", "files": [file("zhoblimp.jsonl")]}
    target = url("dataset_import", project.pk)  # type: ignore[attr-defined]
    assert api_client_for(viewer).post(target, data, format="multipart").status_code == 403  # type: ignore[attr-defined]
    data = {"name": "Nope", "files": [file("zhoblimp.jsonl")]}
    assert api_client_for(outsider).post(target, data, format="multipart").status_code == 404  # type: ignore[attr-defined]
    assert not Dataset.objects.exists()
