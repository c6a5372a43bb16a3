"""`manage.py requeue_jobs`: send the task messages kept while the queue was unreachable, and,
with --queued-for, the messages of jobs queued that long that no worker ever started."""

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from mpp_studio.jobs.queueing import messages_waiting_count, requeue_unsent, resend_queued


class Command(BaseCommand):
    help = (
        "Send the task messages that could not reach the task queue (Redis down) when their job "
        "was started. Workers do this by themselves when they (re)connect and every "
        "MPP_REQUEUE_INTERVAL seconds; run this after an outage if no worker is running. "
        "With --queued-for MINUTES, also send again the messages of every job queued at least "
        "that long and never started: for a Redis that lost its messages (restarted without its "
        "append-only file). Exits with status 1 while messages still wait (the queue is down)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="Send at most this many kept messages.")
        parser.add_argument(
            "--queued-for",
            type=float,
            default=None,
            metavar="MINUTES",
            help="Also resend the work of jobs queued at least this many minutes, never started.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        result = requeue_unsent(limit=options["limit"])
        self.stdout.write(f"Sent {result.sent} kept task message(s); {result.waiting} still waiting.")
        if options["queued_for"] is not None:
            before = timezone.now() - timedelta(minutes=options["queued_for"])
            resent = resend_queued(created_before=before)
            messages = sum(resent.values())
            self.stdout.write(f"Sent again {messages} message(s) of {len(resent)} queued job(s).")
        # Counted again: a message the broker refused just now is kept too.
        if messages_waiting_count() and options["limit"] is None:
            raise SystemExit(1)
