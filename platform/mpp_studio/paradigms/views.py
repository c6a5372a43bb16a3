"""Pages for grammar templates."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from mpp_studio.paradigms.selectors import template_library_overview


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
