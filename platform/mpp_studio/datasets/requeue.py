"""Sends again the messages of a dataset job (generation or import) whose messages the broker lost."""

from mpp_studio.datasets.models import Dataset, DatasetParadigm
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


def resend_import(job_id: int) -> int:
    """Send the import message of the job's dataset again; return how many were sent (0 or 1)."""
    from mpp_studio.datasets.tasks import import_files

    dataset_id = Dataset.objects.filter(job_id=job_id).values_list("pk", flat=True).first()
    if dataset_id is None:
        return 0
    send_or_keep(import_files, (dataset_id,), {}, {})
    return 1
