"""Background tasks that outlive a database outage: retry with backoff, never count it as failing.

A chunk task that loses the database (server restarting, network cut) raises `OperationalError`
or `InterfaceError`. Such an error says nothing about the chunk, so the task neither fails nor
spends the attempts that stop a chunk which keeps killing its worker:

- `retry_on_database_error(task)` (around a task's body) closes this process's broken
  connections and sends the task again after an exponential backoff with jitter (1, 2, 4 ... s,
  then about every DATABASE_BACKOFF_MAX_S), for up to DATABASE_RETRIES retries: an outage of
  half an hour to an hour. Tasks are safe to run twice, so the retry redoes nothing already stored.
- `when_database_answers(action)` runs a small write (giving back an attempt a service counted
  before the outage) as soon as the database answers again, waiting in the task up to a limit.
- `record_give_up(...)` records a task's final failure (retries spent, time limit) on its job,
  after closing stale connections; if the database is still unreachable it logs why the job is
  left running instead of raising from Celery's failure handler.
"""

import logging
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from django.db import InterfaceError, OperationalError, connections

logger = logging.getLogger(__name__)

# The errors of a database that cannot be reached (or is too busy to answer in time).
DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
# Retries of one task message after database errors, and the longest pause between two: with the
# doubling from 1 s and the jitter, 60 retries wait 28 to 55 minutes in all before the task gives up.
DATABASE_RETRIES = 60
DATABASE_BACKOFF_MAX_S = 60.0
# How long a task waits in place for the database to give back an attempt it counted.
ATTEMPT_REFUND_WAIT_S = 120.0


def database_backoff(retries: int, maximum: float = DATABASE_BACKOFF_MAX_S) -> float:
    """Return the seconds to wait before retry number `retries` + 1: half of min(2**retries,
    maximum) plus a random part up to the other half, so that workers do not retry in step."""
    ceiling = min(maximum, 2.0 ** min(retries, 32))
    return ceiling / 2 + random.uniform(0, ceiling / 2)


def close_database_connections() -> None:
    """Close this thread's database connections, so that the next query opens a new one instead
    of reusing one the outage broke. One inside a transaction block is left to its block, which
    rolls back and closes it (a task's body never runs inside one; a test's may)."""
    for connection in connections.all(initialized_only=True):
        if connection.in_atomic_block:
            continue
        with suppress(*DATABASE_ERRORS):  # a dead connection may complain; it is closed all the same
            connection.close()


@contextmanager
def retry_on_database_error(task: Any) -> Iterator[None]:
    """Run the block; on a database error, close the broken connections and retry the task
    (Celery's `Retry` is raised) after `database_backoff`; the error itself once the retries
    are spent."""
    try:
        yield
    except DATABASE_ERRORS as exc:
        close_database_connections()
        retries = int(task.request.retries or 0)
        countdown = database_backoff(retries)
        logger.warning(
            "%s: the database cannot be reached (%s: %s); retry %d of %d in %.1f s",
            task.name,
            type(exc).__name__,
            " ".join(str(exc).split()),
            retries + 1,
            DATABASE_RETRIES,
            countdown,
        )
        raise task.retry(exc=exc, countdown=countdown, max_retries=DATABASE_RETRIES) from exc


def when_database_answers(
    action: Callable[[], object],
    *,
    timeout_s: float = ATTEMPT_REFUND_WAIT_S,
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """Run `action` (a short write), retrying on database errors with backoff for up to
    `timeout_s` seconds of pauses; return whether it ran."""
    waited = 0.0
    tries = 0
    while True:
        try:
            action()
            return True
        except DATABASE_ERRORS:
            close_database_connections()
            pause = database_backoff(tries, maximum=10.0)
            tries += 1
            if waited + pause > timeout_s:
                return False
            sleep(pause)
            waited += pause


def record_give_up(what: str, record: Callable[[], object]) -> None:
    """Record a task's final failure with `record` (fail its chunk or job in words); when the
    database cannot be reached even now, log that the job is left running, naming `what`."""
    close_database_connections()
    try:
        record()
    except DATABASE_ERRORS as exc:
        logger.error(
            "could not record the failure of %s: the database cannot be reached (%s). Its job stays "
            "'running'; cancel it, or start it again, once the database is back.",
            what,
            " ".join(str(exc).split()),
        )
