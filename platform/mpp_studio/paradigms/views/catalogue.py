"""Pages for grammar templates: the library home page and one paradigm's page."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from mpp_studio.paradigms.forms.preview import PreviewForm
from mpp_studio.paradigms.selectors import (
    library_filter_choices,
    library_overview_get,
    projects_editable_by,
    template_detail_get,
)
from mpp_studio.paradigms.services import template_preview


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The paradigm library: the newest version of each template, by language and phenomenon.

    `?language=` and `?phenomenon=` filter it; an htmx request gets only the list. Paradigms can
    be chosen and imported into a project the user edits.
    """
    choices = library_filter_choices()
    language = _choice(request.GET.get("language", ""), choices.languages)
    phenomenon = _choice(request.GET.get("phenomenon", ""), choices.phenomena)
    languages = library_overview_get(language=language, phenomenon=phenomenon)
    context = {
        "languages": languages,
        "template_count": sum(group.template_count for group in languages),
        "choices": choices,
        "language": language,
        "phenomenon": phenomenon,
        "filtered": bool(language or phenomenon),
        "projects": list(projects_editable_by(user=request.user)),
    }
    partial = request.headers.get("HX-Request") == "true"
    template = "paradigms/library/_results.html" if partial else "paradigms/home.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _choice(value: str, choices: list[tuple[str, str]]) -> str:
    """Return the value if it is one of the choices, else "" (no filter)."""
    value = value.strip()
    return value if any(value == option for option, _ in choices) else ""


@login_required
@require_GET
def template_detail(request: HttpRequest, template_id: int) -> HttpResponse:
    """One template version: metadata, YAML, problems and a preview of pairs for `?seed=`."""
    detail = template_detail_get(template_id=template_id)
    if detail is None:
        raise Http404("No paradigm has this id.")
    form = PreviewForm(request.GET if "seed" in request.GET else {"seed": 0})
    preview = (
        template_preview(template=detail.template, seed=form.cleaned_data["seed"])
        if form.is_valid()
        else None
    )
    return render(
        request,
        "paradigms/detail.html",
        {
            "detail": detail,
            "form": form,
            "preview": preview,
            "projects": list(projects_editable_by(user=request.user)),
        },
    )
