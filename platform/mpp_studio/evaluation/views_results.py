"""Results pages of a dataset (viewers and up), computed from the stored sentence scores:
the leaderboard with its plot, one configuration's report (per phenomenon and paradigm), a
comparison of configurations, a checkpoint series' learning curves, the per-item drill-down
with token surprisals, and the downloads. A learner triplet dataset adds the BLiSS metrics
(LP, HAP, HAP-τ, SO) to the leaderboard, with the HAP-against-pair-accuracy plot, and the
full BLiSS report (slices by error type, L1, CEFR level) to each configuration's page.

A bad query value (an unknown reduction, outcome or paradigm) is said on the page, and the
default is used; it never makes a server error.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.datasets.models import Dataset
from mpp_studio.datasets.selectors import dataset_get, dataset_paradigms, is_triplet_dataset
from mpp_studio.evaluation import results
from mpp_studio.evaluation.exports import TRIPLET_EXPORTS, curve_response, export_response
from mpp_studio.evaluation.forms import UNITS, CompareForm, ExportForm, ItemFilterForm, ResultsForm
from mpp_studio.evaluation.linking_choice import LinkingChoiceError, linking_choices, read_linking
from mpp_studio.evaluation.models import ScoreConfig, ScoringRun
from mpp_studio.evaluation.selectors import config_get, dataset_configs
from mpp_studio.evaluation.triplet_results import check_triplet_dataset, triplet_board, triplet_report
from mpp_studio.evaluation.views_support import (
    UNIT_SYMBOLS,
    board_plot,
    curve_plot,
    dataset_defaults,
    leaderboard_plot,
    legend_stops,
    metric_headers,
    page_context,
    pair_scale,
    series_on_dataset,
    slice_tables,
    sort_rows,
    token_cells,
)


def _dataset(request: HttpRequest, project_id: int, dataset_id: int) -> tuple[Project, Dataset]:
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    return project, dataset_get(project=project, dataset_id=dataset_id)


def _reduction(form: ResultsForm | CompareForm | ItemFilterForm, default: str, problems: list[str]) -> str:
    """Return the key of the form's linking function (`reduction`, or `custom` when written
    by hand), or `default` (with the reason in `problems`) when it cannot be used."""
    value = str(form.data.get("custom", "") or form.data.get("reduction", "")).strip()
    if not value:
        return default
    try:
        return read_linking(value).key
    except LinkingChoiceError as exc:
        problems.append(f"{exc} Showing {default}.")
        return default


def _results_context(
    request: HttpRequest, project: Project, dataset: Dataset, reduction: str, **extra: object
) -> dict[str, object]:
    linking = read_linking(reduction)
    return page_context(
        request,
        project,
        dataset=dataset,
        reduction=reduction,
        reduction_unit=linking.unit,
        reduction_label=linking.label,
        reduction_needs_unigram=linking.needs_unigram,
        reductions=linking_choices(reduction),
        **extra,
    )


@login_required
@require_GET
def results_view(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponse:
    """The leaderboard of a dataset: every configuration scored on it, overall and per
    phenomenon, sortable by any column; the accuracy-by-phenomenon plot; learning curves and
    comparisons one click away; metrics downloads."""
    project, dataset = _dataset(request, project_id, dataset_id)
    defaults = dataset_defaults(dataset)
    form = ResultsForm(request.GET)
    problems: list[str] = []
    reduction = _reduction(form, defaults.reduction, problems)
    configs = list(dataset_configs(dataset=dataset))
    board = results.leaderboard(
        dataset, reduction=reduction, tie_tolerance=defaults.tie_tolerance, configs=configs
    )
    sort = request.GET.get("sort", "")
    if sort and sort not in board.phenomena:
        problems.append(f"“{sort}” is not a phenomenon of this dataset; sorted by overall accuracy.")
        sort = ""
    rows = sort_rows(board.rows, sort)
    bliss = None
    if is_triplet_dataset(dataset):
        bliss = triplet_board(dataset, configs, reduction=reduction, tie_tolerance=defaults.tie_tolerance)
    context = _results_context(
        request,
        project,
        dataset,
        reduction,
        board=board,
        rows=rows,
        sort=sort,
        sort_keep={"sort": sort},
        problems=problems,
        plot=leaderboard_plot(board) if board.rows else "",
        series=series_on_dataset(configs),
        runs=list(ScoringRun.objects.filter(datasets=dataset).select_related("job").order_by("-created_at")),
        tie_tolerance=defaults.tie_tolerance,
        bliss=bliss,
        bliss_plot=board_plot(bliss) if bliss is not None else "",
        metric_headers=metric_headers(bliss.tau) if bliss is not None else [],
    )
    return render(request, "evaluation/results.html", context)


@login_required
@require_GET
def config_report_view(
    request: HttpRequest, project_id: int, dataset_id: int, config_id: int
) -> HttpResponse:
    """One configuration on a dataset: overall accuracy with its interval and test, the
    length-matched subsets, warnings, and accuracy per phenomenon and per paradigm."""
    project, dataset = _dataset(request, project_id, dataset_id)
    config = config_get(project=project, config_id=config_id)
    defaults = dataset_defaults(dataset)
    problems: list[str] = []
    reduction = _reduction(ResultsForm(request.GET), defaults.reduction, problems)
    report = results.pair_report(dataset, config, reduction=reduction, tie_tolerance=defaults.tie_tolerance)
    paradigms = results.paradigm_rows(dataset, config, report)
    bliss = None
    if is_triplet_dataset(dataset):
        bliss = triplet_report(dataset, config, tie_tolerance=defaults.tie_tolerance)
    context = _results_context(
        request,
        project,
        dataset,
        reduction,
        config=config,
        configs=list(dataset_configs(dataset=dataset)),
        report=report,
        phenomena=sorted(report.by_phenomenon.items()) if report else [],
        paradigms=paradigms,
        n_pairs=sum(r.n_pairs for r in paradigms),
        problems=problems,
        is_triplets=is_triplet_dataset(dataset),
        bliss=bliss,
        bliss_overall=[(h, bliss.overall[h["metric"]]) for h in metric_headers(bliss.tau)] if bliss else [],
        metric_headers=metric_headers(bliss.tau) if bliss else [],
        slice_tables=slice_tables(bliss) if bliss else [],
    )
    return render(request, "evaluation/config_report.html", context)


@login_required
@require_GET
def compare_view(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponse:
    """Two or more configurations side by side per paradigm, their difference, and how many
    pairs each paradigm decides differently; for two, McNemar's test and a paired bootstrap
    interval per paradigm, with links to the pairs they decide differently."""
    project, dataset = _dataset(request, project_id, dataset_id)
    defaults = dataset_defaults(dataset)
    configs = list(dataset_configs(dataset=dataset))
    asked = "configs" in request.GET
    query = request.GET.copy()
    query.setlist("configs", [v for v in query.getlist("configs") if v.strip()])  # blanks: none chosen
    form = CompareForm(query if asked else None, configs=configs)
    problems: list[str] = []
    reduction = _reduction(form, defaults.reduction, problems)
    comparison = None
    if asked and form.is_valid():
        by_id = {c.pk: c for c in configs}
        chosen = [by_id[i] for i in form.cleaned_data["configs"]]
        comparison = results.compare(
            dataset, chosen, reduction=reduction, tie_tolerance=defaults.tie_tolerance
        )
    chosen_ids = (
        {str(v) for v in (form["configs"].value() or [])} if asked else {str(c.pk) for c in configs[:2]}
    )
    context = _results_context(
        request,
        project,
        dataset,
        reduction,
        form=form,
        configs=configs,
        chosen_ids=chosen_ids,
        comparison=comparison,
        rows=_comparison_rows(comparison) if comparison else [],
        overall=_comparison_row(comparison.overall) if comparison else None,
        paired=comparison is not None and len(comparison.configs) == 2,
        first=comparison.configs[0] if comparison else None,
        second=comparison.configs[-1] if comparison else None,
        bootstrap=results.COMPARE_BOOTSTRAP,
        problems=problems,
    )
    return render(request, "evaluation/compare.html", context, status=400 if asked and form.errors else 200)


def _comparison_row(row: results.ComparisonRow) -> dict[str, object]:
    """A comparison row with its difference: the second configuration minus the first (two
    configurations), else the spread between the best and the worst."""
    values = [a for a in row.accuracies if a is not None]
    difference = None
    if len(row.accuracies) == 2 and len(values) == 2:
        difference = values[1] - values[0]
    elif len(values) >= 2:
        difference = max(values) - min(values)
    return {"row": row, "difference": difference}


def _comparison_rows(comparison: results.Comparison) -> list[dict[str, object]]:
    return [_comparison_row(row) for row in comparison.rows]


@login_required
@require_GET
def curve_view(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponseBase:
    """A checkpoint series' accuracy on the dataset by training step: overall and per
    phenomenon, as a plot and a table (the U-shapes of ZhoBLiMP's analysis), or, with
    `download=csv`, as a CSV file."""
    project, dataset = _dataset(request, project_id, dataset_id)
    defaults = dataset_defaults(dataset)
    problems: list[str] = []
    reduction = _reduction(ResultsForm(request.GET), defaults.reduction, problems)
    available = series_on_dataset(list(dataset_configs(dataset=dataset)))
    series = request.GET.get("series", "") or (available[0] if available else "")
    method = request.GET.get("method", "")
    if method and method not in ScoreConfig.Method.values:
        problems.append(f"Unknown scorer “{method}”: use one of {', '.join(ScoreConfig.Method.values)}.")
        method = ""
    curve = None
    plot = ""
    if series and series not in available:
        problems.append(f"No checkpoint of a series “{series}” has been scored on this dataset.")
    elif series:
        curve = results.learning_curve(
            project, series, dataset, reduction=reduction, tie_tolerance=defaults.tie_tolerance, method=method
        )
        if request.GET.get("download") == "csv":
            return curve_response(curve)
        plot = curve_plot(curve)
    context = _results_context(
        request,
        project,
        dataset,
        reduction,
        available=available,
        series=series,
        method=method,
        methods=ScoreConfig.Method.choices,
        curve=curve,
        plot=plot,
        problems=problems,
    )
    return render(request, "evaluation/curve.html", context)


@login_required
@require_GET
def items_view(request: HttpRequest, project_id: int, dataset_id: int, config_id: int) -> HttpResponse:
    """A page of the dataset's pairs under one configuration, filtered by paradigm, outcome and
    text: both sentences as heat strips of token surprisal, their scores and the outcome. htmx
    requests get the list alone."""
    project, dataset = _dataset(request, project_id, dataset_id)
    config = config_get(project=project, config_id=config_id)
    defaults = dataset_defaults(dataset)
    form = ItemFilterForm(request.GET)
    form.is_valid()  # the fields that fail are reported, and their defaults used
    problems = [
        f"{form.fields[f].label}: {' '.join(e)}"  # type: ignore[arg-type]  # an ErrorList yields str
        for f, e in form.errors.items()
        if f in form.fields
    ]
    data = dict(form.cleaned_data)
    reduction = _reduction(form, defaults.reduction, [])
    unit = str(data.get("unit") or "bits")
    paradigms = list(dataset_paradigms(dataset=dataset))
    uid = str(data.get("uid") or "")
    if uid and uid not in {p.uid for p in paradigms}:
        problems.append(f"“{uid}” is not a paradigm of this dataset; showing every paradigm.")
        uid = ""
    outcome = str(data.get("outcome") or "")
    search = str(data.get("q") or "").strip()
    page_size = int(data.get("page_size") or results.PAGE_SIZE)
    configs = list(dataset_configs(dataset=dataset))
    other = next((c for c in configs if c.pk == data.get("differs_from") and c.pk != config.pk), None)
    if data.get("differs_from") and other is None:
        problems.append(
            f"Configuration {data['differs_from']} has not scored this dataset (or is this one); "
            "showing every pair."
        )
    page = results.item_rows(
        dataset,
        config,
        uid=uid,
        outcome=outcome,
        search=search,
        page=int(data.get("page") or 1),
        page_size=page_size,
        reduction=reduction,
        tie_tolerance=defaults.tie_tolerance,
        differs_from=other,
    )
    if page.page > page.n_pages:  # past the end (the filters shrank the list): the last page
        page = results.item_rows(
            dataset,
            config,
            uid=uid,
            outcome=outcome,
            search=search,
            page=page.n_pages,
            page_size=page_size,
            reduction=reduction,
            tie_tolerance=defaults.tie_tolerance,
            differs_from=other,
        )
    items = []
    for item in page.items:
        scale = pair_scale(item.good, item.bad, unit, item.artificial)
        sides = [
            ("good", item.good, token_cells(item.good, unit, scale)),
            ("bad", item.bad, token_cells(item.bad, unit, scale)),
        ]
        if item.artificial is not None:
            sides.append(("artificial", item.artificial, token_cells(item.artificial, unit, scale)))
        items.append({"item": item, "sides": sides})
    query = {
        "uid": uid,
        "outcome": outcome,
        "q": search,
        "reduction": reduction,
        "unit": unit,
        "differs_from": other.pk if other else "",
    }
    context = _results_context(
        request,
        project,
        dataset,
        reduction,
        config=config,
        configs=configs,
        other=other,
        paradigms=paradigms,
        language={p.uid: p.language for p in paradigms},
        form=form,
        page=page,
        items=items,
        uid=uid,
        outcome=outcome,
        search=search,
        unit=unit,
        unit_label=UNITS[unit],
        unit_symbol=UNIT_SYMBOLS[unit],
        units=list(UNITS.items()),
        outcomes=results.OUTCOMES,
        query=urlencode({k: v for k, v in query.items() if v}),
        legend=legend_stops(),
        problems=problems,
    )
    template = "evaluation/_item_list.html" if getattr(request, "htmx", False) else "evaluation/items.html"
    return render(request, template, context)


@login_required
@require_GET
def export_view(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponseBase:
    """Download per-item scores (`what=items`, csv or jsonl, one `config`) or metrics
    (`what=metrics`, csv or json; one `config`, or every configuration scored on the dataset);
    for a learner triplet dataset also per-triplet scores (`what=triplets`, csv or jsonl, one
    `config`) and BLiSS metrics (`what=triplet_metrics`, csv or json)."""
    project, dataset = _dataset(request, project_id, dataset_id)
    back = reverse("evaluation:results", args=(project.pk, dataset.pk))
    form = ExportForm(request.GET)
    if not form.is_valid():
        problems = [
            f"{name}: {' '.join(errors)}"  # type: ignore[arg-type]  # an ErrorList yields str
            for name, errors in form.errors.items()
        ]
        messages.error(request, "That download cannot be made. " + " ".join(problems))
        return redirect(back)
    data = form.cleaned_data
    if data["what"] in TRIPLET_EXPORTS:
        try:
            check_triplet_dataset(dataset)
        except results.ResultsError as exc:
            messages.error(request, f"That download cannot be made. {exc}")
            return redirect(back)
    defaults = dataset_defaults(dataset)
    reduction = data["reduction"] or defaults.reduction
    if data["config"]:
        configs = [config_get(project=project, config_id=data["config"])]
    else:
        configs = list(dataset_configs(dataset=dataset))
    if not configs:
        messages.error(request, "No configuration has scored this dataset yet: there is nothing to download.")
        return redirect(back)
    try:
        return export_response(
            dataset,
            data["what"],
            data["format"],
            configs,
            reduction=reduction,
            tie_tolerance=defaults.tie_tolerance,
        )
    except results.ResultsError as exc:
        messages.error(request, f"That download cannot be made. {exc}")
        return redirect(back)
