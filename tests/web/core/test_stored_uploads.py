"""Kept uploads: an import keeps its files or refuses in words keyed by its field, and a request
whose row is never saved leaves no kept file behind."""

import contextlib
import errno
import io
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from mpp_studio.core import stored_uploads
from mpp_studio.core.stored_uploads import (
    upload_root,
    uploads_discarded_on_failure,
    uploads_keep_or_refuse,
)
from mpp_studio.jobs.models import Job

DISK_FULL = OSError(errno.ENOSPC, "No space left on device")


class _FullDisk(io.BytesIO):
    """A stream whose copy fails as a full disk would."""

    def read(self, size: int | None = -1) -> bytes:
        raise DISK_FULL


def _kept_files() -> list[Path]:
    return [path for path in upload_root().rglob("*") if path.is_file()]


def test_uploads_keep_or_refuse_keeps_each_file() -> None:
    """The files are copied under their kind and returned with their names and sizes."""
    kept = uploads_keep_or_refuse(
        "tests", [("a.txt", io.BytesIO(b"abc")), ("b.txt", io.BytesIO(b""))], field="files"
    )
    assert [(upload.name, upload.size) for upload in kept] == [("a.txt", 3), ("b.txt", 0)]
    with kept[0].open() as stream:
        assert stream.read() == b"abc"


def test_uploads_keep_or_refuse_refuses_a_full_disk_keyed_by_the_field() -> None:
    """A disk that refuses is a ValidationError on the given field, in the caller's words; nothing
    is left behind."""
    with pytest.raises(ValidationError) as caught:
        uploads_keep_or_refuse(
            "tests",
            [("a.txt", io.BytesIO(b"abc")), ("b.txt", _FullDisk())],
            field="file",
            noun="file",
            outcome="stored",
        )
    assert caught.value.message_dict == {
        "file": ["The server could not keep the file (No space left on device); nothing was stored."]
    }
    assert _kept_files() == []


@pytest.mark.parametrize("fails", [False, True])
def test_uploads_discarded_on_failure_removes_the_files_only_when_the_block_fails(fails: bool) -> None:
    """A block that ends keeps the files (the row owns them); one that raises removes them."""
    kept = uploads_keep_or_refuse("tests", [("a.txt", io.BytesIO(b"abc"))], field="files")
    expected = pytest.raises(RuntimeError) if fails else contextlib.nullcontext()
    with expected, uploads_discarded_on_failure(kept):
        if fails:
            raise RuntimeError("the row was not saved")
    assert len(_kept_files()) == (0 if fails else 1)


def _dataset_import(project: object) -> object:
    from mpp_studio.datasets.services import UploadedFile, dataset_import_start

    return dataset_import_start(
        project=project,  # type: ignore[arg-type]
        name="Released",
        files=[UploadedFile("pairs.jsonl", io.BytesIO(b'{"sentence_good": "a", "sentence_bad": "b"}\n'))],
    )


def _corpus_upload(project: object) -> object:
    from mpp_studio.learner.services import Upload, corpus_upload_start

    return corpus_upload_start(
        project=project,  # type: ignore[arg-type]
        name="Corpus",
        source_format="parallel",
        file=Upload("corpus.tsv", io.BytesIO(b"source\ttarget\nI goes .\tI go .\n")),
        dispatch=False,
    )


def _vocabulary_import(project: object) -> object:
    from mpp_studio.lexicon.services.import_jobs import vocabulary_import_start

    return vocabulary_import_start(
        project=project,  # type: ignore[arg-type]
        table=SimpleUploadedFile("words.csv", b"form,pos\ncat,NOUN\n"),
    )


def _zhoblimp_import(project: object) -> object:
    from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_start

    return zhoblimp_import_start(
        project=project,  # type: ignore[arg-type]
        files=[SimpleUploadedFile("template.json", b"{}")],
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("start", "field", "words"),
    [
        (_dataset_import, "files", "the files (No space left on device); nothing was imported."),
        (_corpus_upload, "file", "the files (No space left on device); nothing was stored."),
        (_vocabulary_import, "file", "the file (No space left on device); nothing was imported."),
        (_zhoblimp_import, "files", "the files (No space left on device); nothing was stored."),
    ],
    ids=["dataset", "learner-corpus", "vocabulary", "zhoblimp"],
)
def test_import_start_refuses_a_full_disk_in_its_own_words(
    project: object, start: Callable[[object], object], field: str, words: str
) -> None:
    """Every import that keeps files refuses a full disk on its own field, and creates no job."""
    full = mock.patch.object(stored_uploads, "uploads_store", side_effect=DISK_FULL)
    with full, pytest.raises(ValidationError) as caught:
        start(project)
    assert caught.value.message_dict == {field: [f"The server could not keep {words}"]}
    assert not Job.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "start",
    [_dataset_import, _corpus_upload, _vocabulary_import, _zhoblimp_import],
    ids=["dataset", "learner-corpus", "vocabulary", "zhoblimp"],
)
def test_import_start_leaves_no_kept_file_when_its_job_cannot_be_created(
    project: object, start: Callable[[object], object]
) -> None:
    """A request whose job row fails removes the files it kept."""
    broken = mock.patch("mpp_studio.jobs.models.Job.save", side_effect=RuntimeError("database gone"))
    with broken, pytest.raises(RuntimeError):
        start(project)
    assert _kept_files() == []
