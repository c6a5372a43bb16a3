"""A triplet run started while the task queue (Redis) is unreachable keeps its chunk messages;
a queued run whose messages the broker lost is sent again by `resend_queued`."""

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from mpp_studio.jobs import queueing
from mpp_studio.jobs.models import Job, UnsentMessage
from mpp_studio.learner.models import TripletChunk
from mpp_studio.learner.services import run_create

pytestmark = pytest.mark.django_db(transaction=True)  # messages sent when the run commits


@pytest.fixture(autouse=True)
def _broker_not_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queueing, "_broker_failed_at", 0.0)


def test_run_started_while_the_queue_is_down_keeps_its_messages_then_resends(
    corpus: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    down = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    with mock.patch("mpp_studio.learner.tasks.make_triplets_chunk.delay", side_effect=down):
        run = run_create(corpus=corpus, chunk_size=120)  # type: ignore[arg-type]
    chunk_ids = list(TripletChunk.objects.filter(run=run).order_by("index").values_list("pk", flat=True))
    assert run.job.status == Job.Status.QUEUED
    assert [m.args for m in UnsentMessage.objects.order_by("pk")] == [[pk] for pk in chunk_ids]

    monkeypatch.setattr(queueing, "_broker_failed_at", 0.0)  # as once a kept message went through
    with mock.patch("mpp_studio.learner.tasks.make_triplets_chunk.delay") as send:
        sent = queueing.resend_queued(created_before=timezone.now() + timedelta(seconds=1))
    assert sent == {run.job_id: len(chunk_ids)}
    assert [c.args for c in send.call_args_list] == [(pk,) for pk in chunk_ids]
