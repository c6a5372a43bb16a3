"""Sends again the message of a vocabulary import job whose message the broker lost."""

from mpp_studio.jobs.queueing import send_or_keep
from mpp_studio.lexicon.models import VocabularyImport


def resend_vocabulary_import(job_id: int) -> int:
    """Send the import message of the job's vocabulary import again; return how many were sent."""
    from mpp_studio.lexicon.tasks import import_vocabulary

    import_ids = list(VocabularyImport.objects.filter(job_id=job_id).values_list("pk", flat=True))
    for import_id in import_ids:
        send_or_keep(import_vocabulary, (import_id,), {}, {})
    return len(import_ids)
