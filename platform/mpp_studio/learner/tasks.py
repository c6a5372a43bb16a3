"""Celery tasks of learner triplets: thin wrappers that call a service by id.

`learner.read_corpus` and `learner.make_triplets_chunk` go to the default `cpu` queue. The work is
`services.corpus_read` and `services.make_triplets_chunk`, both safe to run twice: tasks are
acknowledged late, and redelivered when their worker process dies. spaCy and ERRANT load once
per worker process (`triplets.annotate.annotator` is cached).
"""

from celery import shared_task

from mpp_studio.jobs.queueing import GivingUpTask
from mpp_studio.jobs.retrying import retry_on_database_error


class TripletChunkTask(GivingUpTask):
    """Fails the run in words when the task gives up (retries spent, time limit)."""

    give_up_arguments = ("chunk_id",)

    def give_up_label(self, ids: dict[str, int]) -> str:
        return f"triplet chunk {ids['chunk_id']}"

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        from mpp_studio.learner.services import run_give_up

        run_give_up(chunk_id=ids["chunk_id"], message=f"the worker could not finish it ({reason}).")


@shared_task(
    name="learner.make_triplets_chunk",  # stable: queued messages name it; never rename without an alias
    bind=True,
    base=TripletChunkTask,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    # A database outage is retried in the body with backoff for half an hour or more
    # (jobs.retrying), never counted as the task failing.
    # 500 pairs take seconds to a minute once spaCy is loaded; an hour means it is stuck.
    time_limit=60 * 60,
)
def make_triplets_chunk(self: TripletChunkTask, chunk_id: int) -> None:
    """Make and store one chunk's triplets (see services.make_triplets_chunk)."""
    from mpp_studio.learner.services import make_triplets_chunk as make

    with retry_on_database_error(self):
        make(chunk_id=chunk_id)


class ReadCorpusTask(GivingUpTask):
    """Fails the corpus's read job, in words, when the task gives up (retries spent, time limit,
    a worker error); the pairs written so far and the kept files are removed."""

    give_up_arguments = ("corpus_id",)

    def give_up_label(self, ids: dict[str, int]) -> str:
        return f"the read of learner corpus {ids['corpus_id']}"

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        from mpp_studio.learner.services import corpus_read_give_up

        corpus_read_give_up(
            corpus_id=ids["corpus_id"],
            message=f"The worker could not finish reading the files ({reason}); nothing was stored. "
            "Upload the files again.",
        )


@shared_task(
    name="learner.read_corpus",  # stable: queued messages name it; never rename without an alias
    bind=True,
    base=ReadCorpusTask,
    acks_late=True,
    # A worker killed mid-read puts the message back: the next run skips the pairs stored.
    reject_on_worker_lost=True,
    ignore_result=True,
    # A database outage is retried in the body with backoff (jobs.retrying), never counted as
    # the task failing. 500,000 pairs are minutes of work; two hours means it is stuck.
    time_limit=2 * 60 * 60,
)
def read_corpus(self: ReadCorpusTask, corpus_id: int) -> None:
    """Read a learner corpus's kept files and store its pairs (see services.corpus_read)."""
    from mpp_studio.learner.services import corpus_read

    with retry_on_database_error(self):
        corpus_read(corpus_id=corpus_id)
