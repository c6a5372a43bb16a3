"""Job services: a row that moves queued -> running -> done/failed/cancelled and then never changes."""

import pytest

from mpp_studio.jobs.models import Job
from mpp_studio.jobs.selectors import job_is_open
from mpp_studio.jobs.services import job_cancel, job_create, job_fail, job_finish, job_progress, job_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(project: object, editor: object) -> Job:
    return job_create(project=project, kind="dataset_generate", created_by=editor, total=100)  # type: ignore[arg-type]


def test_job_create_is_queued_with_its_total(job: Job, editor: object) -> None:
    assert (job.status, job.progress_done, job.progress_total, job.percent) == ("queued", 0, 100, 0)
    assert job.created_by == editor and job.started_at is None and not job.finished


def test_job_start_then_progress_then_finish(job: Job) -> None:
    assert job_start(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == "running" and job.started_at is not None
    first_start = job.started_at
    assert job_start(job_id=job.pk)  # a second task of the same job: still open, same start
    job.refresh_from_db()
    assert job.started_at == first_start

    assert job_progress(job_id=job.pk, done=40, message="Generating: 40 of 100 pairs stored.")
    job.refresh_from_db()
    assert (job.progress_done, job.percent, job.message) == (40, 40, "Generating: 40 of 100 pairs stored.")

    assert job_finish(job_id=job.pk, message="Generated 100 pairs.")
    job.refresh_from_db()
    assert (job.status, job.progress_done, job.percent, job.finished) == ("done", 100, 100, True)
    assert job.finished_at is not None


def test_job_progress_never_moves_backwards(job: Job) -> None:
    """A redelivered task reporting an older count leaves the larger one."""
    job_progress(job_id=job.pk, done=60)
    job_progress(job_id=job.pk, done=20)
    job.refresh_from_db()
    assert job.progress_done == 60


def test_job_fail_keeps_the_reason_in_words(job: Job) -> None:
    assert job_fail(job_id=job.pk, message="en_x: made only 3 of 10 unique pairs")
    job.refresh_from_db()
    assert job.status == "failed" and job.message == "en_x: made only 3 of 10 unique pairs"
    assert job.finished_at is not None


@pytest.mark.parametrize("end", ["finish", "fail", "cancel"])
def test_finished_job_is_never_changed_again(job: Job, end: str) -> None:
    {
        "finish": lambda: job_finish(job_id=job.pk),
        "fail": lambda: job_fail(job_id=job.pk, message="x"),
        "cancel": lambda: job_cancel(job_id=job.pk),
    }[end]()
    job.refresh_from_db()
    status, message = job.status, job.message
    assert not job_start(job_id=job.pk)
    assert not job_progress(job_id=job.pk, done=99, message="late")
    assert not job_finish(job_id=job.pk)
    assert not job_fail(job_id=job.pk, message="late")
    assert not job_cancel(job_id=job.pk)
    job.refresh_from_db()
    assert (job.status, job.message) == (status, message) and not job_is_open(job_id=job.pk)


def test_job_cancel_names_who_cancelled(job: Job, editor: object) -> None:
    assert job_cancel(job_id=job.pk, user=editor)  # type: ignore[arg-type]
    job.refresh_from_db()
    assert job.status == "cancelled" and job.message == "Cancelled by ed."


def test_long_messages_are_shortened(job: Job) -> None:
    job_fail(job_id=job.pk, message="x" * 10_000)
    job.refresh_from_db()
    assert len(job.message) == 4_000 and job.message.endswith("…")


def test_missing_job_is_not_open() -> None:
    assert not job_is_open(job_id=987654) and not job_start(job_id=987654)


@pytest.mark.parametrize(("size", "kib"), [(0, 0), (1, 1), (1024, 1), (1025, 2), (5 * 1024 * 1024, 5120)])
def test_progress_kib_rounds_bytes_up_to_whole_kib(size: int, kib: int) -> None:
    """A byte-progress job counts KiB, a started KiB counted whole."""
    from mpp_studio.jobs.services import progress_kib

    assert progress_kib(size) == kib


def test_job_create_records_its_progress_unit(project: object) -> None:
    """A job counts units of work unless it is created counting the KiB of its files read."""
    counted = job_create(project=project, kind="dataset_generate", total=8)  # type: ignore[arg-type]
    read = job_create(project=project, kind="dataset_import", total=8, unit=Job.ProgressUnit.KIB)  # type: ignore[arg-type]
    assert (counted.progress_unit, read.progress_unit) == ("count", "kib")
