"""Sends again the messages of a learner job (a corpus read, a triplet run's chunks) whose
messages the broker lost."""

from mpp_studio.jobs.queueing import send_or_keep
from mpp_studio.learner.models import LearnerCorpus, TripletChunk


def resend_triplets(job_id: int) -> int:
    """Send a message for each pending chunk of the job's run; return how many."""
    from mpp_studio.learner.tasks import make_triplets_chunk

    pending = list(
        TripletChunk.objects.filter(run__job_id=job_id, status=TripletChunk.Status.PENDING)
        .order_by("index")
        .values_list("pk", flat=True)
    )
    for chunk_id in pending:
        send_or_keep(make_triplets_chunk, (chunk_id,), {}, {})
    return len(pending)


def resend_corpus_read(job_id: int) -> int:
    """Send a message for the corpus the read job reads; return how many (0 or 1)."""
    from mpp_studio.learner.tasks import read_corpus

    corpus_id = LearnerCorpus.objects.filter(job_id=job_id).values_list("pk", flat=True).first()
    if corpus_id is None:
        return 0
    send_or_keep(read_corpus, (corpus_id,), {}, {})
    return 1
