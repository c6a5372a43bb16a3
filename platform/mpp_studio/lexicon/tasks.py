"""Celery tasks of the lexicon app: thin wrappers that call a service by id.

The work is in services (`import_jobs`, `updates`), each run safe to run twice (tasks are
acknowledged late and redelivered after a worker dies).
"""

from celery import shared_task

from mpp_studio.jobs.queueing import GivingUpTask
from mpp_studio.jobs.retrying import retry_on_database_error


class ImportVocabularyTask(GivingUpTask):
    """Fails the import's job, in words, when the task gives up (retries spent, worker error), and
    removes the vocabulary it began; the kept files stay with the import."""

    give_up_arguments = ("import_id",)

    def give_up_label(self, ids: dict[str, int]) -> str:
        return f"vocabulary import {ids['import_id']}"

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        from mpp_studio.lexicon.services.import_jobs import vocabulary_import_give_up

        vocabulary_import_give_up(import_id=ids["import_id"], reason=reason)


@shared_task(
    name="lexicon.import_vocabulary",  # stable: queued messages name it; never rename without an alias
    bind=True,
    base=ImportVocabularyTask,
    acks_late=True,
    # A worker killed mid-import puts the message back: the next run writes only the missing items.
    reject_on_worker_lost=True,
    ignore_result=True,
    time_limit=60 * 60,  # 200,000 items are a few minutes of work; an hour means it is stuck
)
def import_vocabulary(self: ImportVocabularyTask, import_id: int) -> None:
    """Read a vocabulary import's kept file and store it (lexicon.services.import_jobs)."""
    from mpp_studio.lexicon.services.import_jobs import vocabulary_import_run

    with retry_on_database_error(self):
        vocabulary_import_run(import_id=import_id)


class VocabularyUpdateTask(GivingUpTask):
    """Fails the update's running job, in words, when the task gives up (retries spent, worker
    error); the vocabulary keeps what was written and the update can be applied again."""

    give_up_arguments = ("update_id",)

    def give_up_label(self, ids: dict[str, int]) -> str:
        return f"vocabulary update {ids['update_id']}"

    def give_up(self, ids: dict[str, int], reason: str) -> None:
        from mpp_studio.lexicon.services.updates import vocabulary_update_give_up

        vocabulary_update_give_up(update_id=ids["update_id"], reason=reason)


@shared_task(
    name="lexicon.read_vocabulary_update",  # stable: queued messages name it
    bind=True,
    base=VocabularyUpdateTask,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    time_limit=30 * 60,
)
def read_vocabulary_update(self: VocabularyUpdateTask, update_id: int) -> None:
    """Read an edited vocabulary file and say what it would change (lexicon.services.updates)."""
    from mpp_studio.lexicon.services.updates import vocabulary_update_read_run

    with retry_on_database_error(self):
        vocabulary_update_read_run(update_id=update_id)


@shared_task(
    name="lexicon.apply_vocabulary_update",  # stable: queued messages name it
    bind=True,
    base=VocabularyUpdateTask,
    acks_late=True,
    # A worker killed mid-apply puts the message back: the next run writes only what is left.
    reject_on_worker_lost=True,
    ignore_result=True,
    time_limit=60 * 60,
)
def apply_vocabulary_update(self: VocabularyUpdateTask, update_id: int) -> None:
    """Apply an edited vocabulary file as the vocabulary's next version (lexicon.services.updates)."""
    from mpp_studio.lexicon.services.updates import vocabulary_update_apply_run

    with retry_on_database_error(self):
        vocabulary_update_apply_run(update_id=update_id)
