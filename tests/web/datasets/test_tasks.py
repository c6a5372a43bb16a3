"""The generation task: a thin wrapper that calls the service, queues the next run, records a give-up."""

from collections.abc import Callable
from unittest import mock

import pytest

from mpp_studio.datasets.models import Dataset
from mpp_studio.datasets.tasks import generate_paradigm

pytestmark = pytest.mark.django_db


def test_task_has_a_stable_name_and_is_acknowledged_late() -> None:
    assert generate_paradigm.name == "datasets.generate_paradigm"
    assert generate_paradigm.acks_late is True and generate_paradigm.ignore_result is True


def test_task_calls_the_service_and_stops_when_it_is_done(make_dataset: Callable[..., Dataset]) -> None:
    dataset = make_dataset("en", n=6)
    paradigm = dataset.paradigms.get()
    with mock.patch.object(generate_paradigm, "apply_async_on_commit") as again:
        generate_paradigm.run(paradigm.pk)
    again.assert_not_called()
    paradigm.refresh_from_db()
    assert (paradigm.status, paradigm.produced) == ("done", 6)


def test_task_queues_the_next_run_on_the_same_queue(make_dataset: Callable[..., Dataset]) -> None:
    paradigm = make_dataset("en", n=10).paradigms.get()
    generate_paradigm.push_request(delivery_info={"routing_key": "private-queue"})
    try:
        with mock.patch.object(generate_paradigm, "apply_async_on_commit") as again:
            generate_paradigm.run(paradigm.pk, chunk_size=2, pairs_per_run=4)
    finally:
        generate_paradigm.pop_request()
    again.assert_called_once_with(
        args=(paradigm.pk,), kwargs={"chunk_size": 2, "pairs_per_run": 4}, queue="private-queue"
    )
    paradigm.refresh_from_db()
    assert (paradigm.status, paradigm.produced) == ("pending", 4)


def test_giving_up_marks_the_paradigm_failed_in_words(make_dataset: Callable[..., Dataset]) -> None:
    dataset = make_dataset("en", n=6)
    paradigm = dataset.paradigms.get()
    generate_paradigm.on_failure(
        RuntimeError("database went away"),
        "task-id",
        (paradigm.pk,),
        {},
        None,  # type: ignore[arg-type]
    )
    paradigm.refresh_from_db()
    [problem] = paradigm.problems
    assert paradigm.status == "failed" and problem["code"] == "E_WORKER"
    assert (
        problem["message"] == "the worker could not finish this paradigm (RuntimeError: database went away)"
    )
    dataset.job.refresh_from_db()
    assert (
        dataset.job.status == "failed"
        and "en_sv_agreement: the worker could not finish" in dataset.job.message
    )
