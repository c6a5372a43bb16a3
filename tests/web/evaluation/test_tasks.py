"""The scoring task: a stable name, late acknowledgement, requeued when its worker dies, routed to
the scoring queue, and failing the run in words when it gives up."""

import os
import runpy
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings

from mpp_studio.celery import app
from mpp_studio.evaluation.models import LanguageModel, ScoringChunk, ScoringRun
from mpp_studio.evaluation.tasks import score_chunk
from tests.web.conftest import REPO_ROOT

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


BASE_SETTINGS = REPO_ROOT / "platform" / "mpp_studio" / "settings" / "base.py"


@pytest.mark.parametrize(
    ("env", "queue", "options"),
    [
        ({}, "gpu", None),
        ({"MPP_SCORING_QUEUE": "cpu"}, "cpu", None),
        ({"REDIS_URL": "redis://r:6379/0"}, "gpu", {}),
        (
            {"REDIS_URL": "redis://r:6379/0", "MPP_BROKER_VISIBILITY_TIMEOUT": "600"},
            "gpu",
            {"visibility_timeout": 600},
        ),
    ],
)
def test_settings_route_scoring_and_redelivery(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str], queue: str, options: object
) -> None:
    """MPP_SCORING_QUEUE picks the scoring queue; with Redis, MPP_BROKER_VISIBILITY_TIMEOUT sets
    when a dead worker's message is delivered again (kombu's hour otherwise)."""
    for name in ("REDIS_URL", "DATABASE_URL", "MPP_SCORING_QUEUE", "MPP_BROKER_VISIBILITY_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MPP_VAR_DIR", str(tmp_path / "var"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    loaded = runpy.run_path(str(BASE_SETTINGS))
    assert loaded["SCORING_QUEUE"] == queue
    assert loaded["CELERY_TASK_ROUTES"] == {
        "evaluation.count_token_frequencies": {"queue": "cpu"},
        "evaluation.*": {"queue": queue},
    }
    if "REDIS_URL" in env:
        # Besides the socket timeouts that every Redis connection gets (tests/web/test_settings.py).
        transport = dict(loaded["CELERY_BROKER_TRANSPORT_OPTIONS"])
        transport.pop("socket_connect_timeout")
        transport.pop("socket_timeout")
        assert transport == options


def test_counting_token_frequencies_keeps_to_the_cpu_queue() -> None:
    """Counting needs a tokenizer, never a model: the GPU worker is left to score."""
    from mpp_studio.celery import app

    router = app.amqp.router
    assert router.route({}, "evaluation.count_token_frequencies")["queue"].name == "cpu"
    assert router.route({}, "evaluation.score_chunk")["queue"].name == "gpu"
