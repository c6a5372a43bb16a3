"""The Celery app's fixed policy, and the `core.ping` task run in-process."""

import pytest
from django.db import connection

from mpp_studio import celery_app
from mpp_studio.core.tasks import ping


def test_celery_app_policy() -> None:
    """JSON only, late acks, prefetch 1, `cpu` by default and a `gpu` queue."""
    conf = celery_app.conf
    assert celery_app.main == "mpp_studio"
    assert conf.task_serializer == conf.result_serializer == "json"
    assert conf.accept_content == ["json"]
    assert conf.task_acks_late is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_default_queue == "cpu"
    assert {queue.name for queue in conf.task_queues} == {"cpu", "gpu"}


@pytest.mark.parametrize("name", ["cpu", "gpu"])
def test_celery_queue_has_its_own_exchange_and_key(name: str) -> None:
    """A task sent to `gpu` must reach only the `gpu` queue (not the default exchange)."""
    queue = celery_app.amqp.queues[name]
    assert (queue.exchange.name, queue.routing_key) == (name, name)


def test_celery_app_finds_core_tasks() -> None:
    celery_app.loader.import_default_modules()
    assert "core.ping" in celery_app.tasks


@pytest.mark.django_db
def test_ping_echoes_value_after_database_round_trip() -> None:
    assert ping("hi") == {"echo": "hi", "database": connection.vendor}
