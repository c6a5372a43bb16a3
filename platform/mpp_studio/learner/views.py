"""Learner-triplet pages: the corpora (list, upload, detail with its runs), a run's page (job
progress, yield report, link to its dataset), the triplet browser and the downloads.

Viewers read; editors upload corpora and start runs; non-members get 404.
"""

from collections.abc import Iterable
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.forms import Form
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.page_context import project_context
from mpp_studio.accounts.roles import Role, role_allows
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.learner.display import triplet_view
from mpp_studio.learner.exports import EXPORT_FORMATS, export_response, report_response
from mpp_studio.learner.forms import CorpusUploadForm, TripletRunForm
from mpp_studio.learner.models import LearnerCorpus, TripletRun
from mpp_studio.learner.selectors import (
    corpus_get,
    corpus_list,
    corpus_value_counts,
    dropped_cell,
    run_chunk_counts,
    run_error_types,
    run_get,
    run_list,
    run_report,
    triplet_filter,
    triplet_list,
    triplet_pages,
)
from mpp_studio.learner.services import ReadOptions, Upload, corpus_upload_start, run_create
from triplets.report import EXAMPLES_PER_CELL, reason_label

TAB = "learner"
TRIPLETS_PER_PAGE = 25


def page_context(request: HttpRequest, project: Project, **extra: object) -> dict[str, object]:
    """Return the context every learner page shares: the project's, the tab, and `can_edit`."""
    context = project_context(request, project, active_tab=TAB, **extra)
    role = context["role"]
    context["can_edit"] = isinstance(role, str) and role_allows(role, Role.EDITOR)
    return context


def _add_errors(form: Form, error: ValidationError) -> None:
    for field, errors in error.message_dict.items():
        for message in errors:
            form.add_error(field if field in form.fields else None, message)


def _report_rows(issues: list[dict[str, object]]) -> list[dict[str, object]]:
    """Return the issues for the report table, each with `skipped` (an error left the item out)."""
    return [{**issue, "skipped": issue.get("severity") == "error"} for issue in issues]


@login_required
@require_GET
def corpus_list_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """The project's learner corpora, newest first."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    context = page_context(request, project, corpora=list(corpus_list(project=project)))
    return render(request, "learner/corpus_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def corpus_upload_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """GET: the upload form; POST: keep the files and start reading them as a job, then the new
    corpus's page, which follows the job and shows the read report at the end."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    form = CorpusUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        meta = data.get("metadata_file")
        try:
            corpus = corpus_upload_start(
                project=project,
                name=data["name"],
                source_format=data["source_format"],
                file=Upload(data["file"].name, data["file"], data["file"].size),
                metadata_file=Upload(meta.name, meta, meta.size) if meta else None,
                options=ReadOptions(
                    annotator=data["annotator"],
                    learner_column=data["learner_column"],
                    corrected_column=data["corrected_column"],
                    id_column=data["id_column"],
                    essay_column=data["essay_column"],
                    join_key=data["join_key"],
                    metadata_key=data["metadata_key"],
                ),
                created_by=request.user,
            )
        except ValidationError as exc:
            _add_errors(form, exc)
        else:
            messages.success(
                request,
                f"“{corpus.name}” is being read: the files are read in the background. This page "
                "shows the progress, then the pairs stored and every line that could not be read.",
            )
            return redirect("learner:corpus_detail", project_id=project.pk, corpus_id=corpus.pk)
    context = page_context(request, project, form=form)
    status = 400 if request.method == "POST" else 200
    return render(request, "learner/upload.html", context, status=status)


def _corpus_page(
    request: HttpRequest, project: Project, corpus: LearnerCorpus, form: TripletRunForm, status: int = 200
) -> HttpResponse:
    report = list(corpus.read_report or [])
    job = corpus.job
    context = page_context(
        request,
        project,
        corpus=corpus,
        job=job,
        poll_url=reverse("learner:job_status", args=(project.pk, job.pk)) if job is not None else "",
        l1_counts=corpus_value_counts(corpus=corpus, field="l1") if corpus.is_read else [],
        cefr_counts=corpus_value_counts(corpus=corpus, field="cefr") if corpus.is_read else [],
        report=_report_rows(report),
        errors=sum(1 for i in report if i.get("severity") == "error"),
        runs=list(run_list(corpus=corpus)),
        form=form,
    )
    return render(request, "learner/corpus_detail.html", context, status=status)


@login_required
@require_GET
def corpus_detail_view(request: HttpRequest, project_id: int, corpus_id: int) -> HttpResponse:
    """A corpus: its read job while the files are read; then pairs by L1 and CEFR level, every
    read issue, its runs and the run form."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    corpus = corpus_get(project=project, corpus_id=corpus_id)
    return _corpus_page(request, project, corpus, TripletRunForm())


@login_required
@require_POST
def run_new_view(request: HttpRequest, project_id: int, corpus_id: int) -> HttpResponse:
    """Start a triplet run over the corpus (editors); its page follows the job."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    corpus = corpus_get(project=project, corpus_id=corpus_id)
    form = TripletRunForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            run = run_create(
                corpus=corpus,
                seed=data["seed"],
                strict=data["strict"],
                max_tries=data["max_tries"],
                chunk_size=data["chunk_size"],
                created_by=request.user,
            )
        except ValidationError as exc:
            if "corpus" in exc.message_dict:  # its files are still being read, or could not be
                messages.error(request, " ".join(exc.message_dict["corpus"]))
                return redirect("learner:corpus_detail", project_id=project.pk, corpus_id=corpus.pk)
            _add_errors(form, exc)
        else:
            chunks = run.chunks.count()
            messages.success(
                request,
                f"Triplet run started: {corpus.pair_count:,} pairs in "
                f"{chunks:,} task{'s' if chunks != 1 else ''}.",
            )
            return redirect("learner:run_detail", project_id=project.pk, run_id=run.pk)
    return _corpus_page(request, project, corpus, form, status=400)


def _labelled(counts: Iterable[tuple[str, int]]) -> list[tuple[str, str, int]]:
    """Return (plain-words reason, reason code, count) for each reason of a yield report."""
    return [(reason_label(code), code, n) for code, n in counts]


def _run_context(request: HttpRequest, project: Project, run: TripletRun) -> dict[str, object]:
    report = run_report(run)
    job = run.job
    return page_context(
        request,
        project,
        run=run,
        corpus=run.corpus,
        job=job,
        report=report,
        rows=[
            {**row, **{k: _labelled(row[k].items()) for k in ("dropped", "refused")}} for row in report.rows()
        ],
        pairs_dropped=_labelled(report.pairs_dropped.most_common()),
        filtered_edits=report.filtered_edits.most_common(),
        rules=report.rules.most_common(),
        chunks=run_chunk_counts(run=run),
        finished=job is None or job.finished,
        poll_url=reverse("learner:job_status", args=(project.pk, job.pk)) if job is not None else "",
        export_formats=EXPORT_FORMATS,
    )


@login_required
@require_GET
def run_detail_view(request: HttpRequest, project_id: int, run_id: int) -> HttpResponse:
    """A run: its settings, its job's live progress, the yield report, its dataset."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    run = run_get(project=project, run_id=run_id)
    return render(request, "learner/run_detail.html", _run_context(request, project, run))


@login_required
@require_GET
def run_status_partial(request: HttpRequest, project_id: int, run_id: int) -> HttpResponse:
    """The run's progress and report: the page reloads it whenever the job moves."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    run = run_get(project=project, run_id=run_id)
    return render(request, "learner/_run_status.html", _run_context(request, project, run))


@login_required
@require_GET
def triplet_list_view(request: HttpRequest, project_id: int, run_id: int) -> HttpResponse:
    """The triplet browser: filtered by ERRANT type, L1 and CEFR level (query parameters
    `type`, `l1`, `cefr`), a page at a time."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    run = run_get(project=project, run_id=run_id)
    chosen = triplet_filter(request.GET)
    triplets = triplet_pages(run=run, chosen=chosen)
    paginator = Paginator(triplets, TRIPLETS_PER_PAGE)  # type: ignore[arg-type]  # Paginator only counts and slices it
    page = paginator.get_page(request.GET.get("page"))
    context = page_context(
        request,
        project,
        run=run,
        corpus=run.corpus,
        chosen=chosen,
        query=urlencode(chosen.query()),
        page=page,
        triplets=[triplet_view(pair) for pair in page.object_list],
        types=run_error_types(run=run),
        l1s=[v for v, _ in corpus_value_counts(corpus=run.corpus, field="l1") if v],
        cefrs=[v for v, _ in corpus_value_counts(corpus=run.corpus, field="cefr") if v],
        export_formats=EXPORT_FORMATS,
    )
    return render(request, "learner/triplets.html", context)


@login_required
@require_GET
def run_export_view(request: HttpRequest, project_id: int, run_id: int) -> HttpResponseBase:
    """Download the run's triplets (`format` jsonl or csv; the browser's filters apply)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    run = run_get(project=project, run_id=run_id)
    fmt = request.GET.get("format", "jsonl")
    if fmt not in EXPORT_FORMATS:
        messages.error(request, f"Unknown export format “{fmt}”: choose JSONL or CSV.")
        return redirect("learner:run_detail", project_id=project.pk, run_id=run.pk)
    return export_response(run, triplet_list(run=run, chosen=triplet_filter(request.GET)), fmt)


@login_required
@require_GET
def run_report_view(request: HttpRequest, project_id: int, run_id: int) -> HttpResponse:
    """Download the run's yield report as JSON."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    return report_response(run_get(project=project, run_id=run_id))


@login_required
@require_GET
def dropped_pairs_view(request: HttpRequest, project_id: int, run_id: int) -> HttpResponse:
    """A cell of the yield report read pair by pair (`?type=` and `?reason=`; an empty type is
    the source pairs dropped before they had one): its count and the pairs the report kept."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    run = run_get(project=project, run_id=run_id)
    error_type = str(request.GET.get("type", ""))[:100]
    reason = str(request.GET.get("reason", ""))[:100]
    cell = dropped_cell(run=run, error_type=error_type, reason=reason)
    context = page_context(
        request,
        project,
        run=run,
        corpus=run.corpus,
        cell=cell,
        reason_text=reason_label(reason),
        examples_cap=EXAMPLES_PER_CELL,
    )
    return render(request, "learner/dropped.html", context)
