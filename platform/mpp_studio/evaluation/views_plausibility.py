"""The least plausible good sentences of a dataset's paradigm (viewers and up), read from stored
causal scores: a section of the paradigm's quality page (loaded by htmx, since the datasets app
sits below this one) or, without htmx, a page of its own."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.datasets.selectors import dataset_get, dataset_paradigms
from mpp_studio.evaluation.plausibility import paradigm_plausibility
from mpp_studio.evaluation.views_support import page_context


@login_required
@require_GET
def plausibility_view(request: HttpRequest, project_id: int, dataset_id: int, uid: str) -> HttpResponse:
    """The paradigm's least plausible good sentences under the causal configuration `config`
    (a query value; the first one when missing or unknown), each linked to its pair."""
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    dataset = dataset_get(project=project, dataset_id=dataset_id)
    paradigm = dataset_paradigms(dataset=dataset).filter(uid=uid).first()
    if paradigm is None:
        raise Http404("No such paradigm in this dataset.")
    raw = request.GET.get("config", "")
    config_id = int(raw) if raw.isdigit() and len(raw) < 19 else None
    check = paradigm_plausibility(dataset=dataset, paradigm=paradigm, config_id=config_id)
    context = page_context(request, project, dataset=dataset, paradigm=paradigm, check=check)
    partial = bool(getattr(request, "htmx", False))
    template = "evaluation/_plausibility.html" if partial else "evaluation/plausibility.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response
