"""Celery tasks of the datasets app: thin wrappers that call a service by id.

A task only handles messaging (retries, queueing the next run, the final failure); the work is
`services.dataset_paradigm_generate`, which is safe to run twice (tasks are acknowledged late).
"""

from celery import shared_task

from mpp_studio.jobs.queueing import GivingUpTask
from mpp_studio.jobs.retrying import retry_on_database_error


class GenerateParadigmTask(GivingUpTask):
    """Marks the paradigm failed, in words, when the task gives up (retries spent, worker error)."""

    give_up_arguments = ("paradigm_id",)

    def give_up_label(self, ids: dict[str, int]) -> str:
        return f"dataset paradigm {ids['paradigm_id']}"

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        from mpp_studio.datasets.services import dataset_paradigm_fail

        dataset_paradigm_fail(
            paradigm_id=ids["paradigm_id"], message=f"the worker could not finish this paradigm ({reason})"
        )


@shared_task(
    name="datasets.generate_paradigm",  # stable: queued messages name it; never rename without an alias
    bind=True,
    base=GenerateParadigmTask,
    acks_late=True,
    # A worker process killed mid-run (out of memory, a crash) puts the message back in the
    # queue instead of failing the paradigm: the next run keeps the pairs already stored.
    reject_on_worker_lost=True,
    ignore_result=True,
    # A database outage is retried in the body with backoff for half an hour or more
    # (jobs.retrying), never counted as the task failing.
    time_limit=60 * 60,  # a run stores PAIRS_PER_RUN pairs in minutes; an hour means it is stuck
)
def generate_paradigm(
    self: GenerateParadigmTask, paradigm_id: int, chunk_size: int = 0, pairs_per_run: int = 0
) -> None:
    """Store the next pairs of a dataset paradigm; queue the next run if its budget ran out."""
    from mpp_studio.datasets.services import CHUNK_SIZE, PAIRS_PER_RUN, dataset_paradigm_generate

    with retry_on_database_error(self):
        more = dataset_paradigm_generate(
            paradigm_id=paradigm_id,
            chunk_size=chunk_size or CHUNK_SIZE,
            pairs_per_run=pairs_per_run or PAIRS_PER_RUN,
        )
    if more:
        # The next run goes to the queue this one came from (a worker may serve a private queue).
        queue = (self.request.delivery_info or {}).get("routing_key")
        self.apply_async_on_commit(
            args=(paradigm_id,),
            kwargs={"chunk_size": chunk_size, "pairs_per_run": pairs_per_run},
            **({"queue": queue} if queue else {}),
        )


class ImportFilesTask(GivingUpTask):
    """Fails the import's job, in words, when the task gives up (retries spent, worker error);
    the kept files stay with the dataset until it is deleted."""

    give_up_arguments = ("dataset_id",)

    def give_up_label(self, ids: dict[str, int]) -> str:
        return f"the import of dataset {ids['dataset_id']}"

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        from mpp_studio.datasets.models import Dataset
        from mpp_studio.jobs.services import job_fail

        job_id = Dataset.objects.filter(pk=ids["dataset_id"]).values_list("job_id", flat=True).first()
        if job_id is not None:
            job_fail(job_id=job_id, message=f"the worker could not finish reading the files ({reason})")


@shared_task(
    name="datasets.import_files",  # stable: queued messages name it; never rename without an alias
    bind=True,
    base=ImportFilesTask,
    acks_late=True,
    # A worker killed mid-import puts the message back: the next run skips the pairs stored.
    reject_on_worker_lost=True,
    ignore_result=True,
    time_limit=2 * 60 * 60,  # 500,000 pairs are minutes of work; two hours means it is stuck
)
def import_files(self: ImportFilesTask, dataset_id: int) -> None:
    """Read an imported dataset's kept files and store their pairs (datasets.services)."""
    from mpp_studio.datasets.services import dataset_import_run

    with retry_on_database_error(self):
        dataset_import_run(dataset_id=dataset_id)
