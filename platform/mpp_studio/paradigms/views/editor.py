"""Pages of a project's templates: the list, a template and its versions, and the template editor.

The editor is one form (forms/editor.py). Without JavaScript each button posts the whole form to
the page, which re-renders; with htmx the buttons post to `editor_table` (the form's body comes
back) and every change posts to `editor_preview` (pairs, capacity and problems come back, each
problem also swapped in beside its row). Only "Save version" stores anything.
"""


from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from generator.document import DocumentError, document_from_text
from mpp_studio.accounts.models import Project
from mpp_studio.accounts.page_context import project_context
from mpp_studio.accounts.roles import Role, role_allows
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.accounts.users import signed_in_user
from mpp_studio.paradigms.editor_actions import new_state, state_after_action, state_settle
from mpp_studio.paradigms.editor_page import editor_page_context
from mpp_studio.paradigms.engine import template_fields
from mpp_studio.paradigms.forms.editor import (
    EditorState,
    FieldError,
    source_text_from_state,
    state_from_document,
    state_from_post,
)
from mpp_studio.paradigms.forms.preview import MAX_SEED, PreviewForm
from mpp_studio.paradigms.models import Template
from mpp_studio.paradigms.project_engine import project_vocabulary_for
from mpp_studio.paradigms.selectors_editor import (
    project_template_groups,
    template_get,
    template_page_get,
    vocabulary_first,
)
from mpp_studio.paradigms.services.editor import (
    EditorPreview,
    editor_preview,
    template_version_restore,
)
from mpp_studio.paradigms.services.project_templates import template_save

# -- the template list and a template's page --------------------------------------------------------


@login_required
@require_GET
def template_list(request: HttpRequest, project_id: int) -> HttpResponse:
    """The project's templates by language and phenomenon, with capacity and problem badges."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    context = project_context(request, project, active_tab="templates")
    context["groups"] = project_template_groups(project=project)
    context["can_edit"] = role_allows(str(context["role"]), Role.EDITOR)
    return render(request, "paradigms/editor/template_list.html", context)


@login_required
@require_GET
def template_detail(request: HttpRequest, project_id: int, template_id: int) -> HttpResponse:
    """A template: metadata, the latest version's YAML with its problems, a preview, the versions."""
    return _template_page(request, project_id, template_id, None)


@login_required
@require_GET
def template_version_detail(
    request: HttpRequest, project_id: int, template_id: int, number: int
) -> HttpResponse:
    """One saved version of a template, as the template page shows the latest."""
    return _template_page(request, project_id, template_id, number)


def _template_page(
    request: HttpRequest, project_id: int, template_id: int, number: int | None
) -> HttpResponse:
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    page = template_page_get(project=project, template_id=template_id, number=number)
    if page is None:
        raise Http404("This project has no such template or version.")
    form = PreviewForm(request.GET if "seed" in request.GET else {"seed": 0})
    seed = form.cleaned_data["seed"] if form.is_valid() else 0
    preview = editor_preview(project=project, source_text=page.version.source_text, seed=seed, table=False)
    problem_lines = {p.line for p in preview.problems if p.line is not None}
    lines = [
        (number, text, number in problem_lines)
        for number, text in enumerate(page.version.source_text.splitlines(), start=1)
    ]
    fields = template_fields(page.version.source_text)
    context = project_context(request, project, active_tab="templates")
    context.update(
        page=page,
        fields=fields,
        vocabulary=project_vocabulary_for(project, fields.vocabulary),
        template=page.template,
        version=page.version,
        form=form,
        preview=preview,
        source_lines=lines,
        can_edit=role_allows(str(context["role"]), Role.EDITOR),
    )
    return render(request, "paradigms/editor/template_detail.html", context)


@login_required
@require_POST
def template_version_restore_view(
    request: HttpRequest, project_id: int, template_id: int, number: int
) -> HttpResponse:
    """Save an old version's text as a new version (editors); nothing is overwritten."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    page = template_page_get(project=project, template_id=template_id, number=number)
    if page is None:
        raise Http404("This project has no such template or version.")
    try:
        version = template_version_restore(version=page.version, user=signed_in_user(request))
    except ValidationError as exc:
        messages.error(request, f"Version {number} was not restored: {' '.join(exc.messages)}")
        return redirect("project_paradigms:template_version", project.pk, page.template.pk, number)
    messages.success(
        request,
        f"Version {number} of {version.template.uid} was saved again as version {version.number}; "
        "every earlier version is kept.",
    )
    return redirect("project_paradigms:template_detail", project.pk, version.template.pk)


# -- the editor pages -------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def template_new(request: HttpRequest, project_id: int) -> HttpResponse:
    """The editor for a new template; saving creates it with version 1."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    if request.method == "POST":
        return _editor_post(request, project, None)
    vocabulary = vocabulary_first(project=project)
    state = new_state(
        vocabulary=vocabulary.name if vocabulary else "", language=vocabulary.language if vocabulary else ""
    )
    return _editor_page(request, project, None, state, [], None)


@login_required
@require_http_methods(["GET", "POST"])
def template_edit(request: HttpRequest, project_id: int, template_id: int) -> HttpResponse:
    """The editor for an existing template, opened on its latest version; saving adds a version.

    `?view=yaml` opens the text as it was written (comments and layout kept) in the YAML view.
    """
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    template = template_get(project=project, template_id=template_id)
    if template is None:
        raise Http404("This project has no such template.")
    if request.method == "POST":
        return _editor_post(request, project, template)
    latest = template.latest_version()
    text = latest.source_text if latest is not None else ""
    errors: list[FieldError] = []
    try:
        document = document_from_text(text)
    except DocumentError as exc:
        document = None
        where = f"line {exc.line}: " if exc.line is not None else ""
        errors.append(
            FieldError(
                "yaml_text",
                f"This version is shown as text: it cannot be read as a table ({where}{exc.message}).",
                line=exc.line,
            )
        )
    if document is None or request.GET.get("view") == "yaml":
        state = EditorState(mode="yaml", yaml_text=text)
    else:
        state = state_settle(state_from_document(document))
    preview, _ = _preview(project, state)
    return _editor_page(request, project, template, state, errors, preview, original_text=text)


def _editor_post(request: HttpRequest, project: Project, template: Template | None) -> HttpResponse:
    """Handle the editor form posted without JavaScript (any button) or its Save button."""
    state = state_from_post(request.POST)
    action = str(request.POST.get("action", ""))
    if action == "save":
        return _save(request, project, template, state)
    state, errors = state_after_action(state, action)
    preview, field_errors = _preview(project, state)
    return _editor_page(request, project, template, state, errors or field_errors, preview)


def _save(
    request: HttpRequest, project: Project, template: Template | None, state: EditorState
) -> HttpResponse:
    source_text, errors = source_text_from_state(state)
    if errors:
        messages.error(request, "Nothing was saved: the marked fields cannot be written as YAML yet.")
        return _editor_page(request, project, template, state, errors, None)
    try:
        version = template_save(
            project=project,
            source_text=source_text,
            user=signed_in_user(request),
            template=template,
            note=state.note.strip(),
        )
    except ValidationError as exc:
        named = exc.message_dict if hasattr(exc, "error_dict") else {"source_text": exc.messages}
        # The service names the text as a whole; what it says is about the uid.
        failures = [
            FieldError("uid" if name in ("source_text", "uid") else name, message)
            for name, texts in named.items()
            for message in texts
        ]
        messages.error(request, "Nothing was saved: " + " ".join(f.message for f in failures))
        return _editor_page(request, project, template, state, failures, _preview(project, state)[0])
    problems = len(version.problems)
    note = f" It has {problems} problem{'s' if problems != 1 else ''} to fix." if problems else ""
    messages.success(request, f"Saved version {version.number} of {version.template.uid}.{note}")
    return redirect("project_paradigms:template_detail", project.pk, version.template.pk)


@login_required
@require_POST
def editor_table(request: HttpRequest, project_id: int) -> HttpResponse:
    """htmx: apply an editor button (add, remove, move a row; table/YAML view) and return the form body."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    state, errors = state_after_action(state_from_post(request.POST), str(request.POST.get("action", "")))
    context = editor_page_context(request, project, None, state, errors, None)
    context["refresh_preview"] = True
    return render(request, "paradigms/editor/_body.html", context)


@login_required
@require_POST
def editor_preview_view(request: HttpRequest, project_id: int) -> HttpResponse:
    """htmx: pairs, capacity and problems of the form as it is now; each problem also beside its row."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    state = state_from_post(request.POST)
    preview, errors = _preview(project, state)
    context = editor_page_context(request, project, None, state, errors, preview, oob=True)
    return render(request, "paradigms/editor/_preview_response.html", context)


# -- helpers ----------------------------------------------------------------------------------------


def _seed(state: EditorState) -> int | None:
    try:
        seed = int(state.seed)
    except ValueError:
        return None
    return seed if 0 <= seed <= MAX_SEED else None


def _preview(project: Project, state: EditorState) -> tuple[EditorPreview, list[FieldError]]:
    """Return the preview of the form, and the fields that kept it from being made."""
    seed = _seed(state)
    if seed is None:
        return EditorPreview(0, message=f"The seed must be a whole number from 0 to {MAX_SEED}."), []
    source_text, errors = source_text_from_state(state)
    if errors:
        return EditorPreview(seed, message="Pairs appear here once the marked fields are fixed."), errors
    if not source_text.strip():
        return EditorPreview(seed, message="Write the template to see pairs."), []
    table = state.mode == "table"
    return editor_preview(project=project, source_text=source_text, seed=seed, table=table), []


def _editor_page(
    request: HttpRequest,
    project: Project,
    template: Template | None,
    state: EditorState,
    errors: list[FieldError],
    preview: EditorPreview | None,
    *,
    original_text: str = "",
) -> HttpResponse:
    context = editor_page_context(
        request, project, template, state, errors, preview, original_text=original_text
    )
    return render(request, "paradigms/editor/editor.html", context)
