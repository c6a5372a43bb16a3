"""Sends again the chunk messages of a scoring job whose messages the broker lost."""

from mpp_studio.evaluation.models import ScoringChunk
from mpp_studio.jobs.queueing import send_or_keep


def resend_scoring(job_id: int) -> int:
    """Send a message for each pending chunk of the job's run; return how many."""
    from mpp_studio.evaluation.tasks import score_chunk

    pending = list(
        ScoringChunk.objects.filter(run__job_id=job_id, status=ScoringChunk.Status.PENDING)
        .order_by("pk")
        .values_list("run_id", "config_id", "dataset_id", "index")
    )
    for args in pending:
        send_or_keep(score_chunk, tuple(args), {}, {})
    return len(pending)
