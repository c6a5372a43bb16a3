"""Sending task messages so that an unreachable broker (Redis down) loses no work.

A job's rows are committed before its messages are sent (`delay_on_commit`). When the broker
cannot take a message, `QueueGuardedTask` keeps it in the database (`UnsentMessage`) instead of
raising: the user's job is saved and stays queued, the page and the API say that the queue is
unreachable, and `requeue_unsent` sends the kept messages once the broker answers again. It runs
in every worker each time the worker (re)connects to the broker and then every
MPP_REQUEUE_INTERVAL seconds (`RequeueUnsentStep`), and as `manage.py requeue_jobs`.

Every task sent this way is safe to run twice (it re-reads its work by id), so a message that
was sent while its copy was kept costs a no-op run, never a doubled result.
"""

import contextvars
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, ClassVar

from celery import bootsteps
from celery.contrib.django.task import DjangoTask
from django.conf import settings
from django.db import close_old_connections, transaction
from kombu.exceptions import OperationalError as BrokerOperationalError

logger = logging.getLogger(__name__)

try:  # redis is installed wherever REDIS_URL can be set; the embedded broker raises OSError
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover
    RedisError = OSError  # type: ignore[assignment,misc]  # the stand-in without redis

# What a send raises when the broker cannot be reached (kombu wraps most of them in its own
# OperationalError once its publish retries are spent).
BROKER_ERRORS: tuple[type[BaseException], ...] = (BrokerOperationalError, RedisError, OSError)

QUEUE_UNREACHABLE_MESSAGE = (
    "The task queue (Redis) cannot be reached right now. Your job is saved and will start by "
    "itself once the queue is back; nothing needs to be submitted again."
)

# After a failed send, the rest of the request's messages are kept straight away (a run of 1,000
# chunks would otherwise wait out 1,000 publish retries); outside a request (a task, a command),
# the process stops trying the broker for this many seconds.
SKIP_BROKER_AFTER_FAILURE_S = 10.0
_broker_failed_at = 0.0
_unsent_here: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("unsent_here", default=None)


def send_or_keep(task: Any, args: tuple[Any, ...], kwargs: dict[str, Any], options: dict[str, Any]) -> bool:
    """Send one task message; when the broker is unreachable keep it for `requeue_unsent`.

    Returns whether it was sent. `task.delay` is called when there are no options (the seam the
    tests patch), else `task.apply_async`.
    """
    global _broker_failed_at
    error = ""
    unsent = _unsent_here.get()  # None outside a request
    failed_here = bool(unsent)
    failed_lately = unsent is None and time.monotonic() - _broker_failed_at < SKIP_BROKER_AFTER_FAILURE_S
    if failed_here or failed_lately:
        error = "the broker failed a moment ago"
    else:
        try:
            if options:
                task.apply_async(args=args, kwargs=kwargs, **options)
            else:
                task.delay(*args, **kwargs)
            return True
        except BROKER_ERRORS as exc:
            _broker_failed_at = time.monotonic()
            error = f"{type(exc).__name__}: {exc}"
    from mpp_studio.jobs.models import UnsentMessage

    UnsentMessage.objects.create(
        task=task.name, args=list(args), kwargs=kwargs, options=options, error=error[:1000]
    )
    logger.warning("kept %s%r for later: the task queue is unreachable (%s)", task.name, args, error)
    if unsent is not None:
        unsent.append(task.name)
    return False


class QueueGuardedTask(DjangoTask):
    """A Django task whose `*_on_commit` sends keep the message when the broker is unreachable
    (see `send_or_keep`) instead of raising after the job's rows were committed."""

    def delay_on_commit(self, *args: Any, **kwargs: Any) -> None:
        """Send the message once the current transaction commits (kept if the broker is down)."""
        transaction.on_commit(partial(send_or_keep, self, args, kwargs, {}))

    def apply_async_on_commit(self, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        """As `apply_async`, once the current transaction commits (kept if the broker is down)."""
        transaction.on_commit(partial(send_or_keep, self, tuple(args or ()), dict(kwargs or {}), options))


def _broker_answers_again() -> None:
    global _broker_failed_at
    _broker_failed_at = 0.0  # this process sends straight away again


@contextmanager
def collecting_unsent() -> Iterator[list[str]]:
    """Yield the list of task names kept unsent while the block runs (one request)."""
    unsent: list[str] = []
    token = _unsent_here.set(unsent)
    try:
        yield unsent
    finally:
        _unsent_here.reset(token)


def messages_waiting() -> bool:
    """Return whether messages wait in the database for the queue to come back."""
    from mpp_studio.jobs.models import UnsentMessage

    return UnsentMessage.objects.exists()


def messages_waiting_count() -> int:
    """Return how many messages wait in the database for the queue to come back."""
    from mpp_studio.jobs.models import UnsentMessage

    return UnsentMessage.objects.count()


@dataclass(frozen=True)
class RequeueResult:
    """How many kept messages were sent, and how many are still waiting."""

    sent: int
    waiting: int


def requeue_unsent(limit: int | None = None) -> RequeueResult:
    """Send the kept messages, oldest first, deleting each once sent; stop at the first broker
    failure. Returns how many were sent and how many still wait."""
    from celery import current_app

    from mpp_studio.jobs.models import UnsentMessage

    current_app.loader.import_default_modules()  # the tasks' modules (a manage.py command has none)
    sent = 0
    last_pk = 0
    while limit is None or sent < limit:
        with transaction.atomic():
            # Two workers starting at once each take other rows (no-op on SQLite: one writer).
            row = (
                UnsentMessage.objects.select_for_update(skip_locked=True)
                .filter(pk__gt=last_pk)
                .order_by("pk")
                .first()
            )
            if row is None:
                break
            last_pk = row.pk
            task = current_app.tasks.get(row.task)
            if task is None:  # a task renamed without an alias: kept for a person to look at
                logger.error("a kept message names the unknown task %s: left in place", row.task)
                continue
            try:
                task.apply_async(args=row.args, kwargs=row.kwargs, **row.options)
            except BROKER_ERRORS as exc:
                logger.warning("the task queue is still unreachable (%s): messages stay kept", exc)
                break
            row.delete()
            sent += 1
            _broker_answers_again()
    return RequeueResult(sent=sent, waiting=messages_waiting_count())


# Per job kind, a function that sends again the messages of a job's unfinished work (by the
# job's id) and returns how many it sent; each app registers its own (its AppConfig.ready).
_RESENDERS: dict[str, Callable[[int], int]] = {}


def register_resender(kind: str, resend: Callable[[int], int]) -> None:
    """Let `resend_queued` send again the messages of jobs of `kind` with `resend`."""
    _RESENDERS[kind] = resend


def resend_queued(*, created_before: datetime) -> dict[int, int]:
    """Send again the messages of every job still queued (never started) created before
    `created_before`: for a broker that lost its messages (Redis restarted without its
    append-only file). Returns {job id: messages sent}; the tasks are safe to run twice."""
    from mpp_studio.jobs.models import Job

    sent: dict[int, int] = {}
    stale = Job.objects.filter(
        status=Job.Status.QUEUED, started_at__isnull=True, created_at__lt=created_before
    ).order_by("pk")
    for job_id, kind in stale.values_list("pk", "kind"):
        resend = _RESENDERS.get(kind)
        if resend is not None:
            sent[job_id] = resend(job_id)
    return sent


class RequeueUnsentStep(bootsteps.StartStopStep):
    """Worker consumer step: sends the kept messages each time the worker (re)connects to the
    broker, then every MPP_REQUEUE_INTERVAL seconds, in a thread of its own (the database may be
    slow; the worker's event loop must not wait for it)."""

    requires: ClassVar[set[str]] = {"celery.worker.consumer.tasks:Tasks"}

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self._lock = threading.Lock()
        self._timer: Any = None

    def start(self, parent: Any) -> None:
        """Requeue now, and then on a timer."""
        self._requeue_in_thread()
        interval = float(getattr(settings, "MPP_REQUEUE_INTERVAL", 60))
        if interval > 0:
            self._timer = parent.timer.call_repeatedly(interval, self._requeue_in_thread)

    def stop(self, parent: Any) -> None:
        """Cancel the timer (the consumer stops or lost its connection)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _requeue_in_thread(self) -> None:
        threading.Thread(target=self._requeue, name="requeue-unsent", daemon=True).start()

    def _requeue(self) -> None:
        if not self._lock.acquire(blocking=False):
            return  # the previous round still runs
        try:
            close_old_connections()
            result = requeue_unsent()
            if result.sent or result.waiting:
                logger.warning(
                    "requeued %d kept task message(s); %d still wait for the queue",
                    result.sent,
                    result.waiting,
                )
        except Exception:  # the database may be down too: the next round tries again
            logger.exception("could not requeue the kept task messages")
        finally:
            close_old_connections()
            from django.db import connection

            connection.close()  # this thread's own connection; the next round opens its own
            self._lock.release()


class GivingUpTask(QueueGuardedTask):
    """A task that records, in words, the failure of the work it was sent for when it gives up
    (retries spent, time limit, a worker error): subclasses name the arguments that identify the
    work (`give_up_arguments`) and say what it is (`give_up_label`) and how to fail it
    (`give_up`). The database may be down even then: see `retrying.record_give_up`."""

    give_up_arguments: ClassVar[tuple[str, ...]] = ()

    def give_up_label(self, ids: dict[str, int]) -> str:
        """Return the work in words for the log, e.g. "triplet chunk 12"."""
        raise NotImplementedError

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        """Fail the work in words; `reason` is the exception's type and text."""
        raise NotImplementedError

    def on_failure(
        self, exc: Exception, task_id: str, args: tuple[Any, ...], kwargs: dict[str, Any], einfo: Any
    ) -> None:
        """Fail the work the message named (by position or keyword), if it named it all."""
        from mpp_studio.jobs.retrying import record_give_up

        values = {**dict(zip(self.give_up_arguments, args, strict=False)), **kwargs}
        if any(values.get(name) is None for name in self.give_up_arguments):
            return
        ids = {name: int(values[name]) for name in self.give_up_arguments}
        reason = f"{type(exc).__name__}: {exc}"
        record_give_up(self.give_up_label(ids), lambda: self.give_up(ids, reason))
