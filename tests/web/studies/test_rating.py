"""Acceptability rating studies on the platform: one sentence a trial on a Likert scale or by
magnitude estimation, a pair's two sentences in different lists, answers checked by the
engine's one rule, practice feedback that names the expected end, and what the settings refuse."""

import json
from collections import Counter
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from mpp_studio.studies.models import Response, Study
from mpp_studio.studies.services import schedule_of, study_design
from tests.web.studies.conftest import gold_answer
from tests.web.studies.test_participant import joined, post_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def rating_study(project: Any, pair_dataset: Any, make_study: Any) -> Study:
    return make_study(project, [pair_dataset], task="rating", practice_items=1, name="Ratings")


@pytest.fixture
def magnitude_study(project: Any, pair_dataset: Any, make_study: Any) -> Study:
    return make_study(
        project,
        [pair_dataset],
        task="magnitude",
        reference_sentence="The cat that the dog chased ran away.",
        reference_value=50,
        name="Magnitudes",
    )


def test_no_list_shows_both_sentences_of_a_pair(rating_study: Study) -> None:
    design = study_design(rating_study)
    assert len(design.lists) == 2
    for one in design.lists:
        assert len(set(one.item_ids)) == len(one.item_ids)
        assert Counter(one.conditions) == {"good": len(one.item_ids) // 2, "bad": len(one.item_ids) // 2}
    # Over the two lists every item is rated once as good and once as bad.
    seen = Counter((i, c) for one in design.lists for i, c in zip(one.item_ids, one.conditions, strict=True))
    assert set(seen.values()) == {1}
    assert {c for _, c in seen} == {"good", "bad"}


def test_a_rating_session_end_to_end(rating_study: Study) -> None:
    client = Client()
    participation, u = joined(client, rating_study)
    run = client.get(u["run"]).content.decode()
    assert '"scale_labels": ["Very unnatural", "Very natural"]' in run
    first = client.get(u["trial"]).json()
    assert first["practice"] is True
    view = first["trial"]
    assert view["task"] == "rating" and view["scale_points"] == 7 and len(view["sentences"]) == 1
    assert set(view) == {"trial_index", "task", "sentences", "confidence", "scale_points"}
    saved = post_json(client, u["answer"], gold_answer(participation, 0))
    assert saved.status_code == 201
    body = saved.json()
    trial = schedule_of(participation).trials[0]
    assert body["feedback"] == "right" and body["expected"] == trial.expected
    assert body["saved"]["rating"] == (7 if trial.expected == "high" else 1)
    for index in range(1, participation.trial_count):
        assert post_json(client, u["answer"], gold_answer(participation, index)).status_code == 201
    participation.refresh_from_db()
    assert participation.status == "completed"
    stored = Response.objects.filter(participation=participation)
    assert all(r.choice is None and r.rating in (1.0, 7.0) and r.correct for r in stored)
    assert {r.trial_kind for r in stored} == {"practice", "experimental", "catch"}


@pytest.mark.parametrize("rating", [0, 8, 3.5, "5", True, None, [5]])
def test_a_rating_off_the_scale_is_a_400(rating_study: Study, rating: object) -> None:
    client = Client()
    participation, u = joined(client, rating_study)
    answer = post_json(client, u["answer"], {"trial_index": 0, "rating": rating, "rt_ms": 900})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("Something went wrong (rating:")
    assert not Response.objects.filter(participation=participation).exists()


def test_magnitude_estimation(magnitude_study: Study) -> None:
    client = Client()
    participation, u = joined(client, magnitude_study)
    view = client.get(u["trial"]).json()["trial"]
    assert view["task"] == "magnitude"
    assert (
        view["reference_sentence"] == "The cat that the dog chased ran away."
        and view["reference_value"] == 50
    )
    for bad in (0, -3, 2_000_000):
        assert post_json(client, u["answer"], {"trial_index": 0, "rating": bad}).status_code == 400
    nan = client.post(u["answer"], '{"trial_index": 0, "rating": NaN}', content_type="application/json")
    assert nan.status_code == 400
    assert post_json(client, u["answer"], {"trial_index": 0, "rating": 37.5}).status_code == 201
    assert Response.objects.get(participation=participation).rating == 37.5
    assert json.loads(client.get(u["trial"]).content)["number"] == 2


def test_what_rating_settings_refuse(
    project: Any, pair_dataset: Any, triplet_dataset: Any, make_study: Any
) -> None:
    with pytest.raises(ValidationError) as triplets:
        make_study(project, [triplet_dataset], task="rating")
    assert "task" in triplets.value.message_dict
    with pytest.raises(ValidationError) as labels:
        make_study(project, [pair_dataset], task="rating", scale_labels="bad\nmiddling\ngood")
    assert "2 labels" in labels.value.message_dict["scale_labels"][0]
    with pytest.raises(ValidationError) as reference:
        make_study(project, [pair_dataset], task="magnitude")
    assert "reference_sentence" in reference.value.message_dict
    with pytest.raises(ValidationError) as one_list:
        make_study(project, [pair_dataset], task="rating", n_lists=1)
    assert "2" in " ".join(one_list.value.messages)
    five = make_study(project, [pair_dataset], task="rating", scale_points=5, scale_labels="1\n2\n3\n4\n5")
    assert study_design(five).settings.scale_points == 5


def test_chinese_labels_and_the_researchers_own(project: Any, pair_dataset: Any, make_study: Any) -> None:
    chinese = make_study(project, [pair_dataset], task="rating", language="zh")
    client = Client()
    _, u = joined(client, chinese)
    assert '"scale_labels": ["\\u975e\\u5e38\\u4e0d\\u81ea\\u7136", "\\u975e\\u5e38\\u81ea\\u7136"]' in (
        client.get(u["run"]).content.decode()
    )
    assert "为它听起来有多自然打分" in chinese.instructions
    own = make_study(project, [pair_dataset], task="rating", scale_labels="Awful\nPerfect", name="Own")
    _, v = joined(Client(), own, "OWN")
    assert '"scale_labels": ["Awful", "Perfect"]' in Client().get(v["run"]).content.decode()
