"""The job status partial: a progress bar that htmx polls until the job has finished."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_htmx.http import HTMX_STOP_POLLING, trigger_client_event

from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.jobs.selectors import job_get

POLL_EVERY = "2s"


@login_required
@require_GET
def job_status(request: HttpRequest, project_id: int, job_id: int) -> HttpResponse:
    """Render the job's status; for htmx, 286 (stop polling) once it has finished.

    Every answer sends a `job-progress` event (or `job-finished` at the end) so that other parts
    of the page, such as a table of counts, can refresh themselves from it.
    """
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    job = job_get(project=project, job_id=job_id)
    response = render(
        request,
        "jobs/_status.html",
        {"job": job, "poll_url": request.get_full_path(), "poll_every": POLL_EVERY},
    )
    is_htmx = bool(getattr(request, "htmx", False))
    if is_htmx:
        event = "job-finished" if job.finished else "job-progress"
        trigger_client_event(response, event, {"id": job.pk, "status": job.status})
        if job.finished:
            response.status_code = HTMX_STOP_POLLING
    return response
