"""The studies API's preview of a list (public views, nothing stored) and its Prolific payment
check (pasted IDs hashed and matched, never stored)."""

from typing import Any

import pytest

from mpp_studio.studies.models import Participation, Response, Study
from tests.web.studies.conftest import gold_answer, start

pytestmark = pytest.mark.django_db


def test_the_preview_of_each_list(
    project: Any, pair_dataset: Any, make_study: Any, viewer: Any, api_client_for: Any
) -> None:
    study = make_study(project, [pair_dataset], task="rating", practice_items=1, opened=False)
    client = api_client_for(viewer)
    path = f"/api/projects/{study.project_id}/studies/{study.pk}/preview/"
    first = client.get(path).json()
    assert (first["list"], first["lists"]) == (1, 2)
    assert first["scale_labels"] == ["Very unnatural", "Very natural"]
    kinds = [t["kind"] for t in first["trials"]]
    assert kinds[:2] == ["practice", "practice"] and "catch" in kinds and "experimental" in kinds
    trial = first["trials"][0]
    assert trial["number"] == 1 and trial["task"] == "rating" and trial["scale_points"] == 7
    assert not {"expected", "roles", "paradigm", "item_id", "gold_index"} & set(trial)
    second = client.get(path, {"list": "2"}).json()
    assert second["list"] == 2 and second["trials"] != first["trials"]
    for bad in ("3", "0", "two"):
        refused = client.get(path, {"list": bad})
        assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "list"
    assert not Participation.objects.exists() and not Response.objects.exists()


def test_the_prolific_check(study: Study, viewer: Any, api_client_for: Any) -> None:
    done = start(study, "APIDONE01", study_id="S")
    for index in range(done.trial_count):
        from mpp_studio.studies.services import response_save

        response_save(participation=done, payload=gold_answer(done, index))
    start(study, "APIWORKS1")
    client = api_client_for(viewer)  # a viewer may check: nothing changes
    path = f"/api/projects/{study.project_id}/studies/{study.pk}/prolific/"
    answer = client.post(path, {"prolific_ids": "APIDONE01\nAPIWORKS1, NOBODY"}, format="json")
    assert answer.status_code == 200
    body = answer.json()
    assert [(r["prolific_id"], r["status"]) for r in body["ids"]] == [
        ("APIDONE01", "completed"),
        ("APIWORKS1", "active"),
        ("NOBODY", "not_found"),
    ]
    assert body["to_approve"] == ["APIDONE01"]
    empty = client.post(path, {"prolific_ids": " "}, format="json")
    assert empty.status_code == 400 and empty.json()["errors"][0]["field"] == "prolific_ids"
