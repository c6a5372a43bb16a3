"""Sends again the messages of the paradigms app's import jobs whose messages the broker lost."""

from mpp_studio.jobs.queueing import send_or_keep
from mpp_studio.paradigms.models import LibraryImport, ZhoblimpImport


def resend_zhoblimp_import(job_id: int) -> int:
    """Send the message of the job's ZhoBLiMP import again; return how many were sent."""
    from mpp_studio.paradigms.tasks import import_zhoblimp

    import_ids = list(ZhoblimpImport.objects.filter(job_id=job_id).values_list("pk", flat=True))
    for import_id in import_ids:
        send_or_keep(import_zhoblimp, (import_id,), {}, {})
    return len(import_ids)


def resend_library_import(job_id: int) -> int:
    """Send the message of the job's library import again; return how many were sent."""
    from mpp_studio.paradigms.tasks import import_library

    import_ids = list(LibraryImport.objects.filter(job_id=job_id).values_list("pk", flat=True))
    for import_id in import_ids:
        send_or_keep(import_library, (import_id,), {}, {})
    return len(import_ids)
