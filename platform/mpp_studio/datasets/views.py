"""Dataset pages: list, new, detail with live progress (or, for an imported dataset, its import
report), pairs browser with provenance, exports, delete. The import page is in views_import.py."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.page_context import project_context
from mpp_studio.accounts.roles import Role, role_allows
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.accounts.users import signed_in_user
from mpp_studio.datasets.display import pair_view
from mpp_studio.datasets.downloads import EXPORT_LABELS, export_response, exportable
from mpp_studio.datasets.forms import DatasetCreateForm
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair, PairReview
from mpp_studio.datasets.report import report_rows
from mpp_studio.datasets.selectors import (
    ParadigmPairs,
    dataset_get,
    dataset_list,
    dataset_pair_count,
    dataset_paradigms,
    pair_get,
    pair_pages,
    pair_provenance,
    pair_source,
    template_choices,
)
from mpp_studio.datasets.selectors_curation import SEARCH_LIMIT, pairs_picked, review_counts, reviews_of
from mpp_studio.datasets.services import (
    ShortParadigms,
    dataset_cancel,
    dataset_create,
    dataset_delete,
    dataset_paradigm_retry,
    dataset_require_generated,
)
from mpp_studio.datasets.services.curation import pair_review_clear, pair_review_set
from mpp_studio.datasets.services.written_pairs import written_pair_add
from mpp_studio.datasets.validation_summary import read_validation
from mpp_studio.paradigms.models import Template

PAIRS_PER_PAGE = 50


def page_context(request: HttpRequest, project: Project, **extra: object) -> dict[str, object]:
    """Return the context every dataset page shares: the project's, the tab, and `can_edit`."""
    context = project_context(request, project, active_tab="datasets", **extra)
    role = context["role"]
    context["can_edit"] = isinstance(role, str) and role_allows(role, Role.EDITOR)
    return context


_context = page_context


@login_required
@require_GET
def dataset_list_view(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    return render(
        request, "datasets/list.html", _context(request, project, datasets=dataset_list(project=project))
    )


@login_required
@require_http_methods(["GET", "POST"])
def dataset_new(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    groups = template_choices(project=project)
    ids = [c.template.pk for g in groups for c in g.choices if c.available]
    form = DatasetCreateForm(request.POST or None, template_ids=ids)
    short: list[tuple[str, int]] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # The answer to "these paradigms are short": make as many as each can, or go on (they fail).
        when_short = request.POST.get("when_short", "")
        try:
            dataset = dataset_create(
                project=project,
                name=data["name"],
                description=data["description"],
                templates=list(Template.objects.filter(project=project, pk__in=data["templates"])),
                pairs_per_paradigm=data["pairs_per_paradigm"],
                seed=data["seed"],
                unique=data["unique"],
                balanced_words_only=data["balanced_words_only"],
                as_many_as_possible=data["as_many_as_possible"] or when_short == "as-many",
                refuse_short=when_short not in ("as-many", "fail"),
                created_by=request.user,
            )
        except ShortParadigms as exc:
            short = exc.short
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            count = dataset.paradigms.count()
            messages.success(
                request,
                f"Dataset “{dataset.name}” was queued for generation: "
                f"{count} paradigm{'s' if count != 1 else ''}, {dataset.pairs_per_paradigm:,} pairs each; "
                "its progress is shown below.",
            )
            return redirect("datasets:dataset_detail", project_id=project.pk, dataset_id=dataset.pk)
    chosen = {str(v) for v in (form["templates"].value() or [])}
    return render(
        request,
        "datasets/new.html",
        _context(
            request,
            project,
            form=form,
            groups=groups,
            chosen=chosen,
            available=len(ids),
            short=short,
        ),
    )


def _detail_context(request: HttpRequest, project: Project, dataset: Dataset) -> dict[str, object]:
    paradigms = list(dataset_paradigms(dataset=dataset))
    return _context(
        request,
        project,
        dataset=dataset,
        job=dataset.job,
        paradigms=paradigms,
        pair_total=sum(p.produced for p in paradigms),
        exportable=exportable(dataset),
        export_labels=EXPORT_LABELS,
        report=report_rows(dataset.import_report) if dataset.is_imported else [],
        poll_url=reverse("datasets:job_status", args=(dataset.project_id, dataset.job_id))
        if dataset.job_id
        else "",
    )


@login_required
@require_GET
def dataset_detail(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponse:
    """A dataset: its facts, generation status, paradigms, exports and published validation."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    context = _detail_context(request, project, dataset)
    context["validation"] = read_validation(dataset.validation)
    return render(request, "datasets/detail.html", context)


@login_required
@require_GET
def dataset_status_partial(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponse:
    """Generation status, paradigm table and exports: the detail page reloads them as the job moves."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    return render(request, "datasets/_status.html", _detail_context(request, project, dataset))


@login_required
@require_GET
def dataset_pairs(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponse:
    """The pairs browser: a page of pairs, optionally of one paradigm (`?uid=`), holding a text
    (`?q=`) or with a decision (`?decision=flagged|excluded`); htmx gets the list."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    paradigms = list(dataset_paradigms(dataset=dataset))
    uid = request.GET.get("uid", "")
    if uid and uid not in {p.uid for p in paradigms}:
        uid = ""
    text = request.GET.get("q", "").strip()[:SEARCH_LIMIT]
    decision = request.GET.get("decision", "")
    decision = decision if decision in PairReview.Decision.values else ""
    if text or decision:
        pairs: ParadigmPairs | QuerySet[Pair] = pairs_picked(
            dataset=dataset, uid=uid, text=text, decision=decision
        )
    else:
        pairs = pair_pages(dataset=dataset, paradigms=paradigms, uid=uid)
    paginator = Paginator(pairs, PAIRS_PER_PAGE)  # type: ignore[arg-type]  # Paginator only counts and slices it
    page = paginator.get_page(request.GET.get("page"))
    reviews = reviews_of(page.object_list)
    context = _context(
        request,
        project,
        dataset=dataset,
        paradigms=paradigms,
        uid=uid,
        q=text,
        decision=decision,
        filters=urlencode({k: v for k, v in (("uid", uid), ("q", text), ("decision", decision)) if v}),
        page=page,
        pairs=[(pair_view(pair), reviews.get(pair.pk)) for pair in page.object_list],
        total=pairs.count() if not uid and not (text or decision) else dataset_pair_count(dataset=dataset),
        review_counts=review_counts(dataset=dataset),
    )
    template = "datasets/_pair_list.html" if getattr(request, "htmx", False) else "datasets/pairs.html"
    return render(request, template, context)


@login_required
@require_GET
def pair_detail(request: HttpRequest, project_id: int, dataset_id: int, pair_id: int) -> HttpResponse:
    """A pair's provenance: versions, seed, structure and the words that filled each position."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    pair = pair_get(dataset=dataset, pair_id=pair_id)
    review = reviews_of([pair]).get(pair.pk)
    if dataset.is_imported:
        context = _context(
            request,
            project,
            dataset=dataset,
            view=pair_view(pair),
            source=pair_source(pair=pair),
            review=review,
        )
        partial = "datasets/_source.html"
    else:
        context = _context(
            request,
            project,
            dataset=dataset,
            view=pair_view(pair),
            provenance=pair_provenance(pair=pair),
            review=review,
        )
        partial = "datasets/_provenance.html"
    template = partial if getattr(request, "htmx", False) else "datasets/pair.html"
    return render(request, template, context)


@login_required
@require_POST
def pair_write_view(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponse:
    """Store a hand-written pair in a paradigm of the dataset (`uid`), then show it; editors."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    uid = request.POST.get("uid", "")
    paradigm = dataset_paradigms(dataset=dataset).filter(uid=uid).first()
    back = reverse("datasets:dataset_pairs", args=[project.pk, dataset.pk]) + "?" + urlencode({"uid": uid})
    if paradigm is None or dataset.origin != Dataset.Origin.GENERATED:
        messages.error(request, f"Not saved: this dataset has no generated paradigm '{uid}' to write into.")
        return redirect(back)
    try:
        pair = written_pair_add(
            paradigm=paradigm,
            good=request.POST.get("good", ""),
            bad=request.POST.get("bad", ""),
            user=signed_in_user(request),
        )
    except ValidationError as exc:
        messages.error(request, "Not saved: " + "; ".join(exc.messages) + ".")
        return redirect(back + "&write=1#write-pair")
    messages.success(request, f"Pair {pair.index} written into {paradigm.uid}.")
    return redirect("datasets:pair_detail", project.pk, dataset.pk, pair.pk)


@login_required
@require_POST
def pair_review_view(request: HttpRequest, project_id: int, dataset_id: int, pair_id: int) -> HttpResponse:
    """Flag or exclude a pair with the reason, or take the decision back (`decision=keep`); editors."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    pair = pair_get(dataset=dataset, pair_id=pair_id)
    decision = request.POST.get("decision", "")
    where = reverse("datasets:pair_detail", args=[project.pk, dataset.pk, pair.pk])
    if decision == "keep":
        if pair_review_clear(pair=pair):
            messages.success(request, f"Pair {pair.index} of {pair.paradigm.uid} is kept and exported again.")
        return redirect(where)
    try:
        review = pair_review_set(
            pair=pair, decision=decision, reason=request.POST.get("reason", ""), user=signed_in_user(request)
        )
    except ValidationError as exc:
        messages.error(request, "Not saved: " + "; ".join(exc.messages) + ".")
        return redirect(where)
    outcome = "excluded: exports leave it out" if review.decision == "excluded" else "flagged"
    messages.success(request, f"Pair {pair.index} of {pair.paradigm.uid} is {outcome}.")
    return redirect(where)


@login_required
@require_POST
def dataset_cancel_view(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponse:
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    try:
        dataset_require_generated(dataset=dataset)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("datasets:dataset_detail", project_id=project.pk, dataset_id=dataset.pk)
    if dataset_cancel(dataset=dataset, user=request.user):
        messages.success(request, "Generation cancelled; the pairs stored so far are kept.")
    else:
        messages.info(request, "The generation had already finished.")
    return redirect("datasets:dataset_detail", project_id=project.pk, dataset_id=dataset.pk)


@login_required
@require_POST
def paradigm_retry_view(
    request: HttpRequest, project_id: int, dataset_id: int, paradigm_id: int
) -> HttpResponse:
    """Generate a failed paradigm again, alone (`as_many_as_possible`: keep all it can make)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    paradigm = get_object_or_404(DatasetParadigm, dataset=dataset, pk=paradigm_id)
    as_many = request.POST.get("as_many_as_possible") == "true"
    try:
        dataset_paradigm_retry(paradigm=paradigm, as_many_as_possible=as_many, user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        how = ", making as many pairs as it can" if as_many else ""
        messages.success(
            request, f"{paradigm.uid} was queued to be generated again{how}; the pairs it stored are kept."
        )
    return redirect("datasets:dataset_detail", project_id=project.pk, dataset_id=dataset.pk)


@login_required
@require_http_methods(["GET", "POST"])
def dataset_delete_view(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponse:
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    if request.method == "POST":
        name = dataset.name
        dataset_delete(dataset=dataset)
        messages.success(request, f"Dataset “{name}” and its pairs were deleted.")
        return redirect("datasets:dataset_list", project_id=project.pk)
    return render(
        request,
        "datasets/delete.html",
        _context(request, project, dataset=dataset, pair_total=dataset_pair_count(dataset=dataset)),
    )


@login_required
@require_GET
def dataset_export(request: HttpRequest, project_id: int, dataset_id: int) -> HttpResponseBase:
    """Download the dataset as `?format=jsonl`, `csv` or `hf` (a zipped Hugging Face folder)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    fmt = request.GET.get("format", "jsonl")
    detail = reverse("datasets:dataset_detail", args=(project.pk, dataset.pk))
    if fmt not in EXPORT_LABELS:
        messages.error(request, f"Unknown export format “{fmt}”: choose one of {', '.join(EXPORT_LABELS)}.")
        return redirect(detail)
    if not exportable(dataset):
        messages.error(request, "The dataset is still being generated; export it once it has finished.")
        return redirect(detail)
    return export_response(dataset, fmt)
