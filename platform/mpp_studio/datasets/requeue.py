"""Sends again the generation messages of a dataset job whose messages the broker lost."""

from mpp_studio.datasets.models import DatasetParadigm
from mpp_studio.jobs.queueing import send_or_keep


def resend_generation(job_id: int) -> int:
    """Send a generation message for each pending paradigm of the job's dataset; return how many."""
    from mpp_studio.datasets.tasks import generate_paradigm

    pending = list(
        DatasetParadigm.objects.filter(dataset__job_id=job_id, status=DatasetParadigm.Status.PENDING)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for paradigm_id in pending:
        send_or_keep(generate_paradigm, (paradigm_id,), {}, {})
    return len(pending)
