"""The researcher's preview: every trial type of every list, in the study's language, answered
as a participant would, on a draft as on an open study, and nothing stored."""

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.studies.models import Participation, Response, Study
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def preview_url(study: Study, name: str = "study_preview", query: str = "") -> str:
    return reverse(f"studies:{name}", args=[study.project_id, study.pk]) + query


def config_of(html: str) -> dict[str, Any]:
    """Return the session script's configuration a page carries."""
    return json.loads(html.split('id="study-config" type="application/json">')[1].split("</script>")[0])


def test_a_draft_is_previewed_trial_by_trial_without_storing_anything(
    project: Any, pair_dataset: Any, make_study: Any, viewer: Any
) -> None:
    draft = make_study(
        project, [pair_dataset], practice_items=1, filler_pairs="A good one. | A one good.", opened=False
    )
    client = signed_in(viewer)  # a viewer may look; it changes nothing
    page = client.get(preview_url(draft))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Preview" in html and "nothing you answer is saved" in html
    for label in ("a practice trial", "an item", "a filler", "a catch trial"):
        assert label in html
    config = config_of(html)
    trial_url, answer_url = config["urls"]["trial"], config["urls"]["answer"]
    first = client.get(trial_url).json()
    assert first["number"] == 1 and first["practice"] is True
    total = first["total"]
    current = first
    for _ in range(total):
        view = current["trial"]
        reply = client.post(
            answer_url,
            json.dumps({"trial_index": view["trial_index"], "choice": 0}),
            content_type="application/json",
            HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value if "csrftoken" in client.cookies else "",
        )
        assert reply.status_code == 201, reply.content
        body = reply.json()
        if view["trial_index"] == 0:
            assert body["feedback"] in ("right", "wrong")
        current = body["next"]
    assert current == {"done": True, "total": total}
    assert body["done_url"].startswith(preview_url(draft, "study_preview_done"))
    assert not Participation.objects.exists() and not Response.objects.exists()
    bad = client.post(
        answer_url, json.dumps({"trial_index": 0, "choice": 7}), content_type="application/json"
    )
    assert bad.status_code == 400 and "choice must be 0 or 1" in bad.json()["error"]
    # The other list, a jump to the catch trial, the consent page and the end.
    second = client.get(preview_url(draft, query="?list=2&start=3"))
    assert second.status_code == 200
    assert config_of(second.content.decode())["urls"]["trial"].endswith("?list=2&index=3")
    consent = client.get(preview_url(draft, "study_preview_consent", "?list=2")).content.decode()
    assert 'method="get"' in consent and 'name="list" value="2"' in consent
    done = client.get(preview_url(draft, "study_preview_done"))
    assert draft.completion_code in done.content.decode()
    withdraw = client.get(preview_url(draft, "study_preview_withdraw")).content.decode()
    assert "disabled" in withdraw


def test_a_chinese_rating_study_is_previewed_in_chinese(
    project: Any, pair_dataset: Any, make_study: Any, editor: Any
) -> None:
    study = make_study(project, [pair_dataset], task="rating", language="zh", opened=False)
    client = signed_in(editor)
    html = client.get(preview_url(study)).content.decode()
    assert '<html lang="zh">' in html and "说明" in html
    assert config_of(html)["strings"]["question_rating"] == "这个句子听起来有多自然？"
    trial = client.get(preview_url(study, "study_preview_trial", "?list=1&index=0")).json()["trial"]
    assert trial["task"] == "rating" and len(trial["sentences"]) == 1
    refused = client.post(
        preview_url(study, "study_preview_answer", "?list=1"),
        json.dumps({"trial_index": 0, "rating": 9}),
        content_type="application/json",
    )
    assert refused.status_code == 400 and refused.json()["error"].startswith("出错了")
    study.prolific_study_id = "P1"
    study.save()
    done = client.get(preview_url(study, "study_preview_done")).content.decode()
    assert "https://app.prolific.com/submissions/complete?cc=" in done


def test_outsiders_cannot_preview(study: Study, other_project: Any, outsider: Any) -> None:
    assert signed_in(outsider).get(preview_url(study)).status_code == 404
    assert Client().get(preview_url(study)).status_code == 302  # to the sign-in page
