"""`manage.py requeue_jobs`: send the task messages kept while the queue was unreachable."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from mpp_studio.jobs.queueing import requeue_unsent


class Command(BaseCommand):
    help = (
        "Send the task messages that could not reach the task queue (Redis down) when their job "
        "was started. Workers do this by themselves when they (re)connect and every "
        "MPP_REQUEUE_INTERVAL seconds; run this after an outage if no worker is running. "
        "Exits with status 1 while messages still wait (the queue is still unreachable)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="Send at most this many messages.")

    def handle(self, *args: Any, **options: Any) -> None:
        result = requeue_unsent(limit=options["limit"])
        self.stdout.write(f"Sent {result.sent} kept task message(s); {result.waiting} still waiting.")
        if result.waiting and options["limit"] is None:
            raise SystemExit(1)
