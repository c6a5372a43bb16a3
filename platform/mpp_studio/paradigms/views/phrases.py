"""Pages of a project's phrases: the list, one phrase (read, or edit for editors), new, delete."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.page_context import project_context
from mpp_studio.accounts.roles import Role, role_allows
from mpp_studio.accounts.selectors import project_get_for_user, role_of
from mpp_studio.paradigms.forms.phrases import TEXT_EXAMPLE, PhraseForm
from mpp_studio.paradigms.models import Phrase
from mpp_studio.paradigms.selectors import (
    phrase_alternative_count,
    phrase_get,
    phrase_list_get,
    phrase_users_get,
    template_recheck_list,
)
from mpp_studio.paradigms.services.phrases import (
    PhraseChange,
    PhraseInUseError,
    phrase_create,
    phrase_delete,
    phrase_update,
)


def _phrase(project: Project, phrase_id: int) -> Phrase:
    phrase = phrase_get(project=project, phrase_id=phrase_id)
    if phrase is None:
        raise Http404("No phrase with this id in this project.")
    return phrase


def _context(request: HttpRequest, project: Project, **extra: object) -> dict[str, object]:
    return project_context(request, project, active_tab="phrases", text_example=TEXT_EXAMPLE, **extra)


def _report_rechecks(request: HttpRequest, change: PhraseChange) -> None:
    """Say which templates that use the phrase have problems now, or that they are all fine."""
    count = len(change.rechecks)
    broken = change.broken
    uids = ", ".join(r.template.uid for r in broken)
    if count == 1 and broken:
        messages.warning(
            request,
            f"The template that uses phrase '{change.phrase.name}' now has problems: {uids}. "
            "Its problems are listed below; open the template to fix them.",
        )
    elif broken:
        messages.warning(
            request,
            f"{len(broken)} of the {count} templates that use phrase '{change.phrase.name}' now have "
            f"problems: {uids}. Their problems are listed below.",
        )
    elif count:
        messages.info(
            request,
            f"{'The template' if count == 1 else f'All {count} templates'} that use phrase "
            f"'{change.phrase.name}' {'was' if count == 1 else 'were'} checked again: no problems.",
        )


@login_required
@require_GET
def phrase_list(request: HttpRequest, project_id: int) -> HttpResponse:
    """Every phrase of the project, its number of alternatives and the templates that use it."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    return render(
        request,
        "paradigms/phrases/phrase_list.html",
        _context(request, project, rows=phrase_list_get(project=project)),
    )


@login_required
@require_http_methods(["GET", "POST"])
def phrase_new(request: HttpRequest, project_id: int) -> HttpResponse:
    """Create a phrase; the engine reads its alternatives first and names the line of each problem."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    form = PhraseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            change = phrase_create(project=project, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, f"Phrase '{change.phrase.name}' was created.")
            _report_rechecks(request, change)
            return redirect("project_paradigms:phrase_detail", project.pk, change.phrase.pk)
    return render(
        request, "paradigms/phrases/phrase_form.html", _context(request, project, form=form, phrase=None)
    )


@login_required
@require_http_methods(["GET", "POST"])
def phrase_detail(request: HttpRequest, project_id: int, phrase_id: int) -> HttpResponse:
    """One phrase: its alternatives, and the templates that use it checked again now.

    Editors change it here; after a change the templates that use it are checked again, and the
    ones that now have problems are named.
    """
    needed = Role.EDITOR if request.method == "POST" else Role.VIEWER
    project = project_get_for_user(user=request.user, project_id=project_id, needed=needed)
    phrase = _phrase(project, phrase_id)
    can_edit = role_allows(role_of(user=request.user, project=project), Role.EDITOR)
    initial = {"name": phrase.name, "text": phrase.text, "description": phrase.description}
    form = PhraseForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            change = phrase_update(phrase=phrase, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
            phrase.refresh_from_db()
        else:
            messages.success(request, f"Phrase '{change.phrase.name}' was saved.")
            _report_rechecks(request, change)
            return redirect("project_paradigms:phrase_detail", project.pk, phrase.pk)
    users = phrase_users_get(project=project, names=[phrase.name])
    return render(
        request,
        "paradigms/phrases/phrase_form.html",
        _context(
            request,
            project,
            form=form,
            phrase=phrase,
            can_edit=can_edit,
            alternative_count=phrase_alternative_count(phrase),
            rechecks=template_recheck_list(project=project, templates=users),
        ),
    )


@login_required
@require_http_methods(["GET", "POST"])
def phrase_remove(request: HttpRequest, project_id: int, phrase_id: int) -> HttpResponse:
    """Delete a phrase after confirmation; refused, naming them, while templates use it."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.EDITOR)
    phrase = _phrase(project, phrase_id)
    if request.method == "POST":
        try:
            phrase_delete(phrase=phrase)
        except PhraseInUseError as exc:
            messages.error(request, exc.messages[0])
        else:
            messages.success(request, f"Phrase '{phrase.name}' was deleted.")
            return redirect("project_paradigms:phrase_list", project.pk)
    users = phrase_users_get(project=project, names=[phrase.name])
    status = 409 if request.method == "POST" else 200
    return render(
        request,
        "paradigms/phrases/phrase_delete.html",
        _context(request, project, phrase=phrase, users=users),
        status=status,
    )
