"""Sends again the chunk messages of a triplet job whose messages the broker lost."""

from mpp_studio.jobs.queueing import send_or_keep
from mpp_studio.learner.models import TripletChunk


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
