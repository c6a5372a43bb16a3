"""Pages of the library's import: paradigms into a project, and a library template as a YAML file."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.paradigms.forms.library import LibraryImportForm
from mpp_studio.paradigms.models import LibraryTemplate
from mpp_studio.paradigms.selectors import library_templates_get
from mpp_studio.paradigms.selectors_imports import library_import_view
from mpp_studio.paradigms.services.library_into_project import library_templates_import_start
from mpp_studio.paradigms.yaml_download import yaml_attachment


@login_required
@require_POST
def library_import(request: HttpRequest) -> HttpResponse:
    """Start the import of the chosen library paradigms into a project the user edits (a job);
    then the import's page, which shows what happens to each.

    A project the user is not a member of is 404 and one they only view is 403, as on every
    project page. A form without paradigms or project goes back to where it came from with a message.
    """
    ids = [int(value) for value in request.POST.getlist("templates") if value.strip().isdigit()]
    by_id = {t.pk: t for t in library_templates_get(ids=ids)}
    form = LibraryImportForm(request.POST, template_ids=list(by_id))
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)  # type: ignore[arg-type]  # an ErrorList yields str
        return redirect(_back(request, ids))
    project = project_get_for_user(
        user=request.user, project_id=form.cleaned_data["project"], needed=Role.EDITOR
    )
    chosen = [by_id[pk] for pk in dict.fromkeys(form.cleaned_data["templates"])]
    started = library_templates_import_start(project=project, templates=chosen, user=request.user)
    count = len(chosen)
    messages.success(
        request,
        f"{count} paradigm{'s are' if count != 1 else ' is'} being imported into {project.name}: this page "
        "shows what happens to each one as it goes.",
    )
    return redirect("project_paradigms:library_import_detail", project.pk, started.pk)


@login_required
@require_GET
def library_import_detail(request: HttpRequest, project_id: int, import_id: int) -> HttpResponse:
    """A library import's page: the job's progress and what happened to each paradigm so far (it
    grows as the job goes). For htmx, only that part."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    report = library_import_view(project=project, import_id=import_id)
    job = report.row.job if report.row is not None else None
    poll_url = reverse("project_paradigms:job_status", args=[project.pk, job.pk]) if job is not None else ""
    context = {"project": project, "report": report, "job": job, "poll_url": poll_url}
    if getattr(request, "htmx", False):
        return render(request, "paradigms/library/_import_status.html", context)
    return render(request, "paradigms/library/import_report.html", context)


def _back(request: HttpRequest, ids: list[int]) -> str:
    """Return the page the import form was on: the paradigm's page for one paradigm, else the library."""
    if request.POST.get("from") == "detail" and len(ids) == 1:
        return reverse("paradigms:detail", args=[ids[0]])
    return reverse("library")


@login_required
@require_GET
def library_template_download(request: HttpRequest, template_id: int) -> HttpResponse:
    """The YAML of a library template version, as `<uid>.yaml`."""
    template = LibraryTemplate.objects.filter(pk=template_id).first()
    if template is None:
        raise Http404("No paradigm has this id.")
    return yaml_attachment(template.source_text, template.uid)
