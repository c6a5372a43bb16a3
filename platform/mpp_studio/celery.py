"""The Celery app: tasks go to the `cpu` queue unless routed to `gpu` (model scoring)."""

import os

from celery import Celery
from kombu import Exchange, Queue

from mpp_studio.jobs.queueing import RequeueUnsentStep

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mpp_studio.settings.local")

app = Celery("mpp_studio")
# Where the broker and result backend are depends on the environment: see CELERY_* in settings.
app.config_from_object("django.conf:settings", namespace="CELERY")
# How tasks run is the same everywhere, so it is fixed here.
app.conf.update(
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    # Tasks are idempotent (they re-check the world by id), so a task whose worker died is
    # redelivered rather than lost.
    task_acks_late=True,
    # Tasks are long (generation, scoring): a worker holds only the message it is running.
    worker_prefetch_multiplier=1,
    task_default_queue="cpu",
    # Each queue gets its own exchange and key: a Queue without them is bound to the default
    # (cpu) exchange, and a task sent to `gpu` would land in `cpu`.
    task_queues=(
        Queue("cpu", Exchange("cpu"), routing_key="cpu"),
        Queue("gpu", Exchange("gpu"), routing_key="gpu"),
    ),
    broker_connection_retry_on_startup=True,
)
app.autodiscover_tasks()
# Each time a worker (re)connects to the broker, and then on a timer, it sends the task messages
# that web requests or tasks kept while Redis was unreachable (jobs.queueing).
app.steps["consumer"].add(RequeueUnsentStep)
