"""Celery tasks of model evaluation: thin wrappers that call a service by id.

`evaluation.score_chunk` goes to the SCORING_QUEUE (`gpu` unless MPP_SCORING_QUEUE says
otherwise; CELERY_TASK_ROUTES in settings). The work is `services.score_chunk`, safe to run
twice: tasks are acknowledged late, and redelivered when their worker process dies.
"""


from celery import shared_task

from mpp_studio.jobs.queueing import GivingUpTask
from mpp_studio.jobs.retrying import retry_on_database_error


class ScoreChunkTask(GivingUpTask):
    """Fails the chunk, and so the run, in words when the task gives up (retries spent, time limit)."""

    give_up_arguments = ("run_id", "config_id", "dataset_id", "chunk_index")

    def give_up_label(self, ids: dict[str, int]) -> str:
        return f"chunk {ids['chunk_index']} of scoring run {ids['run_id']}"

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        from mpp_studio.evaluation.services import chunk_give_up

        chunk_give_up(**ids, message=f"the worker could not finish a chunk ({reason}).")


@shared_task(
    name="evaluation.score_chunk",  # stable: queued messages name it; never rename without an alias
    bind=True,
    base=ScoreChunkTask,
    acks_late=True,
    # A worker process killed while scoring (out of memory, a crash) puts the chunk back in the
    # queue; ScoringChunk.attempts stops a chunk that keeps killing its worker.
    reject_on_worker_lost=True,
    ignore_result=True,
    # A database outage is retried in the body with backoff for half an hour or more
    # (jobs.retrying), never counted as the task failing.
    # A chunk is 1,000 sentences: seconds on a GPU, minutes for a large model on a CPU; loading
    # the model comes first. Two hours means it is stuck. The soft limit lets the service fail
    # the run in words; the hard one (which kills the process) only backs it up.
    soft_time_limit=115 * 60,
    time_limit=2 * 60 * 60,
)
def score_chunk(self: ScoreChunkTask, run_id: int, config_id: int, dataset_id: int, chunk_index: int) -> None:
    """Score and store one chunk of a run for one configuration (see services.score_chunk)."""
    from mpp_studio.evaluation.services import score_chunk as run

    with retry_on_database_error(self):
        run(run_id=run_id, config_id=config_id, dataset_id=dataset_id, chunk_index=chunk_index)


class CountTokenFrequenciesTask(GivingUpTask):
    """Fails the table's job in words when the task gives up."""

    give_up_arguments = ("table_id",)

    def give_up_label(self, ids: dict[str, int]) -> str:
        return f"token frequencies {ids['table_id']}"

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        from mpp_studio.evaluation.services.token_frequencies import token_frequencies_give_up

        token_frequencies_give_up(
            table_id=ids["table_id"], message=f"the worker could not finish ({reason})."
        )


@shared_task(
    name="evaluation.count_token_frequencies",  # stable: queued messages name it
    bind=True,
    base=CountTokenFrequenciesTask,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    soft_time_limit=6 * 60 * 60,
    time_limit=6 * 60 * 60 + 300,
)
def count_token_frequencies(self: CountTokenFrequenciesTask, table_id: int) -> None:
    """Make a tokenizer's token frequencies and fill the unigram log-probabilities of its pair
    scores (see services.token_frequencies.token_frequencies_make)."""
    from mpp_studio.evaluation.services.token_frequencies import token_frequencies_make

    with retry_on_database_error(self):
        token_frequencies_make(table_id=table_id)
