"""Pages for grammar templates: the library home page and one paradigm's page."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from mpp_studio.paradigms.forms import PreviewForm
from mpp_studio.paradigms.selectors import template_detail_get, template_library_overview
from mpp_studio.paradigms.services import template_preview


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """The paradigm library: the newest version of each template, by language and phenomenon."""
    languages = template_library_overview()
    return render(
        request,
        "paradigms/home.html",
        {
            "languages": languages,
            "template_count": sum(language.template_count for language in languages),
        },
    )


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
    return render(request, "paradigms/detail.html", {"detail": detail, "form": form, "preview": preview})
