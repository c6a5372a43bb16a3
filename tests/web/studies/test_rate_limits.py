"""Rate limits on the participant's pages: consents per client address (429 + Retry-After, then
recovery), answers and token pages per participation only (participants behind one address never
limit each other), an honest participant answering quickly is never limited, and no address is
stored anywhere in the database."""

from collections.abc import Iterator

import pytest
from django.apps import apps
from django.db import models
from django.test import Client, override_settings

from mpp_studio.core import ratelimit
from mpp_studio.studies.models import Participation, Response, Study
from mpp_studio.studies.services import pid_hash
from tests.web.studies.conftest import gold_answer
from tests.web.studies.test_participant import consent, joined, post_json

pytestmark = pytest.mark.django_db

ADDRESS = "198.51.100.23"


class Clock:
    """A frozen clock, at the start of a minute, that tests move by hand."""

    def __init__(self) -> None:
        self.moment = 1_800_000_000.0

    def __call__(self) -> float:
        return self.moment


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    frozen = Clock()
    monkeypatch.setattr(ratelimit, "now", frozen)
    yield frozen


@override_settings(MPP_RATE_LIMIT_STUDY_START="3/m")
def test_consents_are_limited_per_address_then_recover(study: Study, clock: Clock) -> None:
    client = Client(REMOTE_ADDR=ADDRESS)
    for number in range(3):
        assert consent(client, study, PROLIFIC_PID=f"P{number}", STUDY_ID="S").status_code == 302
    limited = consent(client, study, PROLIFIC_PID="P9", STUDY_ID="S")
    assert limited.status_code == 429
    assert limited["Retry-After"] == "60"
    assert "Please wait 1 minute and try again" in limited.content.decode()
    assert not Participation.objects.filter(pid_hash=pid_hash("P9")).exists()
    # The consent page itself (GET) is never limited; another address is not limited.
    assert client.get(f"/s/{study.slug}/?PROLIFIC_PID=P9").status_code == 200
    other = Client(REMOTE_ADDR="198.51.100.99")
    assert consent(other, study, PROLIFIC_PID="P10", STUDY_ID="S").status_code == 302
    clock.moment += 30
    assert consent(client, study, PROLIFIC_PID="P9", STUDY_ID="S")["Retry-After"] == "30"
    clock.moment += 30
    assert consent(client, study, PROLIFIC_PID="P9", STUDY_ID="S").status_code == 302


def test_a_classroom_behind_one_address_can_all_start(study: Study, clock: Clock) -> None:
    """The default consent limit lets 200 participants behind one NAT start in the same minute."""
    Study.objects.filter(pk=study.pk).update(quota_per_list=100)  # places for all 200
    for number in range(200):
        response = consent(Client(REMOTE_ADDR=ADDRESS), study, PROLIFIC_PID=f"N{number}", STUDY_ID="S")
        assert response.status_code == 302, number
    assert Participation.objects.filter(study=study).count() == 200


@override_settings(MPP_RATE_LIMIT_ANSWER="4/m")
def test_answers_are_limited_per_participation_not_per_address(study: Study, clock: Clock) -> None:
    first = Client(REMOTE_ADDR=ADDRESS)
    participation, u = joined(first, study, pid="A1")
    for index in range(4):
        assert post_json(first, u["answer"], gold_answer(participation, index)).status_code == 201
    limited = post_json(first, u["answer"], gold_answer(participation, 4))
    assert limited.status_code == 429
    assert limited["Retry-After"] == "60"
    body = limited.json()
    assert "Please wait 1 minute" in body["error"]
    assert body["retry_after"] == 60
    assert Response.objects.filter(participation=participation).count() == 4
    # Someone else behind the same address answers freely.
    second = Client(REMOTE_ADDR=ADDRESS)
    other, v = joined(second, study, pid="A2")
    assert post_json(second, v["answer"], gold_answer(other, 0)).status_code == 201
    # The next minute the first participant goes on; nothing was lost.
    clock.moment += 60
    assert post_json(first, u["answer"], gold_answer(participation, 4)).status_code == 201
    assert Response.objects.filter(participation=participation).count() == 5


@override_settings(MPP_RATE_LIMIT_PARTICIPANT_PAGE="2/m")
def test_trial_and_withdraw_pages_are_limited_per_participation(study: Study, clock: Clock) -> None:
    client = Client(REMOTE_ADDR=ADDRESS)
    _, u = joined(client, study, pid="T1")
    assert client.get(u["trial"]).status_code == 200
    assert client.get(u["trial"]).status_code == 200
    limited = client.get(u["trial"])
    assert limited.status_code == 429
    assert limited["Retry-After"] == "60"
    assert "error" in limited.json()
    assert client.get(u["withdraw"]).status_code == 200
    assert client.get(u["withdraw"]).status_code == 200
    page = client.get(u["withdraw"])
    assert page.status_code == 429
    assert "Please wait" in page.content.decode()
    clock.moment += 60
    assert client.get(u["trial"]).status_code == 200


@override_settings(MPP_RATE_LIMIT_ANSWER="", MPP_RATE_LIMIT_STUDY_START="0")
def test_limits_can_be_turned_off(study: Study, clock: Clock) -> None:
    client = Client(REMOTE_ADDR=ADDRESS)
    participation, u = joined(client, study, pid="OFF")
    for _ in range(200):
        assert post_json(client, u["answer"], gold_answer(participation, 0)).status_code in (200, 201)


def test_an_honest_fast_participant_is_never_limited(study: Study, clock: Clock) -> None:
    """Every trial fetched and answered at once, each answer sent twice (a lost reply), the page
    reloaded, all in the same second: never a 429."""
    client = Client(REMOTE_ADDR=ADDRESS)
    participation, u = joined(client, study, pid="FAST")
    assert client.get(u["run"]).status_code == 200
    for index in range(participation.trial_count):
        assert client.get(u["trial"]).status_code == 200
        answer = gold_answer(participation, index)
        assert post_json(client, u["answer"], answer).status_code == 201
        assert post_json(client, u["answer"], answer).status_code == 200
        clock.moment += 0.2
    assert client.get(u["done"]).status_code == 200
    participation.refresh_from_db()
    assert participation.status == Participation.Status.COMPLETED


def test_no_address_is_stored_in_the_database(study: Study, clock: Clock) -> None:
    client = Client(REMOTE_ADDR=ADDRESS)
    participation, u = joined(client, study, pid="PRIV")
    post_json(client, u["answer"], gold_answer(participation, 0))
    client.post(u["withdraw"])
    consent(Client(REMOTE_ADDR=ADDRESS), study, PROLIFIC_PID="PRIV2", STUDY_ID="S")
    checked = 0
    for model in apps.get_models():
        for field in model._meta.get_fields():
            assert not isinstance(field, models.GenericIPAddressField), (model, field.name)
            assert "ip" not in field.name.lower().split("_"), (model, field.name)
            assert "address" not in field.name.lower() or field.name == "email", (model, field.name)
        names = [f.attname for f in model._meta.concrete_fields]
        for row in model.objects.values_list(*names):
            checked += 1
            assert not any(ADDRESS in str(value) for value in row), (model, row)
    assert checked > 0
