"""The participant's public pages over HTTP: consent, resume by cookie and by URL, one trial at a
time as JSON, idempotent answers, completion only after the last save, withdrawal, and security:
a token reads and writes only its own participation, and no gold, paradigm, role or trial kind
ever reaches the browser."""

import json
import re
from typing import Any

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from mpp_studio.studies.models import Participation, Response, Study
from mpp_studio.studies.services import pid_hash, schedule_of, session_hash
from mpp_studio.studies.tokens import TOKEN_SALT, cookie_name, participant_token, participation_from_token
from tests.web.studies.conftest import PAIR_PARADIGMS, gold_answer

pytestmark = pytest.mark.django_db

# Words that would give the answer or the design away if they reached the browser.
SECRET_WORDS = (
    "correct",
    "gold",
    "catch",
    "experimental",
    "filler",
    "paradigm",
    "phenomenon",
    "item_id",
    "good",
    "bad",
    "learner",
    "artificial",
    "comparison",
    "roles",
    *PAIR_PARADIGMS,
    *(phenomenon for phenomenon, _, _ in PAIR_PARADIGMS.values()),
)


def start_url(study: Study, **params: str) -> str:
    url = reverse("studies_public:start", args=[study.slug])
    if params:
        url += "?" + "&".join(f"{k}={v}" for k, v in params.items())
    return url


def consent(client: Client, study: Study, **params: str) -> Any:
    """POST the consent form; return the response (a redirect to the session page)."""
    data = {"consent": "yes", "consent_version": study.consent_version, **params}
    return client.post(start_url(study), data)


def session_token(response: Any) -> str:
    match = re.search(r"/run/([^/]+)/$", response["Location"])
    assert match, response["Location"]
    return match.group(1)


def owner_of(study: Study, url: str) -> Participation:
    """Return the participation whose token a participant URL carries."""
    match = re.search(r"/run/([^/]+)/", url)
    assert match, url
    return participation_from_token(study=study, token=match.group(1))


def back_to_run(response: Any, study: Study, participation: Participation) -> bool:
    """Return True when the response redirects to the participation's session page."""
    location = response["Location"]
    return (
        response.status_code == 302
        and location.endswith("/")
        and "/done/" not in location
        and (owner_of(study, location) == participation)
    )


def urls(study: Study, token: str) -> dict[str, str]:
    return {
        name: reverse(f"studies_public:{name}", args=[study.slug, token])
        for name in ("run", "trial", "answer", "done", "withdraw")
    }


def post_json(client: Client, url: str, payload: object) -> Any:
    return client.post(url, json.dumps(payload), content_type="application/json")


def joined(client: Client, study: Study, pid: str = "PID-1") -> tuple[Participation, dict[str, str]]:
    response = consent(client, study, PROLIFIC_PID=pid, STUDY_ID="S", SESSION_ID="X")
    assert response.status_code == 302
    token = session_token(response)
    return Participation.objects.get(study=study, pid_hash=pid_hash(pid)), urls(study, token)


def test_consent_page_then_session(study: Study) -> None:
    client = Client()
    page = client.get(start_url(study, PROLIFIC_PID="abc", STUDY_ID="S1", SESSION_ID="X1"))
    assert page.status_code == 200
    html = page.content.decode()
    assert study.consent_version in html
    assert 'name="PROLIFIC_PID" value="abc"' in html
    assert '<html lang="en">' in html
    refused = client.post(start_url(study), {"consent_version": study.consent_version, "PROLIFIC_PID": "abc"})
    assert refused.status_code == 400
    assert "tick the box" in refused.content.decode()
    assert not Participation.objects.exists()

    response = consent(client, study, PROLIFIC_PID="abc", STUDY_ID="S1", SESSION_ID="X1")
    assert response.status_code == 302
    participation = Participation.objects.get()
    assert (participation.pid_hash, participation.study_id_param, participation.session_hash) == (
        pid_hash("abc"),
        "S1",
        session_hash("X1"),
    )
    token = session_token(response)
    assert response.cookies[cookie_name(study)].value == token
    assert response.cookies[cookie_name(study)]["httponly"]
    run = client.get(response["Location"])
    assert run.status_code == 200
    assert "Instructions" in run.content.decode()
    # Coming back to the study link with the cookie goes straight back to the session.
    again = client.get(start_url(study))
    assert again.status_code == 302
    assert owner_of(study, again["Location"]) == participation


def test_trials_answers_and_completion(study: Study) -> None:
    client = Client()
    participation, u = joined(client, study)
    total = participation.trial_count
    assert back_to_run(client.get(u["done"]), study, participation)  # not done yet: no code
    for index in range(total):
        trial = client.get(u["trial"]).json()
        assert trial["number"] == index + 1
        assert trial["total"] == total
        assert trial["trial"]["trial_index"] == index
        saved = post_json(client, u["answer"], gold_answer(participation, index))
        assert saved.status_code == 201, saved.content
        body = saved.json()
        assert body["created"] is True
        if index < total - 1:
            assert "done_url" not in body
            assert body["next"]["trial"]["trial_index"] == index + 1
            assert study.completion_code not in saved.content.decode()
            assert client.get(u["done"]).status_code == 302
    assert body["done_url"].endswith("/done/")
    assert owner_of(study, body["done_url"]) == participation
    assert body["next"] == {"done": True, "total": total}
    done = client.get(u["done"])
    assert done.status_code == 200
    assert study.completion_code in done.content.decode()
    participation.refresh_from_db()
    assert participation.status == "completed"
    # The same PID later: already done, no second participation.
    other = Client()
    page = consent(other, study, PROLIFIC_PID="PID-1", STUDY_ID="S", SESSION_ID="X")
    assert page.status_code == 200
    assert "already completed" in page.content.decode()
    assert Participation.objects.count() == 1


def test_prolific_completion_redirect_only_after_the_last_save(study: Study) -> None:
    study.prolific_completion_url = "https://app.prolific.com/submissions/complete?cc=C1234"
    study.save()
    client = Client()
    participation, u = joined(client, study)
    for index in range(participation.trial_count - 1):
        post_json(client, u["answer"], gold_answer(participation, index))
    assert back_to_run(client.get(u["done"]), study, participation)
    post_json(client, u["answer"], gold_answer(participation, participation.trial_count - 1))
    done = client.get(u["done"]).content.decode()
    # The code and the way to withdraw, then on to Prolific by itself (and by a link).
    assert f'<meta http-equiv="refresh" content="3;url={study.prolific_completion_url}">' in done
    assert study.completion_code in done and 'class="withdraw-link"' in done


def test_a_resent_answer_keeps_the_first(study: Study) -> None:
    client = Client()
    participation, u = joined(client, study)
    payload = gold_answer(participation, 0)
    assert post_json(client, u["answer"], payload).status_code == 201
    again = post_json(client, u["answer"], {**payload, "choice": 1 - payload["choice"]})
    assert again.status_code == 200
    assert again.json()["created"] is False
    assert again.json()["saved"]["choice"] == payload["choice"]
    assert Response.objects.filter(participation=participation).count() == 1


def test_reload_resumes_at_the_first_unanswered_trial(study: Study) -> None:
    client = Client()
    participation, u = joined(client, study)
    for index in range(3):
        post_json(client, u["answer"], gold_answer(participation, index))
    fresh = Client()  # a closed tab, a new browser: the URL alone resumes
    assert fresh.get(u["run"]).status_code == 200
    assert fresh.get(u["trial"]).json()["trial"]["trial_index"] == 3
    # Returning with the same PID and Prolific session from the study link resumes it.
    third = Client()
    response = consent(third, study, PROLIFIC_PID="PID-1", STUDY_ID="S", SESSION_ID="X")
    assert third.get(urls(study, session_token(response))["trial"]).json()["number"] == 4


def test_problems_are_answered_in_words(study: Study) -> None:
    client = Client()
    participation, u = joined(client, study)
    out_of_order = post_json(client, u["answer"], gold_answer(participation, 2))
    assert out_of_order.status_code == 409
    assert "next trial" in out_of_order.json()["error"]
    not_json = client.post(u["answer"], "{", content_type="application/json")
    assert not_json.status_code == 400
    assert "not JSON" in not_json.json()["error"]
    not_object = post_json(client, u["answer"], [1, 2])
    assert not_object.status_code == 400
    assert client.get(u["answer"]).status_code == 405
    missing = Client().get(reverse("studies_public:start", args=["no-such-study"]))
    assert missing.status_code == 404
    assert "no study at this address" in missing.content.decode()


def test_draft_and_closed_studies(project: Any, pair_dataset: Any, make_study: Any, study: Study) -> None:
    draft = make_study(project, [pair_dataset], opened=False, name="Draft")
    assert Client().get(start_url(draft)).status_code == 404
    client = Client()
    participation, u = joined(client, study)
    study.status = Study.Status.CLOSED
    study.save()
    closed = Client().get(start_url(study))
    assert closed.status_code == 403
    assert "not open" in closed.content.decode()
    # Someone who started may finish.
    assert post_json(client, u["answer"], gold_answer(participation, 0)).status_code == 201


def test_study_id_mismatch_is_refused(study: Study) -> None:
    study.prolific_study_id = "PROLIFIC-STUDY"
    study.save()
    page = Client().get(start_url(study, PROLIFIC_PID="p", STUDY_ID="OTHER"))
    assert page.status_code == 403
    assert "different Prolific study" in page.content.decode()
    response = consent(Client(), study, PROLIFIC_PID="p", STUDY_ID="OTHER")
    assert response.status_code == 403
    assert not Participation.objects.exists()
    assert consent(Client(), study, PROLIFIC_PID="p", STUDY_ID="PROLIFIC-STUDY").status_code == 302


def test_chinese_interface(project: Any, pair_dataset: Any, make_study: Any) -> None:
    study = make_study(project, [pair_dataset], language="zh", name="中文研究")
    page = Client().get(start_url(study))
    html = page.content.decode()
    assert '<html lang="zh">' in html
    assert "我已阅读以上内容" in html
    assert "I have read" not in html
    client = Client()
    response = consent(client, study)
    run = client.get(response["Location"]).content.decode()
    assert "说明" in run
    assert "退出研究" in run


def test_withdraw_after_confirming(study: Study) -> None:
    client = Client()
    participation, u = joined(client, study)
    for index in range(2):
        post_json(client, u["answer"], gold_answer(participation, index))
    confirm = client.get(u["withdraw"])
    assert confirm.status_code == 200
    assert Response.objects.filter(participation=participation).count() == 2  # GET deletes nothing
    done = client.post(u["withdraw"])
    assert done.status_code == 200
    assert "deleted" in done.content.decode()
    assert not Response.objects.filter(participation=participation).exists()
    participation.refresh_from_db()
    assert participation.status == "withdrawn"
    assert client.get(u["trial"]).status_code == 403
    assert post_json(client, u["answer"], gold_answer(participation, 0)).status_code == 403
    assert consent(Client(), study, PROLIFIC_PID="PID-1", STUDY_ID="S").status_code == 403


def test_every_participant_page_has_a_withdraw_link(study: Study) -> None:
    client = Client()
    participation, u = joined(client, study)
    html = client.get(u["run"]).content.decode()
    link = re.search(r'class="withdraw-link" href="([^"]+)"', html)
    assert link and link.group(1).endswith("/withdraw/")
    assert owner_of(study, link.group(1)) == participation


# -- Security -------------------------------------------------------------------------------


def test_nothing_secret_reaches_the_browser(
    project: Any, pair_dataset: Any, triplet_dataset: Any, make_study: Any
) -> None:
    pairs = make_study(project, [pair_dataset], practice_items=1, confidence=True, name="Pairs")
    triplets = make_study(project, [triplet_dataset], items_per_paradigm=2, name="Triplets")
    ranked = make_study(project, [triplet_dataset], items_per_paradigm=2, task="rank3", name="Ranked")
    for study in (pairs, triplets, ranked):
        client = Client()
        response = consent(client, study)
        participation = Participation.objects.get(study=study)
        u = urls(study, session_token(response))
        page = client.get(u["run"]).content.decode()
        texts = [page.lower()]
        for index in range(participation.trial_count):
            trial = client.get(u["trial"])
            assert set(trial.json()) <= {"done", "total", "number", "practice", "trial"}
            assert set(trial.json()["trial"]) == {"trial_index", "task", "sentences", "confidence"}
            texts.append(trial.content.decode().lower())
            answer = post_json(client, u["answer"], gold_answer(participation, index))
            body = answer.json()
            texts.append(json.dumps(body["next"]).lower())
            assert set(body) <= {"saved", "created", "next", "feedback", "done_url"}
        schedule = schedule_of(participation)
        for text in texts:
            for word in SECRET_WORDS:
                # As a word: the page's random hex tokens may hold "bad" or "cab" by chance.
                assert not re.search(rf"(?<![0-9a-z]){re.escape(word.lower())}(?![0-9a-z])", text), (
                    study.name,
                    word,
                )
            for trial in schedule.trials:
                assert trial.paradigm.lower() not in text
                assert trial.item_id.lower() not in text or trial.item_id.isdigit()
        # The sentences are there, in display order: that is all.
        first = schedule.trials[0]
        assert json.dumps(first.sentences[0], ensure_ascii=False).lower()[1:-1] in "".join(texts)


def test_a_tampered_token_is_refused(study: Study) -> None:
    client = Client()
    participation, _u = joined(client, study)
    token = participant_token(participation)
    tampered = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for name in ("run", "done", "withdraw"):
        page = client.get(urls(study, tampered)[name])
        assert page.status_code == 403
        html = page.content.decode()
        assert "not valid or has expired" in html
        assert reverse("studies_public:start", args=[study.slug]) in html
    assert client.get(urls(study, tampered)["trial"]).status_code == 403
    assert (
        post_json(client, urls(study, tampered)["answer"], gold_answer(participation, 0)).status_code == 403
    )
    assert client.get(urls(study, "garbage")["trial"]).status_code == 403
    assert not Response.objects.exists()


def test_a_forged_token_for_another_participation_is_refused(study: Study) -> None:
    mine, _ = joined(Client(), study, "MINE")
    theirs, their_urls = joined(Client(), study, "THEIRS")
    # Right signature, but naming their participation with my token id, or unsigned.
    forged = signing.dumps(
        {"s": study.pk, "p": theirs.pk, "t": mine.token_id}, salt=TOKEN_SALT, compress=True
    )
    other_salt = signing.dumps(
        {"s": study.pk, "p": theirs.pk, "t": theirs.token_id}, salt="other", compress=True
    )
    for token in (forged, other_salt):
        assert Client().get(urls(study, token)["trial"]).status_code == 403
        refused = post_json(Client(), urls(study, token)["answer"], gold_answer(theirs, 0))
        assert refused.status_code == 403
    assert not Response.objects.filter(participation=theirs).exists()
    assert Client().get(their_urls["trial"]).status_code == 200  # their own token still works


def test_a_token_of_another_study_is_refused(
    project: Any, pair_dataset: Any, make_study: Any, study: Study
) -> None:
    second = make_study(project, [pair_dataset], name="Second study")
    participation, _ = joined(Client(), second, "PID-2")
    token = participant_token(participation)
    for name in ("run", "trial", "done", "withdraw"):
        assert Client().get(urls(study, token)[name]).status_code == 403
    assert post_json(Client(), urls(study, token)["answer"], gold_answer(participation, 0)).status_code == 403
    page = Client().get(urls(study, token)["run"]).content.decode()
    assert "different participant" in page
    assert not Response.objects.exists()


def test_an_expired_token_sends_back_to_the_start(study: Study, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    _participation, u = joined(client, study)
    monkeypatch.setattr("mpp_studio.studies.tokens.TOKEN_MAX_AGE", -1)
    page = client.get(u["run"])
    assert page.status_code == 403
    assert "expired" in page.content.decode()


def test_the_cookie_of_one_study_does_not_open_another(
    project: Any, pair_dataset: Any, make_study: Any, study: Study
) -> None:
    second = make_study(project, [pair_dataset], name="Second study")
    client = Client()
    joined(client, study, "ONE")
    client.cookies[cookie_name(second)] = client.cookies[cookie_name(study)].value
    page = client.get(start_url(second))
    assert page.status_code == 200  # the consent page, not someone's session
    assert "consent" in page.content.decode().lower()


def test_a_busy_database_is_a_503_the_page_retries(study: Study, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db import OperationalError

    client = Client()
    participation, u = joined(client, study)

    def locked(**kwargs: object) -> None:
        raise OperationalError("database is locked")

    monkeypatch.setattr("mpp_studio.studies.participant_views.response_save", locked)
    busy = post_json(client, u["answer"], gold_answer(participation, 0))
    assert busy.status_code == 503 and busy["Retry-After"] == "2"  # the page's script resends after it
    assert "busy" in busy.json()["error"]


def test_a_consent_the_busy_database_refused_is_kept_ticked(
    study: Study, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The participant presses the button once more; they never read and tick the consent again."""
    from django.db import OperationalError

    from mpp_studio.studies import participant_views

    real_start = participant_views.participation_start
    monkeypatch.setattr(
        participant_views,
        "participation_start",
        lambda **kwargs: (_ for _ in ()).throw(OperationalError("database is locked")),
    )
    client = Client()
    refused = consent(client, study, PROLIFIC_PID="KEPT", STUDY_ID="S", SESSION_ID="s1")
    assert refused.status_code == 503 and refused["Retry-After"] == "2"
    page = refused.content.decode()
    assert re.search(r'<input type="checkbox" name="consent" value="yes" required checked>', page)
    for name, value in (("PROLIFIC_PID", "KEPT"), ("STUDY_ID", "S"), ("SESSION_ID", "s1")):
        assert f'<input type="hidden" name="{name}" value="{value}">' in page
    assert f'name="consent_version" value="{study.consent_version}"' in page
    assert not Participation.objects.filter(study=study).exists()

    monkeypatch.setattr(participant_views, "participation_start", real_start)
    form = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page))
    form["consent"] = "yes"  # what the browser sends for the ticked box
    form.pop("csrfmiddlewaretoken", None)
    again = client.post(start_url(study), form)
    assert again.status_code == 302
    assert Participation.objects.filter(study=study).count() == 1


def test_a_returning_pid_skips_consent(study: Study) -> None:
    participation, u = joined(Client(), study, "BACK")
    post_json(Client(), u["answer"], gold_answer(participation, 0))
    other_browser = Client()
    back = other_browser.get(start_url(study, PROLIFIC_PID="BACK", STUDY_ID="S", SESSION_ID="X"))
    assert back.status_code == 302
    assert owner_of(study, back["Location"]) == participation
    assert other_browser.get(urls(study, session_token(back))["trial"]).json()["number"] == 2
    assert Participation.objects.count() == 1
    for index in range(1, participation.trial_count):
        post_json(Client(), u["answer"], gold_answer(participation, index))
    done = Client().get(start_url(study, PROLIFIC_PID="BACK", SESSION_ID="X"))
    assert done.status_code == 200
    assert "already completed" in done.content.decode()
    _, gone_urls = joined(Client(), study, "GONE")
    Client().post(gone_urls["withdraw"])
    refused = Client().get(start_url(study, PROLIFIC_PID="GONE", SESSION_ID="X"))
    assert refused.status_code == 403
    assert "deleted" in refused.content.decode()
    assert "restart-link" not in refused.content.decode()  # nothing to loop back to
