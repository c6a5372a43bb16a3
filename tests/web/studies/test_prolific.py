"""What a paid Prolific run needs from the participant pages: a Prolific ID alone opens nobody's
session, a malformed answer is a 400 and never a 500, no raw Prolific ID is stored, STUDY_ID is
checked on landing, quotas close a full study, and finishing goes to Prolific with the code."""

import json
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.utils import timezone

from mpp_studio.studies.models import Participation, Response, Study
from mpp_studio.studies.services import completion_url, pid_hash
from mpp_studio.studies.tokens import cookie_name
from tests.web.studies.conftest import gold_answer, start
from tests.web.studies.test_participant import consent, joined, owner_of, post_json, start_url

pytestmark = pytest.mark.django_db


def _answer_all(participation: Participation, client: Client, answer_url: str) -> None:
    for index in range(participation.trial_count):
        assert post_json(client, answer_url, gold_answer(participation, index)).status_code in (200, 201)


# -- 1. Knowing a Prolific ID is not enough -----------------------------------------------------


def test_a_known_prolific_id_does_not_open_the_victims_session(study: Study) -> None:
    victim_browser = Client()
    victim, u = joined(victim_browser, study, "VICTIM")
    assert post_json(victim_browser, u["answer"], gold_answer(victim, 0)).status_code == 201

    attacker = Client()
    landing = attacker.get(start_url(study, PROLIFIC_PID="VICTIM", STUDY_ID="S"))
    assert landing.status_code == 403
    assert "already started this study in another browser" in landing.content.decode()
    assert cookie_name(study) not in landing.cookies
    assert "/run/" not in landing.content.decode()
    # Consenting as the victim does not hand over the session either.
    posted = consent(attacker, study, PROLIFIC_PID="VICTIM", STUDY_ID="S", SESSION_ID="GUESS")
    assert posted.status_code == 403
    assert cookie_name(study) not in posted.cookies
    assert Participation.objects.filter(study=study).count() == 1

    # The victim goes on as if nothing happened; their answer is theirs alone.
    victim.refresh_from_db()
    assert victim.status == Participation.Status.ACTIVE
    assert list(Response.objects.filter(participation=victim).values_list("trial_index", flat=True)) == [0]
    assert victim_browser.get(u["trial"]).json()["number"] == 2
    # From their own Prolific session they may continue in another browser.
    other_device = Client()
    back = other_device.get(start_url(study, PROLIFIC_PID="VICTIM", STUDY_ID="S", SESSION_ID="X"))
    assert back.status_code == 302
    assert owner_of(study, back["Location"]) == victim


def test_a_cookie_of_another_pid_is_not_a_way_in(study: Study) -> None:
    browser = Client()
    joined(browser, study, "MINE")
    # The same browser, now arriving as someone else, is not sent to its own session.
    other = browser.get(start_url(study, PROLIFIC_PID="THEIRS", STUDY_ID="S", SESSION_ID="Y"))
    assert other.status_code == 200  # the consent page for the new PID
    assert 'name="PROLIFIC_PID" value="THEIRS"' in other.content.decode()


# -- 2. Malformed answers ----------------------------------------------------------------------


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_a_non_finite_response_time_is_a_400(study: Study, number: str) -> None:
    client = Client()
    participation, u = joined(client, study)
    body = json.dumps(gold_answer(participation, 0)).replace("1500", number)
    answer = client.post(u["answer"], body, content_type="application/json")
    assert answer.status_code == 400
    assert "not JSON" in answer.json()["error"]
    assert not Response.objects.filter(participation=participation).exists()


def test_deeply_nested_or_huge_answers_are_a_400(study: Study) -> None:
    client = Client()
    participation, u = joined(client, study)
    nested = "[" * 100_000 + "]" * 100_000
    deep = client.post(u["answer"], nested, content_type="application/json")
    assert deep.status_code == 400
    padded = dict(gold_answer(participation, 0), note="x" * 10_000)
    huge = post_json(client, u["answer"], padded)
    assert huge.status_code == 400
    assert "4096 bytes" in huge.json()["error"]
    assert not Response.objects.filter(participation=participation).exists()
    assert post_json(client, u["answer"], gold_answer(participation, 0)).status_code == 201


# -- 3. No raw Prolific ID ---------------------------------------------------------------------


def test_no_table_holds_the_raw_prolific_id_or_session(study: Study) -> None:
    client = Client()
    participation, u = joined(client, study, "5f00RAWPID77")
    _answer_all(participation, client, u["answer"])
    with connection.cursor() as cursor:
        for table in ("studies_participation", "studies_response", "studies_study"):
            cursor.execute(f"SELECT * FROM {table}")
            assert "5f00RAWPID77" not in repr(cursor.fetchall()), table
    participation.refresh_from_db()
    assert participation.pid_hash == pid_hash("5f00RAWPID77")


# -- 4. STUDY_ID on landing --------------------------------------------------------------------


def test_a_prolific_study_turns_away_on_landing_who_did_not_come_from_it(study: Study) -> None:
    study.prolific_study_id = "PROLIFIC-STUDY"
    study.save()
    missing = Client().get(start_url(study, PROLIFIC_PID="p"))
    assert missing.status_code == 403
    html = missing.content.decode()
    assert "open it from the study&#x27;s page on Prolific" in html
    assert "consent-form" not in html and "restart-link" not in html
    wrong = Client().get(start_url(study, PROLIFIC_PID="p", STUDY_ID="OTHER"))
    assert wrong.status_code == 403
    assert "consent-form" not in wrong.content.decode()
    assert consent(Client(), study, PROLIFIC_PID="p").status_code == 403
    assert not Participation.objects.exists()
    right = Client().get(start_url(study, PROLIFIC_PID="p", STUDY_ID="PROLIFIC-STUDY", SESSION_ID="s"))
    assert right.status_code == 200 and "consent-form" in right.content.decode()


def test_a_draft_link_speaks_the_studys_language(project: Any, pair_dataset: Any, make_study: Any) -> None:
    draft = make_study(project, [pair_dataset], language="zh", opened=False)
    page = Client().get(start_url(draft))
    assert page.status_code == 404
    assert '<html lang="zh">' in page.content.decode()
    assert "本研究目前未开放" in page.content.decode()


# -- 8. Quotas, auto-close, completion ---------------------------------------------------------


def test_a_full_study_closes_itself_and_turns_the_next_away(study: Study) -> None:
    study.quota_per_list = 1
    study.save()
    for pid in ("Q1", "Q2"):  # two lists, one place each
        client = Client()
        participation, u = joined(client, study, pid)
        _answer_all(participation, client, u["answer"])
    study.refresh_from_db()
    assert study.status == Study.Status.CLOSED
    assert study.closed_at is not None
    late = Client().get(start_url(study, PROLIFIC_PID="Q3", STUDY_ID="S"))
    assert late.status_code == 403
    assert "has all the participants it needs" in late.content.decode()
    assert Participation.objects.filter(study=study).count() == 2


def test_places_held_by_people_working_free_up_when_their_time_runs_out(study: Study) -> None:
    study.quota_per_list = 1
    study.save()
    first, second = start(study, "W1"), start(study, "W2")
    assert {first.list_index, second.list_index} == {0, 1}
    landing = Client().get(start_url(study, PROLIFIC_PID="W3"))
    assert landing.status_code == 403
    assert "taken by participants working right now" in landing.content.decode()
    assert consent(Client(), study, PROLIFIC_PID="W3").status_code == 403
    study.refresh_from_db()
    assert study.status == Study.Status.OPEN  # not full of completes: it stays open
    Participation.objects.filter(pk=first.pk).update(lease_started_at=timezone.now() - timedelta(hours=2))
    third = start(study, "W3")
    assert third.list_index == first.list_index


def test_the_default_quota_is_the_designs_participants_per_list(study: Study) -> None:
    # 5 responses per item, each item in 1 list: 5 participants per list, 10 in all.
    people = [start(study, f"D{i}") for i in range(10)]
    assert sorted(p.list_index for p in people).count(0) == 5
    with pytest.raises(Exception) as refused:
        start(study, "D10")
    assert getattr(refused.value, "code", "") == "full_for_now"


def test_finishing_goes_to_prolific_with_the_code(study: Study) -> None:
    study.prolific_study_id = "S"
    study.completion_code = "C0DE42"
    study.save()
    assert completion_url(study) == "https://app.prolific.com/submissions/complete?cc=C0DE42"
    study.prolific_completion_url = "https://app.prolific.com/submissions/complete"
    assert completion_url(study) == "https://app.prolific.com/submissions/complete?cc=C0DE42"
    study.prolific_completion_url = "https://example.org/done?cc=OWN&x=1"
    assert completion_url(study) == "https://example.org/done?cc=OWN&x=1"
    study.prolific_completion_url = ""
    study.save()
    client = Client()
    participation, u = joined(client, study)
    _answer_all(participation, client, u["answer"])
    done = client.get(u["done"])
    assert done.status_code == 200
    html = done.content.decode()
    assert 'content="3;url=https://app.prolific.com/submissions/complete?cc=C0DE42"' in html
    assert 'href="https://app.prolific.com/submissions/complete?cc=C0DE42"' in html


def test_a_withdrawn_participants_return_says_so_without_a_loop(study: Study) -> None:
    client = Client()
    _, u = joined(client, study, "LEFT")
    client.post(u["withdraw"])
    for url in (u["run"], u["done"]):
        page = Client().get(url)
        assert page.status_code == 403
        html = page.content.decode()
        assert "You have withdrawn" in html
        assert "Something went wrong" not in html and "restart-link" not in html


# -- 3. Paying without storing the ID ----------------------------------------------------------


def test_pasted_prolific_ids_are_matched_by_hash_and_never_stored(study: Study, viewer: Any) -> None:
    from django.urls import reverse

    from tests.web.conftest import PASSWORD

    client = Client()
    done, u = joined(client, study, "PAYDONE01")
    _answer_all(done, client, u["answer"])
    joined(Client(), study, "PAYWORKING")
    _, gone = joined(Client(), study, "PAYGONE01")
    Client().post(gone["withdraw"])
    researcher = Client()
    assert researcher.login(username=viewer.username, password=PASSWORD)
    url = reverse("studies:study_prolific", args=[study.project_id, study.pk])
    assert researcher.get(url).status_code == 200
    page = researcher.post(url, {"prolific_ids": "PAYDONE01, PAYWORKING\nPAYGONE01 NEVERCAME PAYDONE01"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "4 IDs: 1 completed, 1 working, 0 out of time, 1 withdrawn, 1 never started" in html
    approve = html.split('class="to-approve"')[1].split("</textarea>")[0]
    assert "PAYDONE01" in approve and "PAYWORKING" not in approve
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM studies_participation")
        assert "PAYDONE01" not in repr(cursor.fetchall())
    empty = researcher.post(url, {"prolific_ids": "  \n "})
    assert empty.status_code == 400 and "Paste the Prolific IDs" in empty.content.decode()
    huge = researcher.post(url, {"prolific_ids": "x" * 150})
    assert huge.status_code == 400 and "longer than a Prolific ID" in huge.content.decode()


def test_a_catch_failer_is_not_among_the_ids_to_approve(study: Study) -> None:
    from mpp_studio.studies.reconciliation import prolific_reconciliation
    from mpp_studio.studies.services import response_save, schedule_of

    participation = start(study, "CARELESS1")
    for trial in schedule_of(participation).trials:
        right = trial.kind != "catch"  # every catch trial answered wrongly
        response_save(
            participation=participation, payload=gold_answer(participation, trial.trial_index, right)
        )
    (row,) = prolific_reconciliation(study, "CARELESS1")
    assert row.status == "completed" and row.excluded and not row.to_approve
    assert any("catch" in reason for reason in row.reasons)


# -- What the review found ---------------------------------------------------------------------


def test_odd_answers_and_parameters_are_400s_never_500s(
    project: Any, pair_dataset: Any, triplet_dataset: Any, make_study: Any
) -> None:
    rated = make_study(project, [pair_dataset], task="rating", name="Rated")
    client = Client()
    _, u = joined(client, rated, "HUGE")
    huge = client.post(
        u["answer"], '{"trial_index": 0, "rating": 1' + "0" * 400 + "}", content_type="application/json"
    )
    assert huge.status_code == 400
    ranked = make_study(
        project, [triplet_dataset], task="rank3", items_per_paradigm=1, n_lists=1, name="Ranked"
    )
    other = Client()
    _, v = joined(other, ranked, "MIXED")
    for choice in ([0, "a", 2], [0, None, 1], [[0], 1, 2]):
        assert post_json(other, v["answer"], {"trial_index": 0, "choice": choice}).status_code == 400
    assert not Response.objects.exists()
    # A control character in a Prolific parameter is dropped, never stored (PostgreSQL refuses NUL).
    posted = consent(Client(), rated, PROLIFIC_PID="NUL1", STUDY_ID="a\x00b", SESSION_ID="s\x01")
    assert posted.status_code == 302
    assert Participation.objects.get(pid_hash=pid_hash("NUL1")).study_id_param == "ab"


def test_the_preview_takes_any_number_in_its_parameters(study: Study, editor: Any) -> None:
    from django.urls import reverse

    from tests.web.conftest import PASSWORD

    client = Client()
    assert client.login(username=editor.username, password=PASSWORD)
    digits = "9" * 5000
    args = [study.project_id, study.pk]
    page = client.get(reverse("studies:study_preview", args=args) + f"?list={digits}&start={digits}")
    assert page.status_code == 200
    trial = client.get(reverse("studies:study_preview_trial", args=args) + f"?list={digits}&index={digits}")
    assert trial.status_code == 200


def test_an_id_started_by_someone_else_is_not_to_approve(study: Study) -> None:
    from mpp_studio.studies.reconciliation import prolific_reconciliation
    from mpp_studio.studies.services import response_save, schedule_of

    # Someone who knew the ID started first, with their own session, and answered everything.
    squatter = start(study, "KNOWN01", session_id="THEIR-SESSION")
    for trial in schedule_of(squatter).trials:
        response_save(participation=squatter, payload=gold_answer(squatter, trial.trial_index))
    by_id = prolific_reconciliation(study, "KNOWN01")
    assert by_id[0].to_approve  # the ID alone cannot tell
    (row,) = prolific_reconciliation(study, "KNOWN01\tREAL-SUBMISSION", with_submissions=True)
    assert row.status == "other_submission" and not row.to_approve
    (own,) = prolific_reconciliation(study, "KNOWN01, THEIR-SESSION", with_submissions=True)
    assert own.status == "completed" and own.to_approve
    with pytest.raises(ValidationError) as one_part:
        prolific_reconciliation(study, "KNOWN01\nA B C", with_submissions=True)
    assert "Line 1" in one_part.value.messages[0]
