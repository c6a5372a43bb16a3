"""Reads for jobs; every lookup is scoped to a project."""

from django.http import Http404

from mpp_studio.accounts.models import Project
from mpp_studio.jobs.models import Job


def job_get(*, project: Project, job_id: int) -> Job:
    """Return the project's job with this id.

    Raises:
        Http404: if the project has no such job (another project's job is not revealed).
    """
    job = Job.objects.filter(project=project, pk=job_id).first()
    if job is None:
        raise Http404("No such job in this project.")
    return job


def job_is_open(*, job_id: int) -> bool:
    """Return whether the job exists and is neither done, failed nor cancelled."""
    return Job.objects.filter(pk=job_id).exclude(status__in=Job.FINISHED).exists()
