"""Starting a scoring run while the task queue (Redis) is unreachable: the run and its chunks
are saved, the API answers 202 with the warning, each chunk's message is kept, and
`requeue_unsent` sends them once the queue answers."""

from collections.abc import Callable
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from mpp_studio.evaluation.models import ScoringChunk, ScoringRun
from mpp_studio.jobs import queueing
from mpp_studio.jobs.models import Job, UnsentMessage

# Committed for real, so that the messages are sent (and kept) while the request runs.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _broker_not_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queueing, "_broker_failed_at", 0.0)


def test_run_started_while_the_queue_is_down_starts_once_it_is_back(
    request: pytest.FixtureRequest,
    project: object,
    editor: object,
    generated: object,
    gpt2_model: object,
) -> None:
    client = request.getfixturevalue("api_client_for")(editor)
    payload = {
        "name": "During the outage",
        "language_models": [gpt2_model.pk],  # type: ignore[attr-defined]
        "datasets": [generated.pk],
        "chunk_size": 10,
    }  # type: ignore[attr-defined]
    down = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    with mock.patch("mpp_studio.evaluation.tasks.score_chunk.delay", side_effect=down) as delay:
        response = client.post(f"/api/projects/{project.pk}/scoring-runs/", payload, format="json")  # type: ignore[attr-defined]
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["queue_warning"] == queueing.QUEUE_UNREACHABLE_MESSAGE
    assert response["X-MPP-Queue"] == "unreachable"
    assert delay.call_count == 1  # the other chunks are kept at once, not retried one by one
    run = ScoringRun.objects.get(pk=body["id"])
    assert run.job.status == Job.Status.QUEUED
    chunks = list(ScoringChunk.objects.filter(run=run).order_by("index"))
    kept = list(UnsentMessage.objects.order_by("pk"))
    assert [(m.task, m.args) for m in kept] == [
        ("evaluation.score_chunk", [run.pk, c.config_id, c.dataset_id, c.index]) for c in chunks
    ]

    with mock.patch("mpp_studio.evaluation.tasks.score_chunk.apply_async") as send:
        result = queueing.requeue_unsent()
    assert (result.sent, result.waiting) == (len(chunks), 0)
    assert [call.kwargs["args"] for call in send.call_args_list] == [m.args for m in kept]


def test_a_queued_run_whose_messages_were_lost_is_sent_again(
    make_run: Callable[..., ScoringRun], gpt2_model: object
) -> None:
    with mock.patch("mpp_studio.evaluation.tasks.score_chunk.delay"):
        run = make_run([gpt2_model])
    with mock.patch("mpp_studio.evaluation.tasks.score_chunk.delay") as send:
        sent = queueing.resend_queued(created_before=timezone.now() + timedelta(seconds=1))
    chunks = ScoringChunk.objects.filter(run=run).order_by("pk")
    assert sent == {run.job_id: chunks.count()}
    assert [c.args for c in send.call_args_list] == [
        (run.pk, c.config_id, c.dataset_id, c.index) for c in chunks
    ]
