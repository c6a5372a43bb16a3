"""Celery tasks of the paradigms app: thin wrappers that call a service by id.

The work is in `services.zhoblimp_import`, `services.library_into_project` and `services.recount`;
each run is safe to run twice (tasks are acknowledged late and redelivered after a worker dies).
"""

from celery import shared_task

from mpp_studio.jobs.queueing import GivingUpTask, QueueGuardedTask
from mpp_studio.jobs.retrying import retry_on_database_error


class ImportZhoblimpTask(GivingUpTask):
    """Fails the import's job, in words, when the task gives up (retries spent, worker error), and
    removes the vocabulary it began; the kept files stay with the import."""

    give_up_arguments = ("import_id",)

    def give_up_label(self, ids: dict[str, int]) -> str:
        return f"ZhoBLiMP import {ids['import_id']}"

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_give_up

        zhoblimp_import_give_up(import_id=ids["import_id"], reason=reason)


@shared_task(
    name="paradigms.import_zhoblimp",  # stable: queued messages name it; never rename without an alias
    bind=True,
    base=ImportZhoblimpTask,
    acks_late=True,
    # A worker killed mid-import puts the message back: the next run finds what the first began.
    reject_on_worker_lost=True,
    ignore_result=True,
    time_limit=60 * 60,  # 131 templates are minutes of work; an hour means it is stuck
)
def import_zhoblimp(self: ImportZhoblimpTask, import_id: int) -> None:
    """Convert and store a ZhoBLiMP import's kept files (paradigms.services.zhoblimp_import)."""
    from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_run

    with retry_on_database_error(self):
        zhoblimp_import_run(import_id=import_id)


class ImportLibraryTask(GivingUpTask):
    """Fails the import's job, in words, when the task gives up; the paradigms imported stay."""

    give_up_arguments = ("import_id",)

    def give_up_label(self, ids: dict[str, int]) -> str:
        return f"library import {ids['import_id']}"

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        from mpp_studio.paradigms.services.library_into_project import library_import_give_up

        library_import_give_up(import_id=ids["import_id"], reason=reason)


@shared_task(
    name="paradigms.import_library",  # stable: queued messages name it; never rename without an alias
    bind=True,
    base=ImportLibraryTask,
    acks_late=True,
    # A worker killed mid-import puts the message back: the next run goes on after the last result.
    reject_on_worker_lost=True,
    ignore_result=True,
    time_limit=60 * 60,  # a paradigm takes under a second; an hour means it is stuck
)
def import_library(self: ImportLibraryTask, import_id: int) -> None:
    """Import the chosen library paradigms into the project (paradigms.services.library_into_project)."""
    from mpp_studio.paradigms.services.library_into_project import library_templates_import_run

    with retry_on_database_error(self):
        library_templates_import_run(import_id=import_id)


@shared_task(
    name="paradigms.recount_templates",  # stable: queued messages name it
    bind=True,
    base=QueueGuardedTask,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    time_limit=30 * 60,
)
def recount_templates(self: QueueGuardedTask, project_id: int) -> None:
    """Count the marked templates of a project again after a vocabulary change
    (paradigms.services.recount); a second run finds nothing left to count."""
    from mpp_studio.paradigms.services.recount import templates_recount_run

    with retry_on_database_error(self):
        templates_recount_run(project_id=project_id)
