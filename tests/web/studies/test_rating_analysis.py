"""The analysis of a rating study on the platform: simulated participants answer through the
services with a difference planted in two paradigms and none in the third; the report recovers
it (ratings z-scored per participant, good minus bad per pair, t intervals and Holm), flags
exactly the paradigm without a difference, excludes the participant who failed the catch
trials, and names every item by its pair."""

from typing import Any

import pytest

from mpp_studio.studies.models import Study
from mpp_studio.studies.report_ratings import rating_item_rows, rating_report, rating_report_dict
from tests.web.studies.rating_participants import EFFECTS, answer_as_simulated

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(project: Any, pair_dataset: Any, make_study: Any) -> Study:
    study = make_study(
        project,
        [pair_dataset],
        task="rating",
        items_per_paradigm=12,
        n_lists=2,
        target_responses=16,
        catch_per_list=2,
        name="Ratings",
        seed=2026,  # the items sampled and the lists: a planted zero must not sit at the 95 % edge
    )
    study.quota_per_list = 100
    study.save()
    return study


def test_the_rating_analysis_recovers_a_planted_difference(rated: Study) -> None:
    answer_as_simulated(rated, per_list=16, inattentive=2)
    report = rating_report(rated)
    analysis = report.analysis
    by_name = {p.paradigm: p for p in analysis.paradigms}
    assert set(by_name) == set(EFFECTS)
    for name, effect in EFFECTS.items():
        paradigm = by_name[name]
        assert paradigm.n_items == 12
        assert (
            paradigm.difference is not None and paradigm.ci_low is not None and paradigm.ci_high is not None
        )
        if effect:
            assert paradigm.ci_low > 0.3, name
            assert paradigm.p_holm is not None and paradigm.p_holm < 0.001
            assert not paradigm.flagged
        else:
            assert paradigm.ci_low < 0 < paradigm.ci_high
            assert paradigm.flagged and "not_reliable" in paradigm.reasons
    # The larger planted difference is the larger recovered one.
    assert by_name["en_sv_agreement"].difference > by_name["en_det_noun"].difference > 0.5
    assert report.flagged_paradigms == ["en_anaphor"]
    # Two who rated at random: excluded when they failed a catch trial, never more.
    assert analysis.exclusion is not None and analysis.exclusion.flow.started == 34
    assert analysis.exclusion.flow.analysed >= 32
    rows = rating_item_rows(report)
    assert len(rows) == 36 and all("/" in r["pair_id"] and r["sentence_good"] for r in rows)
    document = rating_report_dict(report)
    assert document["paradigm_flags"] == ["en_anaphor"] and document["task"] == "rating"


def test_magnitude_estimation_is_analysed_on_logs(project: Any, pair_dataset: Any, make_study: Any) -> None:
    study = make_study(
        project,
        [pair_dataset],
        task="magnitude",
        reference_sentence="The cat that the dog chased ran away.",
        items_per_paradigm=12,
        target_responses=12,
        catch_per_list=1,
        name="Magnitudes",
    )
    study.quota_per_list = 100
    study.save()
    answer_as_simulated(study, per_list=12)
    report = rating_report(study)
    assert report.flagged_paradigms == ["en_anaphor"]
    assert report.analysis.scale.task == "magnitude"


def test_the_rating_analysis_page_exports_and_card(rated: Study, editor: Any, pair_dataset: Any) -> None:
    import csv
    import io
    import json

    from django.test import Client
    from django.urls import reverse

    from tests.web.conftest import PASSWORD

    answer_as_simulated(rated, per_list=8)
    client = Client()
    assert client.login(username=editor.username, password=PASSWORD)
    args = [rated.project_id, rated.pk]
    page = client.get(reverse("studies:study_analysis", args=args))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="card rating-results"' in html and "Good minus bad, per paradigm" in html
    assert html.count('<tr class="rating-paradigm') == 3
    assert 'data-paradigm="en_anaphor"' in html and "not reliable" in html
    assert "Agreement with gold" not in html  # the 2AFC sections are not shown
    assert html.count('class="pair-link"') >= 36  # every pair is named and linked

    def rows_of(what: str) -> list[dict[str, str]]:
        response = client.get(reverse("studies:study_analysis_export", args=[*args, what]))
        assert response.status_code == 200
        text = b"".join(response.streaming_content).decode("utf-8-sig")
        return list(csv.DictReader(io.StringIO(text)))

    items = rows_of("items")
    assert len(items) == 36 and all(r["pair_id"] and r["difference"] for r in items)
    paradigms = {r["paradigm"]: r for r in rows_of("paradigms")}
    assert paradigms["en_anaphor"]["flagged"] == "True" and paradigms["en_sv_agreement"]["flagged"] == "False"
    responses = rows_of("responses")
    assert responses and all(r["rating"] for r in responses) and not any(r["choice"] for r in responses)
    assert len(rows_of("participants")) == 16
    assert client.get(reverse("studies:study_analysis_export", args=[*args, "words"])).status_code == 404
    document = json.loads(client.get(reverse("studies:study_analysis_export", args=[*args, "json"])).content)
    assert document["paradigm_flags"] == ["en_anaphor"]

    published = client.post(reverse("studies:study_analysis_publish", args=args), follow=True)
    assert "Validation summary published" in published.content.decode()
    pair_dataset.refresh_from_db()
    assert pair_dataset.validation["kind"] == "rating"
    dataset_page = client.get(f"/projects/{rated.project_id}/datasets/{pair_dataset.pk}/").content.decode()
    assert "rated these sentences one at a time on a 7-point rating scale" in dataset_page
    assert "no (not reliable)" in dataset_page

    from mpp_studio.datasets.exports.card import validation_section

    card = "\n".join(validation_section(pair_dataset.validation))
    assert "| en_anaphor |" in card and "no (not reliable)" in card and "Good − bad (z)" in card


def test_the_rating_analysis_api(rated: Study, viewer: Any, api_client_for: Any) -> None:
    answer_as_simulated(rated, per_list=8)
    client = api_client_for(viewer)
    data = client.get(f"/api/projects/{rated.project_id}/studies/{rated.pk}/analysis/").json()
    assert data["task"] == "rating" and data["paradigm_flags"] == ["en_anaphor"]
    assert all("pair_id" in item and "sentence_good" in item for item in data["items"])
