"""Pages of a project's vocabularies: the list, new and imported vocabularies, the item table,
item editing, export, settings and deletion. The schema pages are in `schema_views.py`."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role, role_allows
from mpp_studio.accounts.selectors import project_get_for_user, role_of
from mpp_studio.lexicon.engine import schema_from_json
from mpp_studio.lexicon.forms import (
    ItemForm,
    VocabularyForm,
    VocabularyImportForm,
    feature_field_name,
    filter_values,
    upload_limit_text,
)
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.lexicon.selectors import (
    EXPORT_FORMATS,
    ItemFilter,
    item_filter_clean,
    vocabulary_export,
    vocabulary_feature_columns,
    vocabulary_get,
    vocabulary_item_get,
    vocabulary_items_filter,
    vocabulary_list_for_project,
    vocabulary_odd_values,
    vocabulary_pos_values,
)
from mpp_studio.lexicon.selectors_imports import vocabulary_import_get, vocabulary_import_view
from mpp_studio.lexicon.selectors_updates import vocabulary_updates_recent
from mpp_studio.lexicon.services import (
    ImportRejected,
    vocabulary_create,
    vocabulary_delete,
    vocabulary_item_create,
    vocabulary_item_delete,
    vocabulary_item_update,
    vocabulary_update,
)
from mpp_studio.lexicon.services.import_jobs import vocabulary_import_start
from vocab.errors import VocabularyError

ITEMS_PER_PAGE = 50
# An import rejected with more problems than this shows the first ones and says how many remain.
SHOWN_IMPORT_PROBLEMS = 1000


def project_for(request: HttpRequest, project_id: int, needed: str = Role.VIEWER) -> tuple[Project, str]:
    """Return the project and the user's role in it (404 for non-members, 403 for a low role)."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=needed)
    return project, role_of(user=request.user, project=project) or ""


def page_context(project: Project, role: str, **extra: object) -> dict[str, object]:
    """Return the context of a page under the project's Vocabularies tab."""
    return {
        "project": project,
        "role": role,
        "active_tab": "vocabularies",
        "can_edit": role_allows(role, Role.EDITOR),
        **extra,
    }


def vocabulary_url(vocabulary: Vocabulary) -> str:
    return reverse("lexicon:vocabulary_detail", args=[vocabulary.project_id, vocabulary.pk])


@login_required
@require_GET
def vocabulary_list(request: HttpRequest, project_id: int) -> HttpResponse:
    """The project's vocabularies: name, language, item count and features."""
    project, role = project_for(request, project_id)
    vocabularies = [
        (vocabulary, list(schema_from_json(vocabulary.schema).features))
        for vocabulary in vocabulary_list_for_project(project=project)
    ]
    return render(
        request, "lexicon/vocabulary_list.html", page_context(project, role, vocabularies=vocabularies)
    )


@login_required
@require_http_methods(["GET", "POST"])
def vocabulary_new(request: HttpRequest, project_id: int) -> HttpResponse:
    """Create an empty vocabulary with a name and language (editors)."""
    project, role = project_for(request, project_id, Role.EDITOR)
    form = VocabularyForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            vocabulary = vocabulary_create(project=project, **form.cleaned_data)
        except ValidationError as exc:
            _add_errors(form, exc)
        else:
            messages.success(request, f"Vocabulary “{vocabulary.name}” created. Declare its features next.")
            return redirect("lexicon:schema", project.pk, vocabulary.pk)
    context = page_context(project, role, form=form)
    return render(request, "lexicon/vocabulary_new.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def vocabulary_import(request: HttpRequest, project_id: int) -> HttpResponse:
    """GET: the upload form (`?again=<import id>`: filled in as that import was); POST: keep the
    file and start its import as a job, then the import's page, which follows the job and shows
    the vocabulary and report, or every row error of a refused file."""
    project, role = project_for(request, project_id, Role.EDITOR)
    form = VocabularyImportForm(
        request.POST or None, request.FILES or None, initial=_again(project, request.GET.get("again", ""))
    )
    rejected: ImportRejected | None = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            started = vocabulary_import_start(
                project=project,
                table=data["file"],
                schema_file=data["schema_file"],
                source_format=data["format"],
                name=data["name"],
                language=data["language"],
                description=data["description"],
                created_by=request.user,
            )
        except ImportRejected as exc:
            rejected = exc
        except ValidationError as exc:
            _add_errors(form, exc)
        else:
            messages.success(
                request,
                f"{started.file_name} is being imported: the file is read on the server. This page shows "
                "the progress, then the vocabulary, or every problem that kept the file out.",
            )
            return redirect("lexicon:vocabulary_import_detail", project.pk, started.pk)
    context = page_context(
        project,
        role,
        form=form,
        rejected=rejected,
        problems=rejected.errors[:SHOWN_IMPORT_PROBLEMS] if rejected else (),
        hidden_problems=max(0, len(rejected.errors) - SHOWN_IMPORT_PROBLEMS) if rejected else 0,
        max_upload=upload_limit_text(),
    )
    status = 400 if rejected or form.errors else 200
    return render(request, "lexicon/vocabulary_import.html", context, status=status)


def _again(project: Project, again: str) -> dict[str, str]:
    """Return the form fields of an earlier import of the project (the user imports it again)."""
    if not again.isdigit() or len(again) > 18:
        return {}
    try:
        earlier = vocabulary_import_get(project=project, import_id=int(again))
    except Http404:
        return {}
    return {
        "format": earlier.source_format,
        "name": earlier.name,
        "language": earlier.language,
        "description": earlier.description,
    }


@login_required
@require_GET
def vocabulary_import_detail(request: HttpRequest, project_id: int, import_id: int) -> HttpResponse:
    """An import's page: the job's progress while it runs, then the vocabulary with the report, or
    every problem that refused the file. For htmx, only that part (it reloads when the job ends)."""
    project, role = project_for(request, project_id)
    view = vocabulary_import_view(project=project, import_id=import_id)
    job = view.row.job
    context = page_context(
        project,
        role,
        imported=view,
        job=job,
        poll_url=reverse("lexicon:job_status", args=[project.pk, job.pk]) if job is not None else "",
    )
    if getattr(request, "htmx", False):
        return render(request, "lexicon/_vocabulary_import_status.html", context)
    return render(request, "lexicon/vocabulary_import_detail.html", context)


def _add_errors(form: VocabularyForm | VocabularyImportForm, error: ValidationError) -> None:
    for field, field_messages in error.message_dict.items():
        for message in field_messages:
            form.add_error(field if field in form.fields else None, message)


def _item_filter(request: HttpRequest, vocabulary: Vocabulary) -> tuple[ItemFilter, dict[str, str]]:
    """Return the table's filter from the query, and a message per feature whose value is not valid."""
    schema = schema_from_json(vocabulary.schema)
    raw = filter_values(request.GET, schema)
    search, pos = request.GET.get("search", ""), request.GET.get("pos", "")
    try:
        return item_filter_clean(schema=schema, search=search, pos=pos, features=raw), {}
    except ValidationError as exc:
        errors = {name: " ".join(texts) for name, texts in exc.message_dict.items()}
        valid = {name: value for name, value in raw.items() if name not in errors}
        return item_filter_clean(schema=schema, search=search, pos=pos, features=valid), errors


def _query_without_page(request: HttpRequest) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    for key in [k for k, v in query.items() if isinstance(v, str) and not v.strip()]:
        query.pop(key)
    return query.urlencode()


@login_required
@require_GET
def vocabulary_detail(request: HttpRequest, project_id: int, vocabulary_id: int) -> HttpResponse:
    """The item table with search and filters (htmx swaps just the table), export and edit links."""
    project, role = project_for(request, project_id)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    item_filter, filter_errors = _item_filter(request, vocabulary)
    items = vocabulary_items_filter(vocabulary=vocabulary, item_filter=item_filter)
    page: Page = Paginator(items, ITEMS_PER_PAGE).get_page(request.GET.get("page"))
    columns = vocabulary_feature_columns(vocabulary=vocabulary)
    schema = schema_from_json(vocabulary.schema)
    rows = [
        (item, [schema.multi_separator.join(item.features.get(column.name, [])) for column in columns])
        for item in page.object_list
    ]
    context = page_context(
        project,
        role,
        vocabulary=vocabulary,
        columns=columns,
        filters=[
            (column, feature_field_name(column.name), request.GET.get(feature_field_name(column.name), ""))
            for column in columns
        ],
        pos_values=vocabulary_pos_values(vocabulary=vocabulary),
        item_filter=item_filter,
        filter_errors=filter_errors,
        search=request.GET.get("search", ""),
        pos=request.GET.get("pos", ""),
        page=page,
        rows=rows,
        total=vocabulary.items.count(),
        query=_query_without_page(request),
        export_formats=list(EXPORT_FORMATS),
    )
    htmx = getattr(request, "htmx", None)
    partial = bool(htmx and not htmx.history_restore_request)
    if not partial:
        context["updates"] = vocabulary_updates_recent(vocabulary=vocabulary)
        context["odd_values"] = [
            (odd, urlencode({feature_field_name(odd.feature): odd.value}))
            for odd in vocabulary_odd_values(vocabulary=vocabulary)
        ]
    template = "lexicon/_item_table.html" if partial else "lexicon/vocabulary_detail.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@login_required
@require_GET
def vocabulary_export_view(
    request: HttpRequest, project_id: int, vocabulary_id: int, fmt: str
) -> HttpResponse:
    """Download the vocabulary as CSV, TSV or its .schema.yaml, named after the vocabulary."""
    project, _ = project_for(request, project_id)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    if fmt not in EXPORT_FORMATS:
        raise Http404("Vocabularies are exported as csv, tsv or schema.")
    try:
        export = vocabulary_export(vocabulary=vocabulary, fmt=fmt)
    except VocabularyError as exc:
        messages.error(request, f"The vocabulary cannot be exported: {exc}")
        return redirect(vocabulary_url(vocabulary))
    response = HttpResponse(export.text, content_type=export.content_type)
    disposition = content_disposition_header(as_attachment=True, filename=export.file_name)
    assert disposition is not None  # None only for an inline response without a file name
    response["Content-Disposition"] = disposition
    return response


def _item_page(
    request: HttpRequest, project_id: int, vocabulary_id: int, item_pk: int | None
) -> HttpResponse:
    project, role = project_for(request, project_id, Role.EDITOR)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    item = vocabulary_item_get(vocabulary=vocabulary, item_pk=item_pk) if item_pk is not None else None
    schema = schema_from_json(vocabulary.schema)
    initial = ItemForm.initial_for(item, schema) if item is not None else None
    form = ItemForm(request.POST or None, initial=initial, schema=schema)
    if request.method == "POST" and form.is_valid():
        try:
            if item is None:
                saved = vocabulary_item_create(vocabulary=vocabulary, **form.item_values())
            else:
                saved = vocabulary_item_update(item=item, **form.item_values())
        except ValidationError as exc:
            form.add_service_errors(exc)
        else:
            verb = "Added" if item is None else "Saved"
            messages.success(request, f"{verb} the item “{saved.form}” (id {saved.item_id}).")
            if item is None and "add_another" in request.POST:
                return redirect("lexicon:item_new", project.pk, vocabulary.pk)
            return redirect(vocabulary_url(vocabulary))
    context = page_context(project, role, vocabulary=vocabulary, item=item, form=form)
    return render(request, "lexicon/item_form.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def item_new(request: HttpRequest, project_id: int, vocabulary_id: int) -> HttpResponse:
    """Add an item, each feature checked against the schema (editors)."""
    return _item_page(request, project_id, vocabulary_id, None)


@login_required
@require_http_methods(["GET", "POST"])
def item_edit(request: HttpRequest, project_id: int, vocabulary_id: int, item_pk: int) -> HttpResponse:
    """Edit an item (editors)."""
    return _item_page(request, project_id, vocabulary_id, item_pk)


@login_required
@require_http_methods(["GET", "POST"])
def item_delete(request: HttpRequest, project_id: int, vocabulary_id: int, item_pk: int) -> HttpResponse:
    """Delete an item after confirmation (editors)."""
    project, role = project_for(request, project_id, Role.EDITOR)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    item = vocabulary_item_get(vocabulary=vocabulary, item_pk=item_pk)
    if request.method == "POST":
        vocabulary_item_delete(item=item)
        messages.success(request, f"Deleted the item “{item.form}” (id {item.item_id}).")
        return redirect(vocabulary_url(vocabulary))
    schema = schema_from_json(vocabulary.schema)
    features = [(name, schema.multi_separator.join(values)) for name, values in item.features.items()]
    context = page_context(project, role, vocabulary=vocabulary, item=item, features=features)
    return render(request, "lexicon/item_delete.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def vocabulary_settings(request: HttpRequest, project_id: int, vocabulary_id: int) -> HttpResponse:
    """Rename a vocabulary, change its language or description (editors)."""
    project, role = project_for(request, project_id, Role.EDITOR)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    initial = {
        "name": vocabulary.name,
        "language": vocabulary.language,
        "description": vocabulary.description,
    }
    form = VocabularyForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            vocabulary_update(vocabulary=vocabulary, **form.cleaned_data)
        except ValidationError as exc:
            _add_errors(form, exc)
            vocabulary.refresh_from_db()
        else:
            messages.success(request, "Settings saved.")
            return redirect(vocabulary_url(vocabulary))
    context = page_context(project, role, vocabulary=vocabulary, form=form)
    return render(request, "lexicon/vocabulary_settings.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def vocabulary_remove(request: HttpRequest, project_id: int, vocabulary_id: int) -> HttpResponse:
    """Delete a vocabulary and its items after confirmation (editors)."""
    project, role = project_for(request, project_id, Role.EDITOR)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    if request.method == "POST":
        name = vocabulary.name
        vocabulary_delete(vocabulary=vocabulary)
        messages.success(request, f"Deleted the vocabulary “{name}”.")
        return redirect("lexicon:vocabulary_list", project.pk)
    context = page_context(project, role, vocabulary=vocabulary, item_count=vocabulary.items.count())
    return render(request, "lexicon/vocabulary_delete.html", context)
