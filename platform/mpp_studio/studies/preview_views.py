"""The researcher's preview of what a participant sees, mounted under
/projects/<project_id>/studies/<study_id>/preview/ (namespace `studies`): the consent page, the
instructions and every trial of a list, with the participant pages' own templates, script and
language, on a draft as on an open study.

Nothing is stored: no participation takes a place in a list, no answer is saved, nothing enters
the status panel or the analysis. The trials are those a participant on that list would get
(`build_schedule` with a fixed preview id); an answer is checked by the same rule as a real one
(`services.answer_check`) and its reply carries the next trial, so the script runs unchanged.

Viewers may preview (it changes nothing); non-members get 404.
"""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.selectors import project_get_for_user
from mpp_studio.studies.i18n import ui_strings
from mpp_studio.studies.models import Study
from mpp_studio.studies.participant_views import (
    answer_payload,
    practice_feedback,
    run_config,
    trial_payload,
)
from mpp_studio.studies.selectors import study_get
from mpp_studio.studies.services import ParticipantProblem, answer_check, completion_url, study_design
from study.design import StudyDesign
from study.order import ParticipantSchedule, build_schedule

PREVIEW_PARTICIPANT = "preview"  # the id the previewed order is drawn for
KIND_LABELS = (
    ("practice", "a practice trial"),
    ("experimental", "an item"),
    ("filler", "a filler"),
    ("catch", "a catch trial"),
)


def _study(request: HttpRequest, project_id: int, study_id: int) -> Study:
    project = project_get_for_user(user=request.user, project_id=project_id, needed=Role.VIEWER)
    return study_get(project=project, study_id=study_id)


def _whole(raw: str, default: int) -> int:
    """Return a query parameter's whole number (`default` when it is not one, or too long to be
    an index: Python refuses to read numbers of thousands of digits)."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else default


def _list_number(request: HttpRequest, design: StudyDesign) -> int:
    """Return the 1-based list the preview shows (`?list=`; the first when absent or not a list)."""
    number = _whole(request.GET.get("list", "1"), 1)
    return number if 1 <= number <= len(design.lists) else 1


def preview_schedule(design: StudyDesign, number: int) -> ParticipantSchedule:
    """Return the trials a participant on list `number` (from 1) gets in the preview."""
    return build_schedule(design, number - 1, PREVIEW_PARTICIPANT)


Previewed = tuple[Study, StudyDesign, int]


def _previewed(
    request: HttpRequest, project_id: int, study_id: int, *, json_answer: bool = False
) -> Previewed | HttpResponse:
    """Return the study, its design and the list asked for (`?list=`), or the page (or JSON)
    saying why the study cannot be previewed (it has no design)."""
    study = _study(request, project_id, study_id)
    try:
        design = study_design(study)
    except ValidationError as error:
        if json_answer:
            return JsonResponse({"error": " ".join(error.messages)}, status=400)
        context = _context(request, study, message=" ".join(error.messages))
        return render(request, "studies/participant/problem.html", context, status=400)
    return study, design, _list_number(request, design)


def _context(request: HttpRequest, study: Study, **extra: object) -> dict[str, object]:
    """The participant templates' context (the study's language) with the researcher's banner."""
    back = reverse("studies:study_detail", args=[study.project_id, study.pk])
    banner = {"back_url": back, "status": study.get_status_display()}
    return {
        "study": study,
        "lang": study.language,
        "t": ui_strings(study.language),
        "preview": banner,
        **extra,
    }


def _urls(study: Study, number: int) -> dict[str, str]:
    args = [study.project_id, study.pk]
    suffix = f"?list={number}"
    return {
        "run": reverse("studies:study_preview", args=args) + suffix,
        "consent": reverse("studies:study_preview_consent", args=args) + suffix,
        "trial": reverse("studies:study_preview_trial", args=args) + suffix,
        "answer": reverse("studies:study_preview_answer", args=args) + suffix,
        "done": reverse("studies:study_preview_done", args=args) + suffix,
        "withdraw": reverse("studies:study_preview_withdraw", args=args) + suffix,
    }


def _jumps(schedule: ParticipantSchedule, run_url: str) -> list[dict[str, str]]:
    """Return a link to the first trial of each kind the list has (practice, item, filler,
    catch), so every trial type can be looked at without answering the ones before."""
    jumps = []
    for kind, label in KIND_LABELS:
        first = next((t.trial_index for t in schedule.trials if t.kind == kind), None)
        if first is not None:
            jumps.append({"label": label, "url": f"{run_url}&start={first}", "number": str(first + 1)})
    return jumps


@never_cache
@login_required
@require_GET
def study_preview_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """The session page of one list (`?list=`), from its instructions (or from trial `?start=`,
    0-based), answered as a participant would; nothing is stored."""
    found = _previewed(request, project_id, study_id)
    if isinstance(found, HttpResponse):
        return found
    study, design, number = found
    schedule = preview_schedule(design, number)
    start = _whole(request.GET.get("start", "0"), 0)
    start = start if start < len(schedule.trials) else 0
    urls = _urls(study, number)
    config = run_config(study, {**urls, "trial": f"{urls['trial']}&index={start}"})
    lists = [
        {"number": str(n), "url": _urls(study, n)["run"], "current": n == number}
        for n in range(1, len(design.lists) + 1)
    ]
    context = _context(
        request,
        study,
        first=start == 0,
        config=config,
        withdraw_url=urls["withdraw"],
        preview_lists=lists,
        preview_jumps=_jumps(schedule, urls["run"]),
        consent_url=urls["consent"],
    )
    return render(request, "studies/participant/run.html", context)


@never_cache
@login_required
@require_GET
def study_preview_consent_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """The consent page as a participant reads it; its button goes on to the preview."""
    found = _previewed(request, project_id, study_id)
    if isinstance(found, HttpResponse):
        return found
    study, _, number = found
    run = reverse("studies:study_preview", args=[study.project_id, study.pk])
    # A form sent with GET replaces the action's query: the list travels as a field.
    context = _context(request, study, params={"list": str(number)}, preview_next=run)
    return render(request, "studies/participant/consent.html", context)


@never_cache
@login_required
@require_GET
def study_preview_trial_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """JSON: trial `?index=` (0-based) of the list's preview order, as the participant's script
    gets it."""
    found = _previewed(request, project_id, study_id, json_answer=True)
    if isinstance(found, HttpResponse):
        return found
    _, design, number = found
    schedule = preview_schedule(design, number)
    index = _whole(request.GET.get("index", "0"), 0)
    return JsonResponse(trial_payload(schedule, index if index < len(schedule.trials) else None))


@never_cache
@login_required
@require_POST
def study_preview_answer_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """JSON: check an answer as a real one is checked, store nothing, and reply with the next
    trial (and a practice trial's feedback), as the participant's script expects."""
    found = _previewed(request, project_id, study_id, json_answer=True)
    if isinstance(found, HttpResponse):
        return found
    study, design, number = found
    schedule = preview_schedule(design, number)
    strings = ui_strings(study.language)
    try:
        payload = answer_payload(request)
        index = payload.get("trial_index")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(schedule.trials):
            raise ParticipantProblem("error_title", 400, "trial_index is not a trial of this list")
        trial = schedule.trials[index]
        answer = answer_check(trial, payload)
    except ParticipantProblem as problem:
        message = strings.get(problem.code, strings["error_title"])
        return JsonResponse(
            {"error": f"{message} ({problem.detail})" if problem.detail else message}, status=400
        )
    following = index + 1 if index + 1 < len(schedule.trials) else None
    body: dict[str, object] = {
        "saved": {"trial_index": index, "choice": answer.ranking or answer.choice, "rating": answer.rating},
        "created": True,
        "next": trial_payload(schedule, following),
    }
    if trial.kind == "practice":
        body.update(practice_feedback(trial, answer.correct))
    if following is None:
        body["done_url"] = _urls(study, number)["done"]
    return JsonResponse(body, status=201)


@never_cache
@login_required
@require_GET
def study_preview_done_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """The end as a participant sees it: the completion code, or where they would be sent."""
    found = _previewed(request, project_id, study_id)
    if isinstance(found, HttpResponse):
        return found
    study, _, number = found
    urls = _urls(study, number)
    context = _context(
        request, study, withdraw_url=urls["withdraw"], redirect_to=completion_url(study), redirect_after=0
    )
    return render(request, "studies/participant/done.html", context)


@never_cache
@login_required
@require_GET
def study_preview_withdraw_view(request: HttpRequest, project_id: int, study_id: int) -> HttpResponse:
    """The withdrawal page as a participant reads it (its button does nothing in a preview)."""
    found = _previewed(request, project_id, study_id)
    if isinstance(found, HttpResponse):
        return found
    study, _, number = found
    urls = _urls(study, number)
    return render(
        request, "studies/participant/withdraw.html", _context(request, study, back_url=urls["run"])
    )
