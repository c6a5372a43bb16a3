"""The pages that import a ZhoBLiMP project (templates, vocabulary, phrases) as a job, and follow it."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from mpp_studio.accounts.page_context import project_context
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.paradigms.forms.zhoblimp import ZhoblimpImportForm
from mpp_studio.paradigms.selectors_imports import zhoblimp_import_view
from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_start


@login_required
@require_http_methods(["GET", "POST"])
def zhoblimp_import(request: HttpRequest, project_id: int) -> HttpResponse:
    """GET: the upload form; POST: keep the files and start their import as a job, then the
    import's page, which follows the job and shows what was stored and the report."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    form = (
        ZhoblimpImportForm(request.POST, request.FILES) if request.method == "POST" else ZhoblimpImportForm()
    )
    if request.method == "POST" and form.is_valid():
        try:
            started = zhoblimp_import_start(
                project=project,
                files=form.cleaned_data["files"],
                vocabulary_name=form.cleaned_data["vocabulary_name"],
                created_by=request.user,
            )
        except ValidationError as exc:
            for field, field_messages in exc.message_dict.items():
                for message in field_messages:
                    form.add_error(field if field in form.fields else None, message)
        else:
            messages.success(
                request,
                "The ZhoBLiMP project is being imported: the files are converted and checked on the server. "
                "This page shows the progress, then what was stored and the report, item by item.",
            )
            return redirect("project_paradigms:zhoblimp_import_detail", project.pk, started.pk)
    context = project_context(request, project, active_tab="templates", form=form)
    status = 400 if request.method == "POST" else 200
    return render(request, "paradigms/zhoblimp_import.html", context, status=status)


@login_required
@require_GET
def zhoblimp_import_detail(request: HttpRequest, project_id: int, import_id: int) -> HttpResponse:
    """A ZhoBLiMP import's page: the job's progress while it runs, then what was stored and the
    report, or why nothing was. For htmx, only that part (it reloads when the job ends)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    view = zhoblimp_import_view(project=project, import_id=import_id)
    job = view.row.job
    poll_url = reverse("project_paradigms:job_status", args=[project.pk, job.pk]) if job is not None else ""
    context = project_context(
        request, project, active_tab="templates", imported=view, job=job, poll_url=poll_url
    )
    if getattr(request, "htmx", False):
        return render(request, "paradigms/_zhoblimp_import_status.html", context)
    return render(request, "paradigms/zhoblimp_import_detail.html", context)
