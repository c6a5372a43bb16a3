"""Pages that update a vocabulary from an edited file: send it, see what it would add, change and
remove, then apply or discard it; and the download of a version an update kept."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role
from mpp_studio.lexicon.forms import VocabularyUpdateForm, upload_limit_text
from mpp_studio.lexicon.models import Vocabulary, VocabularyUpdate
from mpp_studio.lexicon.selectors import vocabulary_get
from mpp_studio.lexicon.selectors_updates import (
    undeclared_problems,
    vocabulary_update_get,
    vocabulary_version_get,
)
from mpp_studio.lexicon.services import ImportRejected
from mpp_studio.lexicon.services.updates import (
    vocabulary_update_apply_start,
    vocabulary_update_discard,
    vocabulary_update_start,
)
from mpp_studio.lexicon.views import SHOWN_IMPORT_PROBLEMS, page_context, project_for

# A kept version downloads as its table (CSV) or its features (.schema.yaml).
VERSION_FORMATS = {"csv": ("text/csv; charset=utf-8", "csv"), "schema": ("application/yaml", "schema.yaml")}


@login_required
@require_http_methods(["GET", "POST"])
def vocabulary_update_new(request: HttpRequest, project_id: int, vocabulary_id: int) -> HttpResponse:
    """GET: the form for an edited table of the vocabulary; POST: keep it and start reading it,
    then the update's page, which shows what it would change before anything is changed."""
    project, role = project_for(request, project_id, Role.EDITOR)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    form = VocabularyUpdateForm(request.POST or None, request.FILES or None)
    rejected: ImportRejected | None = None
    if request.method == "POST" and form.is_valid():
        try:
            update = vocabulary_update_start(
                vocabulary=vocabulary,
                table=form.cleaned_data["file"],
                schema_file=form.cleaned_data["schema_file"],
                created_by=request.user,
            )
        except ImportRejected as exc:
            rejected = exc
        except ValidationError as exc:
            for field, field_messages in exc.message_dict.items():
                for message in field_messages:
                    form.add_error(field if field in form.fields else None, message)
        else:
            messages.success(
                request,
                f"{update.file_name} is being read. Nothing in “{vocabulary.name}” changes until you "
                "apply it: this page shows what it would add, change and remove.",
            )
            return redirect("lexicon:vocabulary_update", project.pk, vocabulary.pk, update.pk)
    context = page_context(
        project,
        role,
        vocabulary=vocabulary,
        form=form,
        rejected=rejected,
        problems=rejected.errors[:SHOWN_IMPORT_PROBLEMS] if rejected else (),
        hidden_problems=max(0, len(rejected.errors) - SHOWN_IMPORT_PROBLEMS) if rejected else 0,
        max_upload=upload_limit_text(),
    )
    status = 400 if rejected or form.errors else 200
    return render(request, "lexicon/vocabulary_update_new.html", context, status=status)


def _update_for(
    request: HttpRequest, project_id: int, vocabulary_id: int, update_id: int, needed: str = Role.VIEWER
) -> tuple[Project, str, Vocabulary, VocabularyUpdate]:
    """Return the project, the user's role, the vocabulary and its update the URL names (404 for
    another project's or vocabulary's, 403 for a role below `needed`)."""
    project, role = project_for(request, project_id, needed)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    return project, role, vocabulary, vocabulary_update_get(vocabulary=vocabulary, update_id=update_id)


@login_required
@require_GET
def vocabulary_update_detail(
    request: HttpRequest, project_id: int, vocabulary_id: int, update_id: int
) -> HttpResponse:
    """An update's page: the job while it reads or applies the file; then what the file adds,
    changes and removes, with Apply and Discard; or every problem of a refused file. For htmx,
    only that part (it reloads when the job ends)."""
    project, role, vocabulary, update = _update_for(request, project_id, vocabulary_id, update_id)
    job = update.apply_job or update.read_job
    context = page_context(
        project,
        role,
        vocabulary=vocabulary,
        update=update,
        summary=update.summary,
        job=job,
        poll_url=reverse("lexicon:job_status", args=[project.pk, job.pk]) if job is not None else "",
        problems=update.problems[:SHOWN_IMPORT_PROBLEMS],
        hidden_problems=max(0, len(update.problems) - SHOWN_IMPORT_PROBLEMS),
        undeclared=undeclared_problems(update),
    )
    if getattr(request, "htmx", False):
        return render(request, "lexicon/_vocabulary_update_status.html", context)
    return render(request, "lexicon/vocabulary_update_detail.html", context)


@login_required
@require_POST
def vocabulary_update_apply(
    request: HttpRequest, project_id: int, vocabulary_id: int, update_id: int
) -> HttpResponse:
    """Start applying a read update as the vocabulary's next version (editors)."""
    project, _, vocabulary, update = _update_for(request, project_id, vocabulary_id, update_id, Role.EDITOR)
    try:
        vocabulary_update_apply_start(update=update, created_by=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request,
            f"{update.file_name} is being applied. The vocabulary as it was is kept as an earlier version.",
        )
    return redirect("lexicon:vocabulary_update", project.pk, vocabulary.pk, update.pk)


@login_required
@require_POST
def vocabulary_update_discard_view(
    request: HttpRequest, project_id: int, vocabulary_id: int, update_id: int
) -> HttpResponse:
    """Discard an update that was not applied (editors); the vocabulary stays as it is."""
    project, _, vocabulary, update = _update_for(request, project_id, vocabulary_id, update_id, Role.EDITOR)
    try:
        vocabulary_update_discard(update=update)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("lexicon:vocabulary_update", project.pk, vocabulary.pk, update.pk)
    messages.success(request, f"{update.file_name} was discarded; “{vocabulary.name}” is unchanged.")
    return redirect("lexicon:vocabulary_detail", project.pk, vocabulary.pk)


@login_required
@require_GET
def vocabulary_version_download(
    request: HttpRequest, project_id: int, vocabulary_id: int, snapshot_id: int, fmt: str
) -> HttpResponse:
    """Download a kept version of the vocabulary: its table (csv) or its features (schema)."""
    project, _ = project_for(request, project_id)
    vocabulary = vocabulary_get(project=project, vocabulary_id=vocabulary_id)
    if fmt not in VERSION_FORMATS:
        raise Http404("A version downloads as csv or schema.")
    snapshot = vocabulary_version_get(vocabulary=vocabulary, snapshot_id=snapshot_id)
    content_type, extension = VERSION_FORMATS[fmt]
    response = HttpResponse(
        snapshot.items_text if fmt == "csv" else snapshot.schema_text, content_type=content_type
    )
    file_name = f"{snapshot.name}-{snapshot.content_hash[:8]}.{extension}"
    disposition = content_disposition_header(as_attachment=True, filename=file_name)
    assert disposition is not None  # None only for an inline response without a file name
    response["Content-Disposition"] = disposition
    return response
