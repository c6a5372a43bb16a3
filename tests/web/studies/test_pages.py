"""The researcher's study pages: building a study with the form, the design preview (list sizes,
balance report, participants needed, catch trials marked), the links, opening and closing, the
settings of an opened study, and the live status panel."""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from mpp_studio.studies.models import Participation, Study
from mpp_studio.studies.services import participation_withdraw, response_save
from tests.web.conftest import PASSWORD
from tests.web.studies.conftest import gold_answer, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor_client(editor: Any) -> Client:
    client = Client()
    assert client.login(username=editor.username, password=PASSWORD)
    return client


def form_data(datasets: list[Any], **extra: Any) -> dict[str, Any]:
    data = {
        "name": "Native check",
        "datasets": [d.pk for d in datasets],
        "items_per_paradigm": 4,
        "n_lists": 2,
        "target_responses": 6,
        "replication": 1,
        "catch_per_list": 2,
        "practice_items": 1,
        "task": "2afc",
        "seed": 11,
        "language": "en",
        "instructions": "",
        "consent_text": "",
        "consent_version": "2026-01",
        "lease_ttl_minutes": 45,
        "completion_code": "CODE42",
        "prolific_completion_url": "",
        "prolific_study_id": "",
    }
    data.update(extra)
    return data


def test_build_preview_and_open_a_study(project: Any, pair_dataset: Any, editor_client: Client) -> None:
    new = editor_client.get(reverse("studies:study_new", args=[project.pk]))
    assert new.status_code == 200
    assert pair_dataset.name in new.content.decode()
    response = editor_client.post(reverse("studies:study_new", args=[project.pk]), form_data([pair_dataset]))
    assert response.status_code == 302, response.content.decode()[:3000]
    study = Study.objects.get()
    assert (study.status, study.consent_version, study.completion_code) == ("draft", "2026-01", "CODE42")
    page = editor_client.get(response["Location"])
    html = page.content.decode()
    assert page.status_code == 200
    assert "12 items in 3 paradigms" in html
    assert "Balanced" in html
    assert "12 (6 per list)" in html  # participants needed
    assert html.count('class="num list-size">6<') == 2
    assert "List 1: 6 items, 2 catch trials, 9 trials in all" in html
    assert 'class="trial-catch"' in html
    assert "en_sv_agreement" in html
    public = "http://testserver" + reverse("studies_public:start", args=[study.slug])
    assert f'value="{public}"' in html
    assert (
        f'value="{public}?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}&amp;STUDY_ID={{{{%STUDY_ID%}}}}'
        f'&amp;SESSION_ID={{{{%SESSION_ID%}}}}"' in html
    )
    assert "Open the study" in html
    # A draft's link does not work yet.
    assert Client().get(reverse("studies_public:start", args=[study.slug])).status_code == 404

    opened = editor_client.post(reverse("studies:study_open", args=[project.pk, study.pk]), follow=True)
    assert "The study is open" in opened.content.decode()
    study.refresh_from_db()
    assert study.status == "open" and study.opened_at is not None
    assert Client().get(reverse("studies_public:start", args=[study.slug])).status_code == 200

    closed = editor_client.post(reverse("studies:study_close", args=[project.pk, study.pk]), follow=True)
    assert "The study is closed" in closed.content.decode()
    study.refresh_from_db()
    assert study.status == "closed"

    listing = editor_client.get(reverse("studies:study_list", args=[project.pk])).content.decode()
    assert "Native check" in listing and "Closed" in listing


def test_form_errors_are_shown_by_field(project: Any, pair_dataset: Any, editor_client: Client) -> None:
    url = reverse("studies:study_new", args=[project.pk])
    no_data = editor_client.post(url, form_data([]))
    assert no_data.status_code == 400
    assert "Choose at least one dataset" in no_data.content.decode()
    rank3 = editor_client.post(url, form_data([pair_dataset], task="rank3"))
    assert rank3.status_code == 400
    assert "learner triplet datasets only" in rank3.content.decode()
    too_many = editor_client.post(url, form_data([pair_dataset], items_per_paradigm=1, n_lists=9))
    assert too_many.status_code == 400
    assert "would be empty" in too_many.content.decode()
    zero = editor_client.post(url, form_data([pair_dataset], n_lists=0))
    assert zero.status_code == 400
    assert not Study.objects.exists()


def test_a_triplet_study_from_the_form(project: Any, triplet_dataset: Any, editor_client: Client) -> None:
    url = reverse("studies:study_new", args=[project.pk])
    data = form_data([triplet_dataset], items_per_paradigm=2, task="rank3", practice_items=0, language="zh")
    response = editor_client.post(url, data)
    assert response.status_code == 302
    study = Study.objects.get()
    assert study.language == "zh"
    assert "请" in study.instructions  # the Chinese default instructions
    html = editor_client.get(response["Location"]).content.decode()
    assert "expected ranking" in html
    assert "R:VERB:SVA" in html


def test_an_opened_study_keeps_its_design(study: Study, editor_client: Client) -> None:
    url = reverse("studies:study_edit", args=[study.project_id, study.pk])
    page = editor_client.get(url).content.decode()
    assert "frozen" in page
    before = study.design
    data = form_data(
        list(study.datasets.all()),
        items_per_paradigm=1,
        consent_version="changed",
        instructions="New words.",
        completion_code=study.completion_code,
    )
    response = editor_client.post(url, data)
    assert response.status_code == 302
    study.refresh_from_db()
    assert study.design == before
    assert study.items_per_paradigm == 4
    assert study.consent_version == "1"
    assert study.instructions == "New words."


def test_a_draft_is_rebuilt_from_its_settings(
    project: Any, pair_dataset: Any, make_study: Any, editor_client: Client
) -> None:
    study = make_study(project, [pair_dataset], opened=False)
    url = reverse("studies:study_edit", args=[project.pk, study.pk])
    response = editor_client.post(url, form_data([pair_dataset], items_per_paradigm=2, catch_per_list=1))
    assert response.status_code == 302
    study.refresh_from_db()
    assert len(study.design["items"]) == 6


def test_the_status_panel_counts_participants_per_list(study: Study, editor_client: Client) -> None:
    people = [start(study, f"P{i}") for i in range(5)]
    done = people[0]
    for index in range(done.trial_count):
        response_save(participation=done, payload=gold_answer(done, index))
    participation_withdraw(participation=people[1])
    Participation.objects.filter(pk=people[2].pk).update(lease_started_at=timezone.now() - timedelta(days=1))
    response = editor_client.get(reverse("studies:study_status", args=[study.project_id, study.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'hx-trigger="every 10s"' in html
    # Totals: 2 active, 1 completed, 1 abandoned (lease expired), 1 withdrawn.
    cells = "".join(f'<th class="num">{n}</th>' for n in (2, 1, 1, 1))
    assert f"<tfoot><tr><th>All</th>{cells}" in html
    assert "1 / 10" in html
