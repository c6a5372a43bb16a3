"""The `duration` filter says how long a job ran, in words a person reads at a glance."""

from datetime import UTC, datetime, timedelta

import pytest

from mpp_studio.jobs.models import Job
from mpp_studio.jobs.templatetags.job_text import duration

START = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(0, "0 s"), (4.4, "4 s"), (60, "1 min"), (125, "2 min 5 s"), (3600, "1 h"), (3780, "1 h 3 min")],
)
def test_duration_in_words(seconds: float, words: str) -> None:
    job = Job(started_at=START, finished_at=START + timedelta(seconds=seconds))
    assert duration(job) == words


def test_duration_of_a_job_that_never_started_is_empty() -> None:
    assert duration(Job(finished_at=START)) == ""


@pytest.mark.parametrize(
    ("kib", "words"), [(0, "0 bytes"), (1, "1.0 KB"), (1229, "1.2 MB"), (5734, "5.6 MB")]
)
def test_kib_size_says_a_byte_progress_count_as_a_size(kib: int, words: str) -> None:
    """A count of KiB reads as a size in words."""
    from mpp_studio.jobs.templatetags.job_text import kib_size

    assert kib_size(kib) == words
