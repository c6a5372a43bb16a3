"""The researcher's analysis of a study, under /projects/<project_id>/studies/<study_id>/analysis/
(namespace `studies`): the live dashboard (lists, exclusion flow, agreement with gold, flags),
the rules form, CSV/JSON exports, "Publish to dataset card" and "Validate only what changed".
The same analysis as JSON under the studies API.

Viewers read and download; editors change the rules, publish and create re-validations;
non-members get 404.
"""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response as ApiResponse
from rest_framework.views import APIView

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.accounts.users import signed_in_user
from mpp_studio.datasets.models import Dataset
from mpp_studio.studies.analysis_downloads import (
    CSV_EXPORTS,
    DOWNLOADS,
    RATING_CSV_EXPORTS,
    analysis_download,
)
from mpp_studio.studies.analysis_rules import (
    INCLUDE_WORDS,
    RULE_FIELDS,
    RULE_RANGES,
    AnalysisRules,
    rules_from_data,
)
from mpp_studio.studies.models import Study
from mpp_studio.studies.report import StudyReport, project_datasets
from mpp_studio.studies.report_ratings import AnalysisReport, RatingReport, analysis_dict, analysis_report
from mpp_studio.studies.selectors import study_get
from mpp_studio.studies.services_analysis import revalidation_create, rules_save, validation_publish
from mpp_studio.studies.views import page_context
from study.exclusion import EXCLUSION_REASONS, ExclusionResult
from study.human_flags import PARADIGM_PRESETS

REASON_LABELS = {
    "incomplete": "Did not complete",
    "catch_trials": "Failed catch trials",
    "filler_accuracy": "Filler accuracy too low",
    "too_fast": "Too fast",
    "position_bias": "Position bias",
    "too_few_items": "Too few items",
}


def _report_or_error(
    request: HttpRequest, study: Study, rules: AnalysisRules | None = None
) -> AnalysisReport | None:
    try:
        return analysis_report(study, rules)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return None


def _rules_values(rules: AnalysisRules, data: dict[str, Any] | None) -> dict[str, Any]:
    """Return the form's values: what was posted (after an error) or the saved rules."""
    if data is not None:
        return {k: data.get(k, "") for k in rules.to_dict()}
    return {k: _shown(v) for k, v in rules.to_dict().items()}


def _shown(value: object) -> object:
    """Return a saved rule value as the form shows it: off as empty, 500.0 as 500."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer() and value > 1:
        return int(value)
    return value


def _flow_rows(exclusion: ExclusionResult) -> list[dict[str, Any]]:
    flows = [exclusion.flow, *exclusion.flow_by_list]
    rows = []
    for flow in flows:
        rows.append(
            {
                "label": flow.list_id or "All lists",
                "started": flow.started,
                "completed": flow.completed,
                "checked": flow.checked,
                "excluded": flow.excluded,
                "by_reason": [
                    (REASON_LABELS[r], flow.excluded_by_reason.get(r, 0))
                    for r in EXCLUSION_REASONS
                    if r != "incomplete"
                ],
                "analysed": flow.analysed,
            }
        )
    return rows


def _analysis_context(report: StudyReport) -> dict[str, Any]:
    analysis = report.analysis
    paradigm_flags = {f.paradigm: f for f in analysis.paradigm_flags}
    paradigms = [
        {
            "group": p,
            "flag": paradigm_flags.get(p.name),
            "disagreeing": [
                {"pair_id": report.pair_id(i), "place": report.place(i)} for i in flag.disagreeing_item_ids
            ]
            if (flag := paradigm_flags.get(p.name))
            else [],
            "template_url": report.provenance.templates.get(p.name, ""),
        }
        for p in analysis.paradigms
    ]
    item_flags = [
        {
            "flag": f,
            "pair_id": report.pair_id(f.item_id),
            "place": report.place(f.item_id),
            "words": [
                {
                    "use": w,
                    "url": report.provenance.positions.get((f.paradigm, w.position), ""),
                    "form": report.provenance.words.get((f.paradigm, w.word), ("", ""))[0],
                    "edit_url": report.provenance.words.get((f.paradigm, w.word), ("", ""))[1],
                }
                for w in f.words
            ],
        }
        for f in analysis.item_flags
    ]
    words = [
        {
            "word": w,
            "links": [
                {"paradigm": p, "url": report.provenance.positions.get((p, w.position), "")}
                for p in w.paradigms
            ],
            "entry": next(
                (
                    report.provenance.words[(p, w.word)]
                    for p in w.paradigms
                    if (p, w.word) in report.provenance.words
                ),
                None,
            ),
        }
        for w in analysis.word_flags
    ]
    rule = report.rules
    return {
        "report": report,
        "analysis": analysis,
        "overall": analysis.overall,
        "raters": analysis.raters,
        "flows": _flow_rows(analysis.exclusion),
        "reason_labels": [REASON_LABELS[r] for r in EXCLUSION_REASONS if r != "incomplete"],
        "paradigm_rows": paradigms,
        "flagged_paradigms": [p for p in paradigms if p["flag"]],
        "revalidate_paradigms": [f.paradigm for f in analysis.paradigm_flags],
        "item_flag_rows": item_flags,
        "item_rows": [
            {"item": i, "pair_id": report.pair_id(i.item_id), "place": report.place(i.item_id)}
            for i in analysis.items
        ],
        "word_rows": words,
        "participant_rows": analysis.exclusion.participants,
        "threshold": rule.effective_threshold,
        "rule_label": "ZhoBLiMP (micro accuracy)"
        if rule.preset == "zhoblimp"
        else "BLiMP (items the majority got right)",
        "csv_exports": CSV_EXPORTS,
    }


def _rating_context(report: RatingReport) -> dict[str, Any]:
    """Return the analysis page's context of a rating study: per paradigm its results, its
    template page and the pairs to read first; every pair; how each participant was z-scored."""
    analysis = report.analysis
    flags_of: dict[str, list[Any]] = {}
    for flag in analysis.item_flags:
        flags_of.setdefault(flag.paradigm, []).append(flag)
    rows = [
        {
            "paradigm": p,
            "template_url": report.provenance.templates.get(p.paradigm, ""),
            "items": [
                {"flag": f, "pair_id": report.pair_id(f.item_id), "place": report.place(f.item_id)}
                for f in flags_of.get(p.paradigm, [])
            ],
        }
        for p in analysis.paradigms
    ]
    flagged = {f.item_id for f in analysis.item_flags}
    exclusion = analysis.exclusion
    return {
        "report": report,
        "rating": True,
        "analysis": analysis,
        "rating_rows": rows,
        "flagged_rating_rows": [
            row for row, p in zip(rows, analysis.paradigms, strict=True) if p.flagged or p.unnatural
        ],
        "revalidate_paradigms": [p.paradigm for p in analysis.paradigms if p.flagged or p.unnatural],
        "rating_item_rows": [
            {
                "item": i,
                "pair_id": report.pair_id(i.item_id),
                "place": report.place(i.item_id),
                "flagged": i.item_id in flagged,
            }
            for i in analysis.items
        ],
        "scaling_rows": analysis.participants,
        "flows": _flow_rows(exclusion) if exclusion else [],
        "reason_labels": [REASON_LABELS[r] for r in EXCLUSION_REASONS if r != "incomplete"],
        "participant_rows": exclusion.participants if exclusion else [],
        "csv_exports": RATING_CSV_EXPORTS,
    }


def _page(
    request: HttpRequest,
    project: Project,
    study: Study,
    *,
    rules: AnalysisRules | None = None,
    posted: dict[str, Any] | None = None,
    errors: dict[str, list[str]] | None = None,
    status: int = 200,
) -> HttpResponse:
    report = _report_or_error(request, study, rules)
    saved = rules or (report.rules if report else AnalysisRules())
    context = page_context(
        request,
        project,
        study=study,
        rules=_rules_values(saved, posted),
        rule_errors=errors or {},
        datasets=project_datasets(project),
        study_dataset_ids={d.pk for d in study.datasets.all()},
        revalidations=list(study.revalidations.order_by("-created_at")),
        **(
            {"report": None}
            if report is None
            else _rating_context(report)
            if isinstance(report, RatingReport)
            else _analysis_context(report)
        ),
    )
    return render(request, "studies/analysis.html", context, status=status)


@login_required
@require_GET
def study_analysis_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """The study's live analysis: participants per list, the exclusion flow under the saved
    rules, agreement with gold, inter-rater agreement and the flags."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    study = study_get(project=project, study_id=study_id)
    return _page(request, project, study)


@login_required
@require_POST
def study_analysis_rules_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """Save the exclusion and flag rules (editors) and show the analysis under them; a rule
    that does not read comes back beside its field."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    study = study_get(project=project, study_id=study_id)
    data = request.POST.dict()
    try:
        rules_save(study=study, data=data)
    except ValidationError as error:
        errors = error.message_dict if hasattr(error, "error_dict") else {"__all__": error.messages}
        return _page(request, project, study, posted=data, errors=errors, status=400)
    messages.success(request, "Rules saved; the analysis below uses them.")
    return redirect("studies:study_analysis", project_id=project.pk, study_id=study.pk)


@login_required
@require_GET
def study_analysis_export_view(
    request: HttpRequest, project_id: int, study_id: int, what: str
) -> HttpResponse | StreamingHttpResponse:
    """Download the analysis: a CSV (responses in tidy long format, participants, items,
    paradigms, phenomena, words) or the whole analysis as JSON."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    study = study_get(project=project, study_id=study_id)
    if what not in DOWNLOADS:
        raise Http404("No such export.")
    try:
        report = analysis_report(study)
    except ValidationError as error:
        return HttpResponse(" ".join(error.messages), status=400, content_type="text/plain; charset=utf-8")
    download = analysis_download(study, report, what)
    if download is None:
        raise Http404("A rating study has no such export.")
    return download


@login_required
@require_POST
def study_analysis_publish_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """Write the validation summary (per paradigm, under the saved rules) into the datasets'
    cards (editors)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    study = study_get(project=project, study_id=study_id)
    try:
        written = validation_publish(study=study)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        names = ", ".join(f"“{d.name}”" for d in written)
        messages.success(request, f"Validation summary published to the card of {names}.")
    return redirect("studies:study_analysis", project_id=project.pk, study_id=study.pk)


@login_required
@require_POST
def study_revalidate_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """Create a draft study, with this study's settings, of the chosen (flagged) paradigms from
    the chosen datasets (editors): validate only what changed."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    study = study_get(project=project, study_id=study_id)
    ids = [int(i) for i in request.POST.getlist("datasets") if i.isdigit()]
    datasets = list(Dataset.objects.filter(project=project, pk__in=ids)) if ids else None
    try:
        if ids and not datasets:
            raise ValidationError("Choose datasets of this project.")
        new = revalidation_create(
            study=study,
            paradigms=request.POST.getlist("paradigms"),
            datasets=datasets,
            created_by=signed_in_user(request),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("studies:study_analysis", project_id=project.pk, study_id=study.pk)
    missing = getattr(new, "missing_paradigms", [])
    note = f" The chosen datasets have no items of {', '.join(missing)}." if missing else ""
    messages.success(
        request,
        f"Draft study “{new.name}” created with only the paradigms {', '.join(new.paradigm_filter)}."
        f"{note} Check it and open it; saving its settings keeps it to those paradigms.",
    )
    return redirect("studies:study_detail", project_id=project.pk, study_id=new.pk)


def _number_or_blank(minimum: float, maximum: float | None, *, whole: bool = False) -> dict[str, Any]:
    """Return the schema of a numeric rule: a number in its range (the engine's: study.exclusion,
    study.human_flags), or blank for off."""
    number: dict[str, Any] = {"type": "integer" if whole else "number", "minimum": minimum}
    if maximum is not None:
        number["maximum"] = maximum
    return {"anyOf": [number, {"type": "string", "pattern": r"^\s*$"}]}


# What each rule's query parameter takes (as `rules_from_data` reads it).
RULE_PARAMETERS = {
    "min_catch_accuracy": (
        _number_or_blank(*RULE_RANGES["min_catch_accuracy"]),
        "Share of catch trials right (blank: off).",
    ),
    "min_median_rt_ms": (
        _number_or_blank(*RULE_RANGES["min_median_rt_ms"]),
        "Fastest median response time in ms (blank: off).",
    ),
    "max_left_share_deviation": (
        _number_or_blank(*RULE_RANGES["max_left_share_deviation"]),
        "Position bias: |left share - 0.5| (blank: off).",
    ),
    "min_items_answered": (
        _number_or_blank(*RULE_RANGES["min_items_answered"], whole=True),
        "Fewest items answered (blank: off).",
    ),
    "include_incomplete": (
        {"type": "string", "enum": list(INCLUDE_WORDS)},
        "Analyse unfinished participants.",
    ),
    "preset": ({"type": "string", "enum": [*PARADIGM_PRESETS, ""]}, "Paradigm rule (blank: zhoblimp)."),
    "threshold": (_number_or_blank(*RULE_RANGES["threshold"]), "Paradigm threshold (blank: the preset's)."),
    "tie": ({"type": "string", "enum": ["half", "fail", ""]}, "A majority-vote tie (blank: half)."),
}


class StudyAnalysisApi(APIView):
    """A study's whole analysis under its saved rules (or, with query parameters, under the rules
    they give: min_catch_accuracy, min_median_rt_ms, ...), as JSON."""

    @extend_schema(
        tags=["Validation studies"],
        responses=OpenApiTypes.OBJECT,
        parameters=[
            OpenApiParameter(name, schema, description=f"Overrides the saved rule. {words}")
            for name, (schema, words) in RULE_PARAMETERS.items()
        ],
    )
    def get(self, request: Request, project_id: int, study_id: int) -> ApiResponse:
        project: Project = self.project  # type: ignore[attr-defined]  # set by ProjectRolePermission
        study = study_get(project=project, study_id=study_id)
        # A ValidationError of the rules goes to the API's handler: 400 in the API's error layout
        # ({"errors": [{"field", "message"}]}), as every other endpoint answers.
        given = request.query_params.dict()
        rules = rules_from_data(given) if any(k in RULE_FIELDS for k in given) else None
        return ApiResponse(analysis_dict(analysis_report(study, rules)))
