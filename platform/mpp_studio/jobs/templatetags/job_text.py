"""Template filters for showing jobs in words."""

from django import template

from mpp_studio.core.uploads import size_text
from mpp_studio.jobs.models import Job
from mpp_studio.jobs.queueing import messages_waiting

register = template.Library()


@register.filter
def duration(job: Job) -> str:
    """Return how long a finished job ran, e.g. "4 s", "2 min 5 s", "1 h 3 min" ("" if unknown)."""
    if job.started_at is None or job.finished_at is None:
        return ""
    seconds = max(0, round((job.finished_at - job.started_at).total_seconds()))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


@register.filter
def kib_size(kib: int) -> str:
    """Return a count of KiB (a byte-progress job's unit) as a size in words, e.g. "1.2 MB"."""
    return size_text(int(kib) * 1024)


@register.simple_tag
def queue_unreachable() -> bool:
    """Return whether task messages wait in the database for the queue (Redis) to come back."""
    return messages_waiting()
