"""A triplet chunk that loses the database mid-pipeline (the pipeline writes its progress) is
retried, not failed: a database error is not the engine's, and the attempt counted is given back."""

import pytest
from django.db import OperationalError

from mpp_studio.jobs.models import Job
from mpp_studio.learner.models import TripletChunk
from mpp_studio.learner.services import make_triplets_chunk, run_create

pytestmark = pytest.mark.django_db


def test_a_database_error_in_the_pipeline_is_retried_not_failed(
    corpus: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mpp_studio.learner import services

    run = run_create(corpus=corpus, chunk_size=1000, dispatch=False)  # type: ignore[arg-type]
    chunk = TripletChunk.objects.get(run=run)
    real_pipeline = services.run_pipeline

    def outage_midway(
        pairs: object,
        settings: object,
        progress: object = None,
        confusions: object = None,
        other_corrections: object = None,
    ) -> object:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "run_pipeline", outage_midway)
    with pytest.raises(OperationalError):
        make_triplets_chunk(chunk_id=chunk.pk)
    chunk.refresh_from_db()
    run.job.refresh_from_db()
    assert (chunk.status, chunk.attempts) == ("pending", 0)
    assert run.job.status == Job.Status.RUNNING  # not "Making triplets failed"

    monkeypatch.setattr(services, "run_pipeline", real_pipeline)
    make_triplets_chunk(chunk_id=chunk.pk)  # the retry, with the database back
    chunk.refresh_from_db()
    run.job.refresh_from_db()
    assert (chunk.status, chunk.attempts) == ("done", 1)
    assert run.job.status == Job.Status.DONE, run.job.message
