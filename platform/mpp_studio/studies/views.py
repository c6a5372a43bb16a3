"""The researcher's study pages, mounted at /projects/<project_id>/studies/ (namespace
`studies`): the list, the settings form (new and edit), a study's page (design preview,
balance report, links, open/close, live status panel) and the status partial it refreshes.

Viewers read; editors create, edit, open and close; non-members get 404.
"""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.page_context import project_context
from mpp_studio.accounts.roles import Role, role_allows
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.accounts.users import signed_in_user
from mpp_studio.studies.forms import StudyForm
from mpp_studio.studies.models import Study
from mpp_studio.studies.reconciliation import ReconciledId, prolific_reconciliation
from mpp_studio.studies.selectors import list_status, study_get, study_list
from mpp_studio.studies.services import (
    DESIGN_FIELDS,
    TEXT_FIELDS,
    completion_url,
    list_quota,
    study_close,
    study_create,
    study_design,
    study_open,
    study_update,
)
from study.design import StudyDesign
from study.order import build_schedule, trial_counts

TAB = "studies"
PREVIEW_TRIALS = 12
PREVIEW_PARTICIPANT = "preview"
MAX_PASTE = 1_000_000  # characters of pasted Prolific IDs read (5,000 IDs fit many times over)
PROLIFIC_QUERY = "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"


def page_context(request: HttpRequest, project: Project, **extra: object) -> dict[str, object]:
    """Return the context every study page shares: the project's, the tab, and `can_edit`."""
    context = project_context(request, project, active_tab=TAB, **extra)
    role = context["role"]
    context["can_edit"] = isinstance(role, str) and role_allows(role, Role.EDITOR)
    return context


def _add_errors(form: StudyForm, error: ValidationError) -> None:
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            for message in errors:
                form.add_error(field if field in form.fields else None, message)
    else:
        for message in error.messages:
            form.add_error(None, message)


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k in DESIGN_FIELDS or k in TEXT_FIELDS}


@login_required
@require_GET
def study_list_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """The project's studies, newest first, with their status and participant counts."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    context = page_context(request, project, studies=list(study_list(project=project)))
    return render(request, "studies/study_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def study_new_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """GET: the settings form; POST: build the design and store the draft, then its page (or
    every reason the design could not be built, on the form)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    form = StudyForm(request.POST or None, project=project)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            study = study_create(
                project=project,
                datasets=list(data["datasets"]),
                created_by=signed_in_user(request),
                **_fields(data),
            )
        except ValidationError as error:
            _add_errors(form, error)
        else:
            messages.success(
                request, f"Study “{study.name}” created as a draft. Check the design, then open it."
            )
            return redirect("studies:study_detail", project_id=project.pk, study_id=study.pk)
    status = 400 if request.method == "POST" else 200
    context = page_context(request, project, form=form, study=None)
    return render(request, "studies/study_form.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def study_edit_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """GET: the study's settings; POST: save them (a draft's design is rebuilt; an opened
    study's design, datasets and consent version stay as they are)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    study = study_get(project=project, study_id=study_id)
    frozen = not study.is_draft
    form = StudyForm(request.POST or None, instance=study, project=project, frozen=frozen)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fresh = study_get(project=project, study_id=study.pk)  # the form changed `study` in place
        try:
            if frozen:
                study_update(study=fresh, **{k: v for k, v in _fields(data).items() if k in TEXT_FIELDS})
            else:
                study_update(study=fresh, datasets=list(data["datasets"]), **_fields(data))
        except ValidationError as error:
            _add_errors(form, error)
        else:
            messages.success(request, "Settings saved." + ("" if frozen else " The design was rebuilt."))
            return redirect("studies:study_detail", project_id=project.pk, study_id=study.pk)
    status = 400 if request.method == "POST" else 200
    context = page_context(request, project, form=form, study=study)
    return render(request, "studies/study_form.html", context, status=status)


def _list_previews(design: StudyDesign) -> list[dict[str, object]]:
    """Return, per list, its size and the first trials of a preview participant's order."""
    counts = trial_counts(design)
    previews = []
    for one in design.lists:
        schedule = build_schedule(design, one.index, PREVIEW_PARTICIPANT)
        previews.append(
            {
                "number": one.index + 1,
                "items": len(one.item_ids),
                "catch": len(one.catch),
                "trials": counts[one.index],
                "sample": schedule.trials[:PREVIEW_TRIALS],
            }
        )
    return previews


def _public_urls(request: HttpRequest, study: Study) -> dict[str, str]:
    link = request.build_absolute_uri(reverse("studies_public:start", args=[study.slug]))
    return {"public_url": link, "prolific_url": f"{link}?{PROLIFIC_QUERY}"}


def _status_context(study: Study) -> dict[str, object]:
    design = study_design(study) if study.has_design else None
    needed = list_quota(study, design) if design else 0
    lists = list_status(study=study, needed_per_list=needed)
    keys = ("active", "completed", "abandoned", "withdrawn")
    totals = {key: sum(getattr(row, key) for row in lists) for key in keys}
    return {"lists": lists, "totals": totals, "needed_total": needed * len(lists)}


@login_required
@require_GET
def study_detail_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """A study: its settings, the design (list sizes, balance report, participants needed, a
    sample of each list's trials with catch trials marked), its links and live status."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    study = study_get(project=project, study_id=study_id)
    design_error = ""
    design = None
    try:
        design = study_design(study)
    except ValidationError as error:
        design_error = " ".join(error.messages)
    context = page_context(
        request,
        project,
        study=study,
        datasets=list(study.datasets.order_by("name")),
        design=design,
        design_error=design_error,
        balance=design.balance().to_dict() if design else None,
        shortfalls=design.shortfalls() if design else {},
        previews=_list_previews(design) if design else [],
        completion_target=completion_url(study),
        quota=list_quota(study, design) if design else None,
        **_public_urls(request, study),
        **_status_context(study),
    )
    return render(request, "studies/study_detail.html", context)


@login_required
@require_GET
def study_status_partial(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """The live status panel (participants per list by status); the study page refreshes it."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    study = study_get(project=project, study_id=study_id)
    context = page_context(request, project, study=study, **_status_context(study))
    return render(request, "studies/_status.html", context)


@login_required
@require_POST
def study_open_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """Open the study to participants (editors)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    study = study_get(project=project, study_id=study_id)
    try:
        study_open(study=study)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request, "The study is open: participants can use its link. Its design is now frozen."
        )
    return redirect("studies:study_detail", project_id=project.pk, study_id=study.pk)


@login_required
@require_POST
def study_close_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """Close the study to new participants (editors); those working may finish."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    study = study_get(project=project, study_id=study_id)
    try:
        study_close(study=study)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "The study is closed: nobody new can start it.")
    return redirect("studies:study_detail", project_id=project.pk, study_id=study.pk)


@login_required
@require_http_methods(["GET", "POST"])
def study_prolific_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """Paying on Prolific: paste the submissions' Prolific IDs, see each one's status and the
    analysis' verdict, and the IDs to approve (the IDs are hashed to match, never stored)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    study = study_get(project=project, study_id=study_id)
    text = str(request.POST.get("prolific_ids", ""))[:MAX_PASTE] if request.method == "POST" else ""
    with_submissions = request.POST.get("with_submissions") == "yes"
    rows: list[ReconciledId] = []
    error = ""
    if request.method == "POST":
        try:
            rows = prolific_reconciliation(study, text, with_submissions=with_submissions)
        except ValidationError as problem:
            error = " ".join(problem.messages)
    context = page_context(
        request,
        project,
        study=study,
        text=text,
        with_submissions=with_submissions,
        rows=rows,
        error=error,
        to_approve=[r.prolific_id for r in rows if r.to_approve],
        to_approve_text="\n".join(r.prolific_id for r in rows if r.to_approve),
        counts={
            s: sum(1 for r in rows if r.status == s)
            for s in ("completed", "active", "abandoned", "withdrawn", "not_found", "other_submission")
        },
    )
    return render(request, "studies/prolific.html", context, status=400 if error else 200)
