"""The participant's pages, public (no sign-in), mounted at /s/ (namespace `studies_public`).

    GET  /s/<slug>/                       consent page (PROLIFIC_PID, STUDY_ID, SESSION_ID captured)
    POST /s/<slug>/                       consent given: create or resume the participation
    GET  /s/<slug>/run/<token>/           instructions, then the trials (one at a time)
    GET  /s/<slug>/run/<token>/trial/     JSON: the next trial's public view (or done)
    POST /s/<slug>/run/<token>/answer/    JSON: save {trial_index, choice, confidence, rt_ms}
    GET  /s/<slug>/run/<token>/done/      the completion code (or the Prolific redirect)
    GET/POST /s/<slug>/run/<token>/withdraw/  confirm, then delete the answers

Rate limits (core/ratelimit.py, 429 with Retry-After): consents per client address (hashed,
MPP_RATE_LIMIT_STUDY_START, high: a classroom shares one address); answers
(MPP_RATE_LIMIT_ANSWER) and the other token pages (MPP_RATE_LIMIT_PARTICIPANT_PAGE) per
participation only, never per address, so participants behind one NAT never slow each other.

Every endpoint reads the participation from the signed token only (see tokens.py), sends only
`Trial.public_view()` (never the gold answer, paradigm, item id or trial kind), and answers
every problem with a page (or JSON) in plain words in the study's language, never a 500.
"""

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mpp_studio.core import ratelimit
from mpp_studio.core.database_outage import BUSY_RETRY_AFTER_S
from mpp_studio.studies.i18n import ui_strings
from mpp_studio.studies.models import Participation, Study
from mpp_studio.studies.selectors import study_by_slug
from mpp_studio.studies.services import (
    ParticipantProblem,
    completion_url,
    next_trial_index,
    participation_of_pid,
    participation_seen,
    participation_start,
    participation_withdraw,
    pid_hash,
    places_problem,
    prolific_study_id_problem,
    response_save,
    scale_labels_of,
    schedule_of,
)
from mpp_studio.studies.tokens import (
    TOKEN_MAX_AGE,
    cookie_name,
    participant_token,
    participation_from_token,
)
from study.order import ParticipantSchedule, Trial

PARAMS = ("PROLIFIC_PID", "STUDY_ID", "SESSION_ID")
REDIRECT_AFTER_S = 3  # seconds the completion page shows before going on to Prolific
MAX_ANSWER_BYTES = 4096  # an answer is a few numbers; anything longer is not one


def _param(value: object) -> str:
    """Return a Prolific URL parameter as stored and compared: without control characters
    (PostgreSQL refuses a NUL), trimmed, at most 100 characters."""
    text = "".join(c for c in str(value or "") if c.isprintable())
    return text.strip()[:100]


def _no_constant(name: str) -> object:
    """Refuse NaN and Infinity, which Python's JSON reader takes and JSON does not have."""
    raise ValueError(f"{name} is not a JSON number")


def _context(study: Study | None, **extra: object) -> dict[str, object]:
    language = study.language if study is not None else "en"
    return {"study": study, "lang": language, "t": ui_strings(language), **extra}


# Problems that going back to the study's start cannot mend (its link would loop).
FINAL_PROBLEMS = frozenset(
    {"not_open", "prolific_only", "wrong_study_id", "started_elsewhere", "full", "full_for_now"}
)


def _problem_page(request: HttpRequest, study: Study | None, problem: ParticipantProblem) -> HttpResponse:
    strings = ui_strings(study.language if study is not None else "en")
    message = strings.get(problem.code, strings["error_title"])
    linked = study is not None and problem.code not in FINAL_PROBLEMS
    restart_url = reverse("studies_public:start", args=[study.slug]) if linked and study is not None else ""
    title = strings.get(f"{problem.code}_title", strings["error_title"])
    context = _context(study, message=message, title=title, detail=problem.detail, restart_url=restart_url)
    status = problem.status if problem.status >= 400 else 400
    response = render(request, "studies/participant/problem.html", context, status=status)
    if status == 503:
        response["Retry-After"] = "1"
    return response


def _json_problem(study: Study, problem: ParticipantProblem) -> JsonResponse:
    strings = ui_strings(study.language)
    message = strings.get(problem.code, strings["error_title"])
    if problem.detail:
        message = f"{message} ({problem.detail})"
    status = problem.status if problem.status >= 400 else 400
    return JsonResponse(
        {"error": message, "restart_url": reverse("studies_public:start", args=[study.slug])}, status=status
    )


def _study_or_page(request: HttpRequest, slug: str) -> Study | HttpResponse:
    study = study_by_slug(slug)
    if study is None:
        return _problem_page(request, None, ParticipantProblem("not_found", 404))
    if study.status == Study.Status.DRAFT:
        # In the study's own language; the researcher tries a draft with its preview link.
        return _problem_page(request, study, ParticipantProblem("not_open", 404))
    return study


def _run_url(study: Study, participation: Participation) -> str:
    return reverse("studies_public:run", args=[study.slug, participant_token(participation)])


def _done_page(request: HttpRequest, study: Study, participation: Participation) -> HttpResponse:
    # With a completion URL the page goes on there by itself after a moment (no script needed),
    # showing the code and the way to withdraw first; without one it shows the code.
    token = participant_token(participation)
    withdraw = reverse("studies_public:withdraw", args=[study.slug, token])
    context = _context(
        study,
        participation=participation,
        token=token,
        withdraw_url=withdraw,
        redirect_to=completion_url(study),
        redirect_after=REDIRECT_AFTER_S,
    )
    return render(request, "studies/participant/done.html", context)


Handler = Callable[..., HttpResponseBase]


def _limited_page(request: HttpRequest, study: Study | None, wait: int) -> HttpResponse:
    context = _context(study, message=ratelimit.too_many_message(wait), detail="", restart_url="")
    response = render(request, "studies/participant/problem.html", context)
    return ratelimit.with_retry_after(response, wait)


def _participant_wait(request: HttpRequest, participation: Participation, view_name: str) -> int | None:
    """Count one request of this participation to `view_name`; return the seconds to wait when
    over its rate (answers: MPP_RATE_LIMIT_ANSWER; other pages: MPP_RATE_LIMIT_PARTICIPANT_PAGE)."""
    if view_name == "answer_view":
        rate = ratelimit.setting_rate("MPP_RATE_LIMIT_ANSWER", "120/m")
    else:
        rate = ratelimit.setting_rate("MPP_RATE_LIMIT_PARTICIPANT_PAGE", "60/m")
    key = ratelimit.secret_hash("participation", str(participation.pk))
    return ratelimit.hit(f"participant:{view_name}", key, rate)


def with_participation(json_answer: bool) -> Callable[[Handler], Handler]:
    """Decorate a view taking (request, study, participation): the study from the slug, the
    participation from the token, every problem as a page (or JSON) in plain words."""

    def decorate(view: Handler) -> Handler:
        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, token: str) -> HttpResponseBase:
            study = study_by_slug(slug)
            if study is None or study.status == Study.Status.DRAFT:
                problem = ParticipantProblem("not_found" if study is None else "not_open", 404)
                language = study.language if study is not None else "en"
                if json_answer:
                    return JsonResponse({"error": ui_strings(language)[problem.code]}, status=404)
                return _problem_page(request, study, problem)
            try:
                participation = participation_from_token(study=study, token=token)
                wait = _participant_wait(request, participation, view.__name__)
                if wait is not None:
                    if json_answer:
                        return ratelimit.too_many_json(wait)
                    return _limited_page(request, study, wait)
                return view(request, study, participation)
            except OperationalError:
                # The database is busy (SQLite under many writers): the page's script retries.
                problem = ParticipantProblem("busy", 503)
                busy = (
                    _json_problem(study, problem) if json_answer else _problem_page(request, study, problem)
                )
                busy["Retry-After"] = str(BUSY_RETRY_AFTER_S)
                return busy
            except ParticipantProblem as problem:
                if json_answer:
                    return _json_problem(study, problem)
                if problem.code == "withdrawn_text":
                    return _withdrawn_page(request, study)
                return _problem_page(request, study, problem)

        return wrapped

    return decorate


@never_cache
@require_http_methods(["GET", "POST"])
def start_view(request: HttpRequest, slug: str) -> HttpResponseBase:
    """GET: the consent page (or straight back to one's own session when this browser holds its
    token, or when the Prolific ID comes back from the Prolific session it started in); POST:
    consent given, create or resume the participation and go to its trials.

    A Prolific ID alone never opens a participation: anyone may know it. Who cannot start is
    told so on landing (wrong or missing STUDY_ID, closed, full), before reading the consent."""
    found = _study_or_page(request, slug)
    if isinstance(found, HttpResponse):
        return found
    study = found
    if request.method == "POST":
        rate = ratelimit.setting_rate("MPP_RATE_LIMIT_STUDY_START", "300/m")
        wait = ratelimit.hit("study_start", ratelimit.client_key(request), rate)
        if wait is not None:
            return _limited_page(request, study, wait)
    source = request.POST if request.method == "POST" else request.GET
    params = {name: _param(source.get(name, "")) for name in PARAMS}
    try:
        wrong_link = prolific_study_id_problem(study, params["STUDY_ID"])
        if wrong_link is not None:
            raise wrong_link
        if request.method == "GET":
            resumed = _resume_from_cookie(request, study, params["PROLIFIC_PID"])
            if resumed is not None:
                return resumed
            returning = participation_of_pid(study=study, prolific_pid=params["PROLIFIC_PID"])
            if returning is not None:
                # A PID that has consented before (another browser, a closed tab): resumed with
                # no second consent when it comes from the same Prolific session, else refused.
                participation = participation_start(
                    study=study,
                    prolific_pid=params["PROLIFIC_PID"],
                    study_id=params["STUDY_ID"],
                    session_id=params["SESSION_ID"],
                    consent_version=returning.consent_version,
                )
                response = redirect(_run_url(study, participation))
                _set_cookie(request, response, study, participation)
                return response
            no_place = places_problem(study=study)
            if not study.is_open:  # closed because every list is full: say so
                full = no_place is not None and no_place.code == "full"
                raise no_place if full and no_place is not None else ParticipantProblem("not_open", 403)
            if no_place is not None:
                raise no_place
            return render(request, "studies/participant/consent.html", _context(study, params=params))
        if source.get("consent") != "yes":
            context = _context(study, params=params, consent_error=True)
            return render(request, "studies/participant/consent.html", context, status=400)
        participation = participation_start(
            study=study,
            prolific_pid=params["PROLIFIC_PID"],
            study_id=params["STUDY_ID"],
            session_id=params["SESSION_ID"],
            consent_version=str(source.get("consent_version", "")),
        )
    except OperationalError:
        if request.method == "POST":
            # The consent was given and stays given: the page comes back with it ticked and one
            # button that sends it again. Nobody reads and ticks the consent twice.
            context = _context(study, params=params, busy=True)
            busy = render(request, "studies/participant/consent.html", context, status=503)
            busy["Retry-After"] = str(BUSY_RETRY_AFTER_S)
            return busy
        return _problem_page(request, study, ParticipantProblem("busy", 503))
    except ParticipantProblem as problem:
        if problem.code == "already_done":
            return _already_done(request, study)
        if problem.code == "withdrawn_text":
            return _withdrawn_page(request, study)
        return _problem_page(request, study, problem)
    response = redirect(_run_url(study, participation))
    _set_cookie(request, response, study, participation)
    return response


def _already_done(request: HttpRequest, study: Study) -> HttpResponse:
    return render(request, "studies/participant/already_done.html", _context(study))


def _withdrawn_page(request: HttpRequest, study: Study) -> HttpResponse:
    """The page a withdrawn participant sees on any return: they withdrew, nothing to do."""
    return render(request, "studies/participant/withdrawn.html", _context(study), status=403)


def _set_cookie(
    request: HttpRequest, response: HttpResponseBase, study: Study, participation: Participation
) -> None:
    response.set_cookie(
        cookie_name(study),
        participant_token(participation),
        max_age=TOKEN_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
        path=reverse("studies_public:start", args=[study.slug]),
    )


def _resume_from_cookie(request: HttpRequest, study: Study, pid: str) -> HttpResponse | None:
    """Return a redirect to this browser's own session of the study, if its cookie holds a valid
    token whose participant is still working (and has the same PID, when one is given)."""
    token = request.COOKIES.get(cookie_name(study))
    if not token:
        return None
    try:
        participation = participation_from_token(study=study, token=token)
    except ParticipantProblem:
        return None
    if participation.status == Participation.Status.WITHDRAWN:
        return None
    if pid and participation.pid_hash != pid_hash(pid):
        return None
    if participation.status == Participation.Status.COMPLETED:
        return _already_done(request, study)
    return redirect(_run_url(study, participation))


# The interface strings the session page's script needs.
CLIENT_STRINGS = (
    "question_2afc",
    "question_rank3",
    "rank_reset",
    "confidence_question",
    "confidence_1",
    "confidence_2",
    "confidence_3",
    "progress",
    "practice",
    "feedback_right",
    "feedback_wrong",
    "next",
    "saving",
    "retrying",
    "waiting",
    "save_failed",
    "trial_label",
    "question_rating",
    "question_magnitude",
    "scale_point",
    "magnitude_reference",
    "magnitude_label",
    "magnitude_hint",
    "magnitude_invalid",
    "feedback_high",
    "feedback_low",
)


def run_config(study: Study, urls: dict[str, str]) -> dict[str, object]:
    """Return the session page script's configuration: where to fetch trials and post answers,
    its strings in the study's language, and a rating scale's labels."""
    strings = ui_strings(study.language)
    return {
        "urls": urls,
        "strings": {k: strings[k] for k in CLIENT_STRINGS},
        "lang": study.language,
        "scale_labels": scale_labels_of(study) if study.task == Study.Task.RATING else [],
    }


@never_cache
@require_GET
@with_participation(json_answer=False)
def run_view(request: HttpRequest, study: Study, participation: Participation) -> HttpResponseBase:
    """The session page: instructions (before the first answer), then one trial at a time,
    fetched and answered with JavaScript; the token in the URL makes a reload resume."""
    if participation.status == Participation.Status.WITHDRAWN:
        raise ParticipantProblem("withdrawn_text", 403)
    if participation.status == Participation.Status.COMPLETED:
        return redirect("studies_public:done", slug=study.slug, token=participant_token(participation))
    participation_seen(participation=participation)
    token = participant_token(participation)
    urls = {
        "trial": reverse("studies_public:trial", args=[study.slug, token]),
        "answer": reverse("studies_public:answer", args=[study.slug, token]),
        "done": reverse("studies_public:done", args=[study.slug, token]),
    }
    context = _context(
        study,
        participation=participation,
        token=token,
        withdraw_url=reverse("studies_public:withdraw", args=[study.slug, token]),
        first=next_trial_index(participation) == 0,
        config=run_config(study, urls),
    )
    response = render(request, "studies/participant/run.html", context)
    _set_cookie(request, response, study, participation)
    return response


def practice_feedback(trial: Trial, agreed: bool) -> dict[str, str]:
    """Return what a practice answer's reply adds: "feedback" (right or wrong) and, for a rated
    trial, the end of the scale most people put its sentence at (told after the answer only)."""
    feedback = {"feedback": "right" if agreed else "wrong"}
    if trial.rated:
        feedback["expected"] = trial.expected
    return feedback


def _trial_payload(participation: Participation, index: int | None) -> dict[str, Any]:
    """Return the JSON of the participation's trial to show (see trial_payload)."""
    return trial_payload(schedule_of(participation), index)


def trial_payload(schedule: ParticipantSchedule, index: int | None) -> dict[str, Any]:
    """Return the JSON of the trial to show: its public view, its number and the total (or
    {"done": true} when `index` is None)."""
    total = len(schedule.trials)
    if index is None:
        return {"done": True, "total": total}
    trial = schedule.trials[index]
    return {
        "done": False,
        "total": total,
        "number": index + 1,
        "practice": trial.kind == "practice",
        "trial": trial.public_view(),
    }


@never_cache
@require_GET
@with_participation(json_answer=True)
def trial_view(request: HttpRequest, study: Study, participation: Participation) -> HttpResponseBase:
    """JSON: the first unanswered trial (a resumed session starts there), or {"done": true}."""
    if participation.status == Participation.Status.WITHDRAWN:
        raise ParticipantProblem("withdrawn_text", 403)
    participation_seen(participation=participation)
    return JsonResponse(_trial_payload(participation, next_trial_index(participation)))


def answer_payload(request: HttpRequest) -> dict[str, Any]:
    """Return a posted answer's JSON object, or a ParticipantProblem (400) when the body is
    too long, not JSON (NaN and Infinity included, or nested too deep) or not an object."""
    if len(request.body) > MAX_ANSWER_BYTES:
        raise ParticipantProblem("error_title", 400, f"the answer is longer than {MAX_ANSWER_BYTES} bytes")
    try:
        payload = json.loads(request.body.decode("utf-8") or "{}", parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        # RecursionError: JSON nested thousands of levels deep.
        raise ParticipantProblem("error_title", 400, "the answer is not JSON") from None
    if not isinstance(payload, dict):
        raise ParticipantProblem("error_title", 400, "the answer is not a JSON object")
    return payload


# The token in the URL, not a cookie, authorises the answer, so CSRF (which protects cookie
# sessions) does not apply; the browser still sends the CSRF header.
@csrf_exempt
@never_cache
@require_POST
@with_participation(json_answer=True)
def answer_view(request: HttpRequest, study: Study, participation: Participation) -> HttpResponseBase:
    """JSON: save an answer ({trial_index, choice, confidence, rt_ms}); 201 when new, 200 with
    the saved answer when the trial had been answered; then the next trial (or done)."""
    payload = answer_payload(request)
    outcome = response_save(participation=participation, payload=payload)
    saved = outcome.response
    body: dict[str, Any] = {
        "saved": {
            "trial_index": saved.trial_index,
            "choice": saved.ranking if saved.ranking else saved.choice,
            "rating": saved.rating,
            "confidence": saved.confidence,
        },
        "created": outcome.created,
        "next": _trial_payload(participation, next_trial_index(participation)),
    }
    if outcome.feedback is not None:
        body.update(practice_feedback(schedule_of(participation).trials[saved.trial_index], outcome.feedback))
    if outcome.completed:
        body["done_url"] = reverse("studies_public:done", args=[study.slug, participant_token(participation)])
    return JsonResponse(body, status=201 if outcome.created else 200)


@never_cache
@require_GET
@with_participation(json_answer=False)
def done_view(request: HttpRequest, study: Study, participation: Participation) -> HttpResponseBase:
    """The end: the completion code (or the redirect to Prolific), only once the server has
    every answer; before that, back to the trials."""
    if participation.status == Participation.Status.WITHDRAWN:
        raise ParticipantProblem("withdrawn_text", 403)
    if participation.status != Participation.Status.COMPLETED:
        return redirect("studies_public:run", slug=study.slug, token=participant_token(participation))
    return _done_page(request, study, participation)


@never_cache
@require_http_methods(["GET", "POST"])
@with_participation(json_answer=False)
def withdraw_view(request: HttpRequest, study: Study, participation: Participation) -> HttpResponseBase:
    """GET: what withdrawing does, and a confirm button; POST: delete the answers, mark the
    participation withdrawn and forget this browser's token."""
    if participation.status == Participation.Status.WITHDRAWN:
        return render(request, "studies/participant/withdrawn.html", _context(study))
    if request.method == "GET":
        back = _run_url(study, participation)
        context = _context(study, back_url=back, token=participant_token(participation))
        return render(request, "studies/participant/withdraw.html", context)
    participation_withdraw(participation=participation)
    response = render(request, "studies/participant/withdrawn.html", _context(study))
    response.delete_cookie(cookie_name(study), path=reverse("studies_public:start", args=[study.slug]))
    return response
