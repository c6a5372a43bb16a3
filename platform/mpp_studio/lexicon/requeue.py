"""Sends again the messages of the lexicon app's jobs whose messages the broker lost."""

from mpp_studio.jobs.queueing import send_or_keep
from mpp_studio.lexicon.models import VocabularyImport, VocabularyUpdate


def resend_vocabulary_import(job_id: int) -> int:
    """Send the import message of the job's vocabulary import again; return how many were sent."""
    from mpp_studio.lexicon.tasks import import_vocabulary

    import_ids = list(VocabularyImport.objects.filter(job_id=job_id).values_list("pk", flat=True))
    for import_id in import_ids:
        send_or_keep(import_vocabulary, (import_id,), {}, {})
    return len(import_ids)


def resend_vocabulary_update_read(job_id: int) -> int:
    """Send the read message of the job's vocabulary update again; return how many were sent."""
    from mpp_studio.lexicon.tasks import read_vocabulary_update

    update_ids = list(VocabularyUpdate.objects.filter(read_job_id=job_id).values_list("pk", flat=True))
    for update_id in update_ids:
        send_or_keep(read_vocabulary_update, (update_id,), {}, {})
    return len(update_ids)


def resend_vocabulary_update_apply(job_id: int) -> int:
    """Send the apply message of the job's vocabulary update again; return how many were sent."""
    from mpp_studio.lexicon.tasks import apply_vocabulary_update

    update_ids = list(VocabularyUpdate.objects.filter(apply_job_id=job_id).values_list("pk", flat=True))
    for update_id in update_ids:
        send_or_keep(apply_vocabulary_update, (update_id,), {}, {})
    return len(update_ids)
