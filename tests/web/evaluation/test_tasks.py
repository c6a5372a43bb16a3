"""The scoring task: a stable name, late acknowledgement, requeued when its worker dies, routed to
the scoring queue, and failing the run in words when it gives up."""

import os
from collections.abc import Callable
from unittest import mock

import pytest
from django.conf import settings

from mpp_studio.celery import app
from mpp_studio.evaluation.models import LanguageModel, ScoringChunk, ScoringRun
from mpp_studio.evaluation.tasks import score_chunk

pytestmark = pytest.mark.django_db


def test_task_has_a_stable_name_and_survives_a_dead_worker() -> None:
    assert score_chunk.name == "evaluation.score_chunk"
    assert score_chunk.acks_late is True and score_chunk.reject_on_worker_lost is True
    assert score_chunk.ignore_result is True


def test_task_goes_to_the_scoring_queue() -> None:
    if "MPP_SCORING_QUEUE" not in os.environ:
        assert settings.SCORING_QUEUE == "gpu"
    route = app.amqp.router.route({}, score_chunk.name, args=(1, 2, 3, 0))
    assert route["queue"].name == settings.SCORING_QUEUE


def test_task_calls_the_service_with_its_ids() -> None:
    with mock.patch("mpp_studio.evaluation.services.score_chunk") as service:
        score_chunk.run(7, 8, 9, 3)
    service.assert_called_once_with(run_id=7, config_id=8, dataset_id=9, chunk_index=3)


def test_giving_up_fails_the_chunk_and_the_run_in_words(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel
) -> None:
    run = make_run([unigram_en])
    chunk = ScoringChunk.objects.filter(run=run).order_by("index").first()
    assert chunk is not None
    score_chunk.on_failure(
        TimeoutError("hard time limit (7200s) exceeded"),
        "task-id",
        (run.pk, chunk.config_id, chunk.dataset_id, chunk.index),
        {},
        None,  # type: ignore[arg-type]
    )
    chunk.refresh_from_db()
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert chunk.status == "failed"
    assert run.job.status == "failed"  # type: ignore[union-attr]
    assert run.job.message.startswith(  # type: ignore[union-attr]
        "Unigram baseline (en) · unigram · float32: the worker could not finish a chunk "
        "(TimeoutError: hard time limit (7200s) exceeded)."
    )
