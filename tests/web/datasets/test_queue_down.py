"""Dataset generation while the task queue (Redis) is unreachable: a dataset made from the page
is saved and the next page says the queue is unreachable; a worker's run whose next message
cannot be sent keeps it, and does not fail the paradigm. `requeue_unsent` then sends what was
kept, stopping at the first failure while the queue is still down."""

import io
from collections.abc import Callable
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from kombu.exceptions import OperationalError

from mpp_studio.datasets.models import Dataset, DatasetParadigm
from mpp_studio.datasets.tasks import generate_paradigm
from mpp_studio.jobs import queueing
from mpp_studio.jobs.models import Job, UnsentMessage

DOWN = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


@pytest.fixture(autouse=True)
def _broker_not_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(queueing, "_broker_failed_at", 0.0)


# Committed for real, so that the messages are sent (and kept) while the request runs.
@pytest.mark.django_db(transaction=True)
def test_dataset_from_the_page_is_saved_and_the_page_says_the_queue_is_down(
    client: Client, editor: object, project: object, templates: dict[str, object]
) -> None:
    client.force_login(editor)  # type: ignore[arg-type]
    with mock.patch.object(generate_paradigm, "delay", side_effect=DOWN):
        response = client.post(
            f"/projects/{project.pk}/datasets/new/",  # type: ignore[attr-defined]
            {
                "name": "During the outage",
                "templates": [templates["en"].pk, templates["zh"].pk],  # type: ignore[attr-defined]
                "pairs_per_paradigm": 4,
                "seed": 0,
                "unique": "",
            },
            follow=True,
        )
    assert response.status_code == 200
    html = response.content.decode()
    assert queueing.QUEUE_UNREACHABLE_MESSAGE in html
    assert "This job is saved and goes on by itself once the queue is back." in html  # the status
    dataset = Dataset.objects.get(name="During the outage")
    assert dataset.job.status == Job.Status.QUEUED  # type: ignore[union-attr]
    paradigms = sorted(dataset.paradigms.values_list("pk", flat=True))
    kept = UnsentMessage.objects.order_by("pk")
    assert [(m.task, m.args) for m in kept] == [("datasets.generate_paradigm", [pk]) for pk in paradigms]

    # Still down: nothing sent, nothing lost. Back: every kept message sent once, then deleted.
    with mock.patch.object(generate_paradigm, "apply_async", side_effect=DOWN) as send:
        assert queueing.requeue_unsent() == queueing.RequeueResult(sent=0, waiting=2)
    assert send.call_count == 1
    with mock.patch.object(generate_paradigm, "apply_async") as send:
        assert queueing.requeue_unsent() == queueing.RequeueResult(sent=2, waiting=0)
    assert [c.kwargs["args"] for c in send.call_args_list] == [[pk] for pk in paradigms]
    assert not queueing.messages_waiting()


@pytest.mark.django_db
def test_a_run_whose_next_message_cannot_be_sent_keeps_it(
    make_dataset: Callable[..., Dataset], django_capture_on_commit_callbacks: Callable[..., object]
) -> None:
    paradigm = make_dataset("en", n=10).paradigms.get()
    generate_paradigm.push_request(delivery_info={"routing_key": "private-queue"})
    try:
        with (
            mock.patch.object(generate_paradigm, "apply_async", side_effect=DOWN) as send,
            django_capture_on_commit_callbacks(execute=True),  # type: ignore[operator]
        ):
            generate_paradigm.run(paradigm.pk, chunk_size=2, pairs_per_run=4)  # no error raised
    finally:
        generate_paradigm.pop_request()
    send.assert_called_once()
    paradigm.refresh_from_db()
    assert (paradigm.status, paradigm.produced) == (DatasetParadigm.Status.PENDING, 4)
    [kept] = UnsentMessage.objects.all()
    assert (kept.task, kept.args) == ("datasets.generate_paradigm", [paradigm.pk])
    assert kept.kwargs == {"chunk_size": 2, "pairs_per_run": 4}
    assert kept.options == {"queue": "private-queue"}
    assert "Connection refused" in kept.error


@pytest.mark.django_db
def test_a_kept_message_of_an_unknown_task_stays_for_a_person() -> None:
    UnsentMessage.objects.create(task="datasets.renamed_long_ago", args=[1])
    assert queueing.requeue_unsent() == queueing.RequeueResult(sent=0, waiting=1)


@pytest.mark.django_db
def test_requeue_jobs_queued_for_resends_the_work_of_jobs_never_started(
    make_dataset: Callable[..., Dataset],
) -> None:
    """A Redis that lost its messages: `requeue_jobs --queued-for 0` sends again a message per
    pending paradigm of each queued dataset; a started one is left to its worker."""
    waiting = make_dataset("en", "zh", n=4, name="Lost messages")  # its messages never sent here
    started = make_dataset("en", n=4, name="Running")
    Job.objects.filter(pk=started.job_id).update(status=Job.Status.RUNNING, started_at=timezone.now())
    out = io.StringIO()
    with mock.patch.object(generate_paradigm, "delay") as send:
        call_command("requeue_jobs", "--queued-for", "0", stdout=out)
    paradigms = sorted(waiting.paradigms.values_list("pk", flat=True))
    assert [c.args for c in send.call_args_list] == [(pk,) for pk in paradigms]
    assert "Sent again 2 message(s) of 1 queued job(s)." in out.getvalue()
    with mock.patch.object(generate_paradigm, "delay", side_effect=DOWN), pytest.raises(SystemExit):
        call_command("requeue_jobs", "--queued-for", "0", stdout=io.StringIO())  # kept: exit 1
    assert UnsentMessage.objects.count() == 2


@pytest.mark.django_db
def test_requeue_jobs_queued_for_resends_an_import_never_started(project: object) -> None:
    """An import whose message Redis lost: `requeue_jobs --queued-for 0` sends it again."""
    from mpp_studio.datasets.services import UploadedFile, dataset_import_start
    from mpp_studio.datasets.tasks import import_files

    line = b'{"sentence_good": "A b.", "sentence_bad": "B a.", "UID": "u", "field": "s", "pairID": "0"}\n'
    dataset = dataset_import_start(
        project=project, name="Lost", files=[UploadedFile("r.jsonl", io.BytesIO(line))]
    )  # type: ignore[arg-type]
    out = io.StringIO()
    with mock.patch.object(import_files, "delay") as send:
        call_command("requeue_jobs", "--queued-for", "0", stdout=out)
    assert [c.args for c in send.call_args_list] == [(dataset.pk,)]
    assert "Sent again 1 message(s) of 1 queued job(s)." in out.getvalue()
