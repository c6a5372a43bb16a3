"""Writes for jobs: a job's row says what it is doing, how far it got, and why it stopped.

Every function takes the job's id and re-reads the row, so tasks (which may run twice, or after
the user cancelled) call them safely. A finished job (done, failed or cancelled) is never
changed again: a late or redelivered task cannot turn a cancelled job back into a running one.
"""

from django.db.models import F, QuerySet
from django.db.models.functions import Greatest
from django.utils import timezone

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import RequestUser, signed_in_or_none
from mpp_studio.jobs.models import Job

MESSAGE_LIMIT = 4_000  # a failure that lists many paradigms stays readable on the page


def progress_kib(size: int) -> int:
    """Return a size in bytes as a job whose unit is KiB counts it (rounded up: 1 byte is 1 KiB)."""
    return (size + 1023) // 1024


def job_create(
    *,
    project: Project,
    kind: str,
    created_by: RequestUser | None = None,
    total: int = 0,
    unit: str = Job.ProgressUnit.COUNT,
    message: str = "",
) -> Job:
    """Create a queued job of `kind` in the project, with `total` units of work expected; `unit`
    says what its progress counts (`Job.ProgressUnit`: units of work, or KiB of files read, the
    sizes given through `progress_kib`)."""
    job = Job(
        project=project,
        kind=kind,
        progress_total=total,
        progress_unit=unit,
        message=_short(message),
        created_by=signed_in_or_none(created_by),
    )
    job.full_clean()
    job.save()
    return job


def _open(job_id: int) -> QuerySet[Job]:
    return Job.objects.filter(pk=job_id).exclude(status__in=Job.FINISHED)


def job_start(*, job_id: int, message: str = "") -> bool:
    """Mark a queued job running (first call only sets `started_at`); return whether it is open.

    Returns False for a job that is finished (or gone): the caller should stop working on it.
    """
    now = timezone.now()
    updates: dict[str, object] = {"status": Job.Status.RUNNING, "updated_at": now}
    if message:
        updates["message"] = _short(message)
    _open(job_id).filter(started_at__isnull=True).update(started_at=now)
    return bool(_open(job_id).update(**updates))


def job_progress(*, job_id: int, done: int, total: int | None = None, message: str | None = None) -> bool:
    """Record that `done` of `total` units are finished; return whether the job is still open.

    Progress never moves backwards: a redelivered task that reports a count already passed
    leaves the larger one. A finished job is not changed.
    """
    updates: dict[str, object] = {
        "progress_done": Greatest(F("progress_done"), done),
        "updated_at": timezone.now(),
    }
    if total is not None:
        updates["progress_total"] = total
    if message is not None:
        updates["message"] = _short(message)
    return bool(_open(job_id).update(**updates))


def job_finish(*, job_id: int, message: str = "") -> bool:
    """Mark an open job done, its progress complete; return whether this call finished it."""
    now = timezone.now()
    return bool(
        _open(job_id).update(
            status=Job.Status.DONE,
            progress_done=F("progress_total"),
            message=_short(message),
            finished_at=now,
            updated_at=now,
        )
    )


def job_fail(*, job_id: int, message: str) -> bool:
    """Mark an open job failed with the reason in plain words; return whether this call did it."""
    now = timezone.now()
    return bool(
        _open(job_id).update(
            status=Job.Status.FAILED, message=_short(message), finished_at=now, updated_at=now
        )
    )


def job_cancel(*, job_id: int, user: RequestUser | None = None) -> bool:
    """Cancel an open job; its tasks stop at their next step. Return whether this call cancelled it.

    Work already stored stays stored.
    """
    who = user.get_username() if user is not None and user.is_authenticated else ""
    now = timezone.now()
    return bool(
        _open(job_id).update(
            status=Job.Status.CANCELLED,
            message=f"Cancelled by {who}." if who else "Cancelled.",
            finished_at=now,
            updated_at=now,
        )
    )


def _short(message: str) -> str:
    message = message.strip()
    return message if len(message) <= MESSAGE_LIMIT else message[: MESSAGE_LIMIT - 1] + "…"
