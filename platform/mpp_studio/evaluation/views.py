"""Scoring pages: the runs overview (the project's Scoring tab), the language models with their
forms (one model, a checkpoint series), a new run, and a run's page with its live status and
cancel button, and the confirmations that delete a model or a run. The results pages are in
views_results.py.

Viewers read; editors register and delete models and create, cancel and delete runs;
non-members get 404.
"""

from collections.abc import Sequence

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.core.wording import count_of
from mpp_studio.datasets.models import Dataset
from mpp_studio.datasets.selectors import dataset_list
from mpp_studio.evaluation.forms import LanguageModelForm, RunForm, SeriesForm, TokenFrequenciesForm
from mpp_studio.evaluation.models import LanguageModel, ScoringRun
from mpp_studio.evaluation.selectors import (
    language_model_get,
    language_model_list,
    run_chunk_counts,
    run_get,
    run_list,
    scored_datasets,
    series_list,
    token_frequency_table_get,
    token_frequency_tables,
)
from mpp_studio.evaluation.services import (
    language_model_create,
    language_model_delete,
    language_model_deletion,
    language_model_series_register,
    run_cancel,
    run_create,
    run_delete,
    run_scores_count,
)
from mpp_studio.evaluation.services.token_frequencies import (
    token_frequencies_create,
    token_frequencies_delete,
)
from mpp_studio.evaluation.views_support import metric_headers, page_context, run_triplets


def _add_errors(form: Form, error: ValidationError) -> None:
    """Put a service's messages on the fields they name (the others above the form)."""
    for field, errors in error.message_dict.items():
        for message in errors:
            form.add_error(field if field in form.fields else None, message)


@login_required
@require_GET
def run_list_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """The Scoring tab: the project's runs, newest first, and the datasets with results."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    context = page_context(
        request,
        project,
        runs=list(run_list(project=project)),
        datasets=list(scored_datasets(project=project)),
        model_count=LanguageModel.objects.filter(project=project).count(),
    )
    return render(request, "evaluation/runs.html", context)


def _models_page(
    request: HttpRequest,
    project: Project,
    model_form: LanguageModelForm,
    series_form: SeriesForm,
    status: int = 200,
    frequencies_form: TokenFrequenciesForm | None = None,
) -> HttpResponse:
    models = list(language_model_list(project=project).prefetch_related("score_configs"))
    context = page_context(
        request,
        project,
        models=models,
        model_form=model_form,
        series_form=series_form,
        frequencies_form=frequencies_form or TokenFrequenciesForm(prefix="frequencies", models=models),
        frequency_tables=list(token_frequency_tables(project=project)),
        series=series_list(project=project),
    )
    return render(request, "evaluation/models.html", context, status=status)


@login_required
@require_POST
def frequencies_create_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """Queue the job that makes a tokenizer's token frequencies from an uploaded file (editors)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    models = list(language_model_list(project=project))
    form = TokenFrequenciesForm(request.POST, request.FILES, prefix="frequencies", models=models)
    if form.is_valid():
        data = form.cleaned_data
        model = next(m for m in models if m.pk == data["language_model"])
        try:
            table = token_frequencies_create(
                project=project,
                language_model=model,
                upload=data["file"],
                origin=data["origin"],
                created_by=request.user,
            )
        except ValidationError as exc:
            _add_errors(form, exc)
        else:
            messages.success(
                request,
                f"Reading “{table.file_name}” with the tokenizer of {model.name}: the frequencies are "
                "stored when the job below ends, and SLOR and MORCELA then count its pairs on every "
                "results page.",
            )
            return redirect(reverse("evaluation:model_list", args=[project.pk]) + "#frequencies")
    return _models_page(
        request, project, LanguageModelForm(prefix="model"), SeriesForm(prefix="series"), 400, form
    )


@login_required
@require_POST
def frequencies_delete_view(request: HttpRequest, project_id: int, table_id: int) -> HttpResponse:
    """Delete a tokenizer's token frequencies and the unigram log-probabilities filled from
    them (editors)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    table = token_frequency_table_get(project=project, table_id=table_id)
    name = table.file_name
    emptied = token_frequencies_delete(table=table)
    messages.success(
        request,
        f"The token frequencies from “{name}” were deleted; {emptied:,} pair scores have no unigram "
        "log-probabilities now (SLOR and MORCELA leave them out).",
    )
    return redirect(reverse("evaluation:model_list", args=[project.pk]) + "#frequencies")


@login_required
@require_http_methods(["GET", "POST"])
def model_list_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """The project's language models; POST registers one (editors)."""
    needed = Role.EDITOR if request.method == "POST" else Role.VIEWER
    project = project_get_for_user(user=request.user, project_id=project_id, needed=needed)
    model_form = LanguageModelForm(request.POST or None, prefix="model")
    if request.method == "POST" and model_form.is_valid():
        data = model_form.cleaned_data
        try:
            model = language_model_create(
                project=project,
                name=data["name"],
                source=data["source"],
                revision=data["revision"],
                kind=data["kind"],
                language=data["language"],
                created_by=request.user,
            )
        except ValidationError as exc:
            _add_errors(model_form, exc)
        else:
            messages.success(request, f"Model “{model.name}” registered ({model.get_kind_display()}).")
            return redirect("evaluation:model_list", project_id=project.pk)
    status = 400 if request.method == "POST" else 200
    return _models_page(request, project, model_form, SeriesForm(prefix="series"), status)


@login_required
@require_POST
def series_register_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """Register every checkpoint of a folder as a model of one series (editors)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    series_form = SeriesForm(request.POST, prefix="series")
    if series_form.is_valid():
        data = series_form.cleaned_data
        try:
            outcome = language_model_series_register(
                project=project,
                folder=data["folder"],
                series=data["series"],
                kind=data["kind"],
                language=data["language"],
                created_by=request.user,
            )
        except ValidationError as exc:
            _add_errors(series_form, exc)
        else:
            steps = ", ".join(str(m.step) for m in outcome.created)
            text = f"Series “{data['series'].strip()}”: {len(outcome.created)} checkpoint(s) registered"
            text += f" (steps {steps})." if outcome.created else "."
            if outcome.existing:
                text += f" {len(outcome.existing)} were registered already and left as they were."
            messages.success(request, text)
            return redirect("evaluation:model_list", project_id=project.pk)
    return _models_page(request, project, LanguageModelForm(prefix="model"), series_form, status=400)


def _dataset_choices(project: Project) -> list[tuple[int, str]]:
    choices = []
    for dataset in dataset_list(project=project):
        count = int(dataset.pair_count or 0)  # type: ignore[attr-defined]  # dataset_list annotates it
        unit = "triplet" if dataset.origin == Dataset.Origin.LEARNER else "pair"
        label = f"{dataset.name} ({count:,} {unit}{'' if count == 1 else 's'})"
        if dataset.job is not None and not dataset.job.finished:
            label += " · still being generated"
        choices.append((dataset.pk, label))
    return choices


@login_required
@require_http_methods(["GET", "POST"])
def run_new_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """Choose models (or whole series) and datasets, the scorer and its settings; POST queues the run."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    models = list(language_model_list(project=project))
    series = series_list(project=project)
    datasets = _dataset_choices(project)
    initial: dict[str, object] = {}
    if request.method == "GET":
        initial = {
            "datasets": request.GET.getlist("dataset"),
            "language_models": request.GET.getlist("model"),
        }
    form = RunForm(request.POST or None, initial=initial, models=models, series=series, datasets=datasets)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        chosen = [m for m in models if m.pk in set(data["language_models"])]
        chosen += [m for m in models if m.series and m.series in set(data["series"]) and m not in chosen]
        chosen_datasets = [d for d in dataset_list(project=project) if d.pk in set(data["datasets"])]
        name = data["name"].strip() or _run_name(chosen, chosen_datasets, data["method"])
        try:
            run = run_create(
                project=project,
                name=name,
                language_models=chosen,
                datasets=chosen_datasets,
                method=data["method"],
                dtype=data["dtype"],
                score_eos=data["score_eos"],
                reduction=data["reduction"],
                token_budget=data["token_budget"],
                device=data["device"].strip(),
                chunk_size=data["chunk_size"],
                created_by=request.user,
            )
        except ValidationError as exc:
            _add_errors(form, exc)
        else:
            configs = run.configs.count()
            messages.success(
                request,
                f"Run “{run.name}” queued: {configs} configuration{'s' if configs != 1 else ''} on "
                f"{len(chosen_datasets)} dataset{'s' if len(chosen_datasets) != 1 else ''}.",
            )
            return redirect("evaluation:run_detail", project_id=project.pk, run_id=run.pk)
    context = page_context(
        request,
        project,
        form=form,
        models=models,
        series=series,
        series_sizes={s: sum(1 for m in models if m.series == s) for s in series},
        has_datasets=bool(datasets),
    )
    return render(
        request, "evaluation/run_new.html", context, status=400 if request.method == "POST" else 200
    )


def _run_name(models: list[LanguageModel], datasets: Sequence[object], method: str) -> str:
    names = [m.name for m in models] or [f"{method or 'unigram'} baseline"]
    who = names[0] if len(names) == 1 else f"{names[0]} and {len(names) - 1} more"
    what = [str(getattr(d, "name", d)) for d in datasets]
    on = what[0] if len(what) == 1 else f"{len(what)} datasets"
    return f"{who} on {on}"[:200]


def _run_context(request: HttpRequest, project: Project, run: ScoringRun) -> dict[str, object]:
    job = run.job
    return page_context(
        request,
        project,
        run=run,
        job=job,
        configs=list(run.configs.all()),
        datasets=list(run.datasets.all()),
        chunks=run_chunk_counts(run=run),
        poll_url=reverse("evaluation:job_status", args=(project.pk, job.pk)) if job is not None else "",
    )


@login_required
@require_GET
def run_detail_view(request: HttpRequest, project_id: int, run_id: int) -> HttpResponse:
    """A run: what it scores, its job's live status, the cancel button, links to results; with
    learner triplet datasets, their BLiSS metrics and the HAP-against-pair-accuracy plot."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    run = run_get(project=project, run_id=run_id)
    context = _run_context(request, project, run)
    bliss = run_triplets(run)
    context["bliss"] = bliss
    context["metric_headers"] = metric_headers(bliss.boards[0].tau) if bliss else []
    return render(request, "evaluation/run_detail.html", context)


@login_required
@require_GET
def run_status_partial(request: HttpRequest, project_id: int, run_id: int) -> HttpResponse:
    """The run's status section: the page reloads it whenever the job's status partial moves."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    run = run_get(project=project, run_id=run_id)
    return render(request, "evaluation/_run_status.html", _run_context(request, project, run))


@login_required
@require_POST
def run_cancel_view(request: HttpRequest, project_id: int, run_id: int) -> HttpResponse:
    """Cancel a queued or running run (editors); the scores stored so far stay."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    run = run_get(project=project, run_id=run_id)
    if run_cancel(run=run, user=request.user):
        messages.success(
            request, "Run cancelled; the scores stored so far are kept and reused by later runs."
        )
    else:
        messages.info(request, "The run had already finished.")
    return redirect("evaluation:run_detail", project_id=project.pk, run_id=run.pk)


def _scores_said(configs: int, sentence_scores: int, pair_scores: int = 0) -> str:
    """Say the stored scores a deletion removed ("" for none)."""
    parts = []
    if configs:
        parts.append(
            f"{count_of(configs, 'configuration')} with {count_of(sentence_scores, 'stored sentence score')}"
        )
    if pair_scores:
        parts.append(f"{count_of(pair_scores, 'pair score')} of other configurations")
    return " and ".join(parts)


@login_required
@require_http_methods(["GET", "POST"])
def model_delete_view(request: HttpRequest, project_id: int, model_id: int) -> HttpResponse:
    """Confirm, then delete a model with its configurations, stored scores and the runs that
    scored nothing else (editors)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    model = language_model_get(project=project, model_id=model_id)
    if request.method == "POST":
        name = model.name
        removed = language_model_delete(model=model)
        said = _scores_said(removed.configs, removed.sentence_scores) or "nothing had been scored with it"
        runs = len(removed.emptied_runs)
        runs_said = f"; {runs} run{'s' if runs != 1 else ''} that scored only it went too" if runs else ""
        messages.success(request, f"Model “{name}” was deleted ({said}{runs_said}).")
        return redirect("evaluation:model_list", project_id=project.pk)
    context = page_context(request, project, model=model, deletion=language_model_deletion(model=model))
    return render(request, "evaluation/model_delete.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def run_delete_view(request: HttpRequest, project_id: int, run_id: int) -> HttpResponse:
    """Confirm, then delete a run with its chunks and job, and, when asked, the scores only it
    stands for (editors)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    run = run_get(project=project, run_id=run_id)
    if request.method == "POST":
        name = run.name
        removed = run_delete(run=run, delete_scores=request.POST.get("scores") == "delete")
        said = _scores_said(removed.configs, removed.sentence_scores, removed.pair_scores)
        kept = " Its scores are kept for later runs." if not removed.any else f" Deleted with it: {said}."
        messages.success(request, f"Run “{name}” was deleted.{kept}")
        return redirect("evaluation:run_list", project_id=project.pk)
    context = page_context(request, project, run=run, scores=run_scores_count(run=run))
    return render(request, "evaluation/run_delete.html", context)
