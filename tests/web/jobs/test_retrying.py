"""jobs.retrying: chunk tasks retry database outages with backoff after closing the broken
connections, and record their final failure without raising when the database is still down."""

import logging
from unittest import mock

import pytest
from celery.exceptions import Retry
from django.db import InterfaceError, OperationalError

from mpp_studio.datasets.tasks import generate_paradigm
from mpp_studio.evaluation.tasks import score_chunk
from mpp_studio.jobs import retrying
from mpp_studio.learner.tasks import make_triplets_chunk

# Each chunk task, the service its body calls, and arguments for it.
TASKS = [
    pytest.param(
        generate_paradigm, "mpp_studio.datasets.services.dataset_paradigm_generate", (5,), id="datasets"
    ),
    pytest.param(score_chunk, "mpp_studio.evaluation.services.score_chunk", (1, 2, 3, 0), id="evaluation"),
    pytest.param(make_triplets_chunk, "mpp_studio.learner.services.make_triplets_chunk", (4,), id="learner"),
]


@pytest.mark.parametrize("retries", [0, 1, 3, 5, 6, 10, 59])
def test_backoff_doubles_from_one_second_to_a_minute_with_jitter(retries: int) -> None:
    ceiling = min(60.0, 2.0**retries)
    waits = [retrying.database_backoff(retries) for _ in range(200)]
    assert all(ceiling / 2 <= wait <= ceiling for wait in waits)
    assert len(set(waits)) > 1  # jittered: workers do not come back in step


def test_the_retry_budget_covers_about_an_hour() -> None:
    worst = sum(min(retrying.DATABASE_BACKOFF_MAX_S, 2.0**n) for n in range(retrying.DATABASE_RETRIES))
    best = worst / 2
    assert best > 25 * 60 and worst < 65 * 60


@pytest.mark.parametrize(("task", "service", "args"), TASKS)
@pytest.mark.parametrize(
    "error", [OperationalError("server closed the connection"), InterfaceError("closed")]
)
def test_a_database_error_closes_connections_and_retries_with_backoff(
    task: object, service: str, args: tuple[int, ...], error: Exception
) -> None:
    assert not getattr(task, "autoretry_for", ())  # one retry policy: the task's own
    task.push_request(id="task-id", retries=6)  # type: ignore[attr-defined]
    try:
        with (
            mock.patch(service, side_effect=error),
            mock.patch.object(retrying, "close_database_connections") as close,
            mock.patch.object(task, "retry", side_effect=Retry()) as retry,
            pytest.raises(Retry),
        ):
            task.run(*args)  # type: ignore[attr-defined]
    finally:
        task.pop_request()  # type: ignore[attr-defined]
    close.assert_called_once_with()
    retry.assert_called_once()
    options = retry.call_args.kwargs
    assert options["exc"] is error and options["max_retries"] == retrying.DATABASE_RETRIES
    assert 30 <= options["countdown"] <= 60  # retry 7: half of the one-minute ceiling at least


@pytest.mark.parametrize(("task", "service", "args"), TASKS)
def test_other_errors_are_not_retried(task: object, service: str, args: tuple[int, ...]) -> None:
    with (
        mock.patch(service, side_effect=ValueError("a bug")),
        mock.patch.object(task, "retry") as retry,
        pytest.raises(ValueError, match="a bug"),
    ):
        task.run(*args)  # type: ignore[attr-defined]
    retry.assert_not_called()


def test_closing_connections_skips_those_inside_a_transaction_block() -> None:
    """A connection outside any block is closed (the next query opens a new one), even one whose
    close complains; one inside an atomic block is left to the block, which owns it."""
    free = mock.Mock(in_atomic_block=False)
    complaining = mock.Mock(in_atomic_block=False, close=mock.Mock(side_effect=InterfaceError("closed")))
    in_block = mock.Mock(in_atomic_block=True)
    with mock.patch.object(retrying.connections, "all", return_value=[free, complaining, in_block]) as every:
        retrying.close_database_connections()
    every.assert_called_once_with(initialized_only=True)
    free.close.assert_called_once_with()
    complaining.close.assert_called_once_with()
    in_block.close.assert_not_called()


def test_when_database_answers_runs_the_action_once_it_is_back() -> None:
    calls: list[int] = []
    pauses: list[float] = []

    def action() -> None:
        calls.append(1)
        if len(calls) < 4:
            raise OperationalError("the database system is starting up")

    with mock.patch.object(retrying, "close_database_connections") as close:
        assert retrying.when_database_answers(action, timeout_s=60, sleep=pauses.append)
    assert len(calls) == 4 and close.call_count == 3
    assert len(pauses) == 3 and pauses[0] <= 1 <= pauses[2]  # backing off


def test_when_database_answers_gives_up_after_its_time() -> None:
    pauses: list[float] = []
    with mock.patch.object(retrying, "close_database_connections"):
        done = retrying.when_database_answers(
            mock.Mock(side_effect=InterfaceError("closed")), timeout_s=5, sleep=pauses.append
        )
    assert not done
    assert sum(pauses) <= 5


def test_recording_a_give_up_with_the_database_still_down_logs_instead_of_raising(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with (
        mock.patch.object(retrying, "close_database_connections") as close,
        caplog.at_level(logging.ERROR, logger="mpp_studio.jobs.retrying"),
    ):
        retrying.record_give_up("triplet chunk 4", mock.Mock(side_effect=OperationalError("refused")))
    close.assert_called_once_with()
    [message] = caplog.messages
    assert message.startswith("could not record the failure of triplet chunk 4")
    assert "stays 'running'" in message


def test_recording_a_give_up_runs_the_record() -> None:
    record = mock.Mock()
    with mock.patch.object(retrying, "close_database_connections"):
        retrying.record_give_up("dataset paradigm 5", record)
    record.assert_called_once_with()
