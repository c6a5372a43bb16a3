"""Pages of a project's templates: the list, a template and its versions, and the template editor.

The editor is one form (forms/editor.py). Without JavaScript each button posts the whole form to
the page, which re-renders; with htmx the buttons post to `editor_table` (the form's body comes
back) and every change posts to `editor_preview` (pairs, capacity and problems come back, each
problem also swapped in beside its row). A moment after each change the form is also kept as the
user's draft (`editor_draft`), offered back when the editor is opened again; only the save
buttons store a version, and a version saved ends the draft.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
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
from mpp_studio.paradigms.models import Template, TemplateDraft
from mpp_studio.paradigms.project_engine import project_vocabulary_for
from mpp_studio.paradigms.selectors_editor import (
    draft_get,
    project_template_groups,
    template_get,
    template_page_get,
    template_versions,
    vocabulary_first,
)
from mpp_studio.paradigms.services.drafts import draft_discard, draft_save
from mpp_studio.paradigms.services.editor import (
    EditorPreview,
    editor_preview,
    template_version_restore,
)
from mpp_studio.paradigms.services.project_templates import template_save
from mpp_studio.paradigms.services.template_lifecycle import template_duplicate
from mpp_studio.paradigms.version_diff import text_diff

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


@login_required
@require_GET
def template_compare(request: HttpRequest, project_id: int, template_id: int) -> HttpResponse:
    """Two versions of a template (`?a=` older, `?b=` newer; the last two by default): the lines
    of YAML that changed, and the pairs each makes for one `?seed=`."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    template = template_get(project=project, template_id=template_id)
    if template is None:
        raise Http404("This project has no such template.")
    versions = {v.number: v for v in template_versions(template)}
    newest = max(versions)
    numbers = [request.GET.get(key, "") for key in ("a", "b")]
    chosen = [int(n) if n.isdigit() else None for n in numbers]
    b = chosen[1] if chosen[1] in versions else newest
    a = chosen[0] if chosen[0] in versions else max((n for n in versions if n < b), default=b)
    form = PreviewForm(request.GET if "seed" in request.GET else {"seed": 0})
    seed = form.cleaned_data["seed"] if form.is_valid() else 0
    older, newer = versions[a], versions[b]
    context = project_context(request, project, active_tab="templates")
    context.update(
        template=template,
        versions=sorted(versions.values(), key=lambda v: -v.number),
        older=older,
        newer=newer,
        diff=text_diff(older.source_text, newer.source_text),
        older_preview=editor_preview(project=project, source_text=older.source_text, seed=seed, table=False),
        newer_preview=editor_preview(project=project, source_text=newer.source_text, seed=seed, table=False),
        seed=seed,
        form=form,
        unknown=[n for n, c in zip(numbers, chosen, strict=True) if n and c not in versions],
    )
    return render(request, "paradigms/editor/template_compare.html", context)


@login_required
@require_POST
def template_duplicate_view(request: HttpRequest, project_id: int, template_id: int) -> HttpResponse:
    """Copy a template's latest version into a new template (editors) and open the copy's editor."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    template = template_get(project=project, template_id=template_id)
    if template is None:
        raise Http404("This project has no such template.")
    try:
        version = template_duplicate(template=template, user=signed_in_user(request))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("project_paradigms:template_detail", project.pk, template.pk)
    messages.success(
        request,
        f"{template.uid} was copied as {version.template.uid}; give the copy its own uid and edit it here. "
        f"{template.uid} is unchanged.",
    )
    return redirect("project_paradigms:template_edit", project.pk, version.template.pk)


# -- the editor pages -------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def template_new(request: HttpRequest, project_id: int) -> HttpResponse:
    """The editor for a new template; saving creates it with version 1."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    if request.method == "POST":
        return _editor_post(request, project, None)
    restored = _draft_restored(request, project, None)
    if restored is not None:
        return restored
    vocabulary = vocabulary_first(project=project)
    state = new_state(
        vocabulary=vocabulary.name if vocabulary else "", language=vocabulary.language if vocabulary else ""
    )
    return _editor_page(request, project, None, state, [], None, draft=_draft_offered(request, project, None))


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
    restored = _draft_restored(request, project, template)
    if restored is not None:
        return restored
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
    return _editor_page(
        request,
        project,
        template,
        state,
        errors,
        preview,
        original_text=text,
        draft=_draft_offered(request, project, template),
    )


def _draft_offered(request: HttpRequest, project: Project, template: Template | None) -> TemplateDraft | None:
    """The user's draft of this editor, to offer back (None: there is none)."""
    return draft_get(project=project, template=template, user=signed_in_user(request))


def _draft_restored(request: HttpRequest, project: Project, template: Template | None) -> HttpResponse | None:
    """With `?draft=restore`: the editor showing the user's draft, still not saved (None: no draft)."""
    if request.GET.get("draft") != "restore":
        return None
    draft = draft_get(project=project, template=template, user=signed_in_user(request))
    if draft is None:
        messages.info(request, "There is no draft to restore: it was saved or discarded.")
        return None
    state = state_from_post(draft.fields)
    state.seed = _seed_text(state)
    preview, errors = _preview(project, state)
    messages.info(
        request, "Your draft is back in the form. It is kept as you edit; save it to make it a version."
    )
    return _editor_page(request, project, template, state, errors, preview, dirty=True)


def _editor_post(request: HttpRequest, project: Project, template: Template | None) -> HttpResponse:
    """Handle the editor form posted without JavaScript (any button) or its Save button."""
    state = state_from_post(request.POST)
    action = str(request.POST.get("action", ""))
    if action in SAVE_ACTIONS:
        return _save(request, project, template, state, action)
    state, errors = state_after_action(state, action)
    preview, field_errors = _preview(project, state)
    return _editor_page(request, project, template, state, errors or field_errors, preview, dirty=True)


# The editor's save buttons: "save" adds a version (and asks first when the uid changed),
# "save-rename" adds one under the new uid, "save-copy" stores the form as a new template.
SAVE_ACTIONS = ("save", "save-rename", "save-copy")


def _save(
    request: HttpRequest, project: Project, template: Template | None, state: EditorState, action: str
) -> HttpResponse:
    source_text, errors = source_text_from_state(state)
    if errors:
        messages.error(request, "Nothing was saved: the marked fields cannot be written as YAML yet.")
        return _editor_page(request, project, template, state, errors, None, dirty=True)
    if template is not None and action == "save":
        uid = (template_fields(source_text).uid or "").strip()
        if uid and uid != template.uid:
            # A changed uid may mean "rename" or "this is a new paradigm": the author says which.
            preview, _ = _preview(project, state)
            return _editor_page(request, project, template, state, [], preview, uid_choice=uid, dirty=True)
        latest = template.latest_version()
        if latest is not None and latest.source_text == source_text:
            # Another version with the same text would only bury the history.
            draft_discard(project=project, template=template, user=signed_in_user(request))
            messages.info(request, f"Nothing changed since version {latest.number}: no version was added.")
            return redirect("project_paradigms:template_detail", project.pk, template.pk)
    old_uid = template.uid if template is not None else ""
    try:
        version = template_save(
            project=project,
            source_text=source_text,
            user=signed_in_user(request),
            template=None if action == "save-copy" else template,
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
        preview, _ = _preview(project, state)
        return _editor_page(request, project, template, state, failures, preview, dirty=True)
    draft_discard(project=project, template=template, user=signed_in_user(request))
    problems = len(version.problems)
    note = f" It has {problems} problem{'s' if problems != 1 else ''} to fix." if problems else ""
    if template is not None and version.template.pk != template.pk:
        saved = f"Saved {version.template.uid} as a new template (version 1); {old_uid} is unchanged."
    elif old_uid and version.template.uid != old_uid:
        saved = f"Saved version {version.number} of {version.template.uid} (renamed from {old_uid})."
    else:
        saved = f"Saved version {version.number} of {version.template.uid}."
    messages.success(request, saved + note)
    return redirect("project_paradigms:template_detail", project.pk, version.template.pk)


@login_required
@require_POST
def editor_table(request: HttpRequest, project_id: int) -> HttpResponse:
    """htmx: apply an editor button (add, remove, move a row; table/YAML view) and return the form body."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    state, errors = state_after_action(state_from_post(request.POST), str(request.POST.get("action", "")))
    if state.meta["vocabulary"] != request.POST.get("vocabulary_drawn", state.meta["vocabulary"]):
        # Another vocabulary was chosen: the template's language follows it (a Chinese vocabulary
        # under `en` would print its words with spaces between them).
        chosen = project_vocabulary_for(project, state.meta["vocabulary"])
        if chosen is not None and chosen.language:
            state.meta["language"] = chosen.language
    context = editor_page_context(request, project, None, state, errors, None)
    # A button that could not act (a YAML text the table cannot show) left the template as it
    # was: its preview stands, and a new one would sweep the reason from beside the field.
    context["refresh_preview"] = not errors
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


@login_required
@require_POST
def editor_draft(request: HttpRequest, project_id: int) -> HttpResponse:
    """The editor's form as it is now, kept as the user's draft (`draft_of`: the template's id,
    empty for a new template); answers with a short status line."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    template = _draft_template(project, request.POST.get("draft_of", ""))
    try:
        draft = draft_save(
            project=project, template=template, user=signed_in_user(request), fields=request.POST.dict()
        )
    except ValidationError as exc:
        return HttpResponse(" ".join(exc.messages), status=413, content_type="text/plain; charset=utf-8")
    kept_at = timezone.localtime(draft.updated_at).strftime("%H:%M:%S")
    return HttpResponse(f"Draft kept at {kept_at}", content_type="text/plain; charset=utf-8")


@login_required
@require_POST
def editor_draft_discard(request: HttpRequest, project_id: int) -> HttpResponse:
    """Drop the user's draft of a template (`draft_of`) and open its editor on the latest version."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    template = _draft_template(project, request.POST.get("draft_of", ""))
    draft_discard(project=project, template=template, user=signed_in_user(request))
    messages.info(request, "The draft was discarded.")
    if template is None:
        return redirect("project_paradigms:template_new", project.pk)
    return redirect("project_paradigms:template_edit", project.pk, template.pk)


def _draft_template(project: Project, draft_of: str) -> Template | None:
    """The template a draft belongs to: `draft_of` is its id, or empty for a new template."""
    if not draft_of:
        return None
    template = template_get(project=project, template_id=int(draft_of)) if draft_of.isdigit() else None
    if template is None:
        raise Http404("This project has no such template.")
    return template


# -- helpers ----------------------------------------------------------------------------------------


def _seed_text(state: EditorState) -> str:
    return str(_seed(state) or 0)


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
    uid_choice: str = "",
    draft: TemplateDraft | None = None,
    dirty: bool = False,
) -> HttpResponse:
    """The editor page. `draft`: a draft to offer back; `dirty`: the form holds what no version
    has (a restored draft, a form posted back), so leaving asks first from the start."""
    context = editor_page_context(
        request, project, template, state, errors, preview, original_text=original_text
    )
    context.update(uid_choice=uid_choice, draft=draft, dirty=dirty)
    return render(request, "paradigms/editor/editor.html", context)
