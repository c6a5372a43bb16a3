"""The analysis pages: the dashboard shows the service's numbers; the rules form saves and
re-applies rules live; CSV exports have the expected columns and rows and never a raw PID;
publishing and re-validation from the page; who may do what (viewers read, editors change,
outsiders get 404)."""

import csv
import io
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.datasets.models import Pair
from mpp_studio.studies.models import Response, Study
from mpp_studio.studies.report import participant_key, study_report
from mpp_studio.studies.report_exports import ITEM_EXPORT_COLUMNS, RESPONSE_COLUMNS
from study.validation_study import GROUP_COLUMNS, WORD_COLUMNS
from tests.web.conftest import PASSWORD
from tests.web.studies.analysis_helpers import FLAGGED, SUBJ_LINE, attach_template, build

pytestmark = pytest.mark.django_db

PIDS = ("honest0", "honest1", "honest2", "honest3", "catchfail", "speedy", "stopper", "quitter")


def client_of(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def url(name: str, study: Study, *args: str) -> str:
    return reverse(f"studies:{name}", args=[study.project_id, study.pk, *args])


def rows_of(response: Any) -> list[dict[str, str]]:
    text = b"".join(response.streaming_content).decode("utf-8").lstrip("\ufeff")
    return list(csv.DictReader(io.StringIO(text)))


def test_the_dashboard_shows_the_analysis(project: Any, study: Study, pair_dataset: Any, viewer: Any) -> None:
    version = attach_template(project, pair_dataset)
    built = build(study)
    report = study_report(study)
    page = client_of(viewer).get(url("study_analysis", study))
    assert page.status_code == 200
    html = page.content.decode()
    flow = report.analysis.exclusion.flow
    # The CONSORT row for all lists: started 7, completed 6, checked 6, excluded 1, analysed 5.
    assert '<td class="num started">7</td>' in html and '<td class="num analysed">5</td>' in html
    assert (flow.excluded, flow.analysed) == (1, 5)
    assert html.count('class="flow-row') == 3  # all lists, list 1, list 2
    catch_key = participant_key(built.catch_failer.token_id)
    assert f'data-key="{catch_key}"' in html and "Answered 0 of 1 catch trials correctly" in html
    assert report.analysis.overall is not None
    assert f"{report.analysis.overall.micro * 100:.1f}%" in html
    assert "a tie counts as half" in html
    assert "prevalence paradox" in html
    assert f'data-paradigm="{FLAGGED}"' in html and "below 70%" in html
    template_page = reverse("project_paradigms:template_version", args=[project.pk, version.template_id, 3])
    assert f'href="{template_page}#L{SUBJ_LINE}"' in html
    assert 'class="position-link"' in html  # the recurring word links to its template position
    for pid in PIDS:
        assert pid not in html
    # Each item is its pair: the stable id, linked to the pair's page, with both sentences.
    item = report.analysis.items[0]
    pair = Pair.objects.get(pk=int(item.item_id))
    pair_page = reverse("datasets:pair_detail", args=[project.pk, pair_dataset.pk, pair.pk])
    row = re.search(
        rf'<tr class="item-row[^"]*" data-pair="{pair.paradigm.uid}/{pair.index}">.*?</tr>', html, re.S
    )
    assert row is not None
    assert (
        f'<a class="pair-link" href="{pair_page}"><code>{pair.paradigm.uid}/{pair.index}</code></a>'
        in row.group()
    )
    assert pair.sentence_good in row.group() and pair.sentence_bad in row.group()
    assert f"<code>{pair.pk}</code>" not in html
    # The viewer sees the rules but cannot change them.
    assert "Save the rules" not in html and "Publish to dataset card" not in html


def test_rules_are_saved_and_applied_live(study: Study, editor: Any) -> None:
    built = build(study)
    client = client_of(editor)
    response = client.post(
        url("study_analysis_rules", study),
        {"min_catch_accuracy": "1", "min_median_rt_ms": "500", "preset": "zhoblimp", "tie": "fail"},
    )
    assert response.status_code == 302
    study.refresh_from_db()
    assert study.analysis_rules["min_median_rt_ms"] == 500 and study.analysis_rules["tie"] == "fail"
    html = client.get(url("study_analysis", study)).content.decode()
    assert '<td class="num analysed">4</td>' in html
    assert "Median response time 200 ms is below 500 ms." in html
    assert participant_key(built.too_fast.token_id) in html
    assert "a tie counts as a failure" in html


def test_a_rule_that_does_not_read_is_shown_beside_the_form(study: Study, editor: Any) -> None:
    response = client_of(editor).post(
        url("study_analysis_rules", study), {"min_median_rt_ms": "fast", "preset": "zhoblimp"}
    )
    assert response.status_code == 400
    assert "Fastest median response time: write a number, not “fast”." in response.content.decode()
    study.refresh_from_db()
    assert study.analysis_rules == {}


def test_the_responses_export_is_tidy_and_keyed(study: Study, viewer: Any) -> None:
    built = build(study)
    response = client_of(viewer).get(url("study_analysis_export", study, "responses"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert 'filename="agreement-check-responses.csv"' in response["Content-Disposition"]
    rows = rows_of(response)
    assert tuple(rows[0]) == RESPONSE_COLUMNS
    stored = Response.objects.filter(participation__study=study)
    assert len(rows) == stored.count()  # withdrawn answers were deleted
    text = json.dumps(rows)
    for pid in PIDS:
        assert pid not in text
    for participation in (*built.complete, built.catch_failer):
        assert participation.token_id not in text  # the key is a hash of the token, not the token
    failer = participant_key(built.catch_failer.token_id)
    mine = [r for r in rows if r["participant_key"] == failer]
    assert len(mine) == built.catch_failer.trial_count and all(r["excluded"] == "True" for r in mine)
    catch = [r for r in mine if r["kind"] == "catch"]
    assert len(catch) == 1 and catch[0]["correct"] == "False" and catch[0]["paradigm"] == "catch"
    honest = participant_key(built.complete[0].token_id)
    first = next(r for r in rows if r["participant_key"] == honest and r["trial_index"] == "0")
    assert first["excluded"] == "False" and first["rt_ms"] == "1500"
    assert first["displayed_order"] in ("good|bad", "bad|good") and first["list"] in ("1", "2")
    assert first["chosen_role"] == ("bad" if first["paradigm"] == FLAGGED else first["chosen_role"])


def test_aggregate_exports(study: Study, viewer: Any) -> None:
    build(study)
    client = client_of(viewer)
    report = study_report(study)
    participants = rows_of(client.get(url("study_analysis_export", study, "participants")))
    assert "participant_key" in participants[0] and "participant_id" not in participants[0]
    assert len(participants) == 7
    reasons = sorted(r["reasons"] for r in participants if r["excluded"] == "True")
    assert reasons == ["catch_trials", "incomplete"]  # the one who stopped is not analysed either
    items = rows_of(client.get(url("study_analysis_export", study, "items")))
    assert tuple(items[0]) == ITEM_EXPORT_COLUMNS and len(items) == len(report.analysis.items) == 12
    # each item is named by its pair's stable id, with its dataset and sentences, never a database id
    pairs = {
        f"{uid}/{index}": (name, good, bad)
        for uid, index, name, good, bad in Pair.objects.filter(
            paradigm__dataset__project=study.project
        ).values_list("paradigm__uid", "index", "paradigm__dataset__name", "sentence_good", "sentence_bad")
    }
    assert {r["pair_id"] for r in items} <= set(pairs)
    assert all((r["dataset"], r["sentence_good"], r["sentence_bad"]) == pairs[r["pair_id"]] for r in items)
    responses = rows_of(client.get(url("study_analysis_export", study, "responses")))
    experimental = [r for r in responses if r["kind"] == "experimental"]
    assert experimental and all(r["pair_id"] in pairs and r["dataset"] for r in experimental)
    document = json.loads(client.get(url("study_analysis_export", study, "json")).content)
    first = document["items"][0]
    assert first["pair_id"] in pairs and first["sentence_good"] == pairs[first["pair_id"]][1]
    paradigms = rows_of(client.get(url("study_analysis_export", study, "paradigms")))
    assert tuple(paradigms[0]) == GROUP_COLUMNS
    assert {r["name"]: r["flagged"] for r in paradigms}[FLAGGED] == "True"
    phenomena = rows_of(client.get(url("study_analysis_export", study, "phenomena")))
    assert [r["level"] for r in phenomena] == ["phenomenon"] * 3 + ["overall"]
    words = rows_of(client.get(url("study_analysis_export", study, "words")))
    assert tuple(words[0]) == WORD_COLUMNS and words[0]["flagged"] == "True"
    whole = client.get(url("study_analysis_export", study, "json"))
    data = json.loads(whole.content)
    assert data["flow"]["analysed"] == 5 and data["rules"]["min_catch_accuracy"] == 1.0
    assert [f["paradigm"] for f in data["paradigm_flags"]] == [FLAGGED]
    for pid in PIDS:
        assert pid not in whole.content.decode()
    assert client.get(url("study_analysis_export", study, "secrets")).status_code == 404


def test_publish_and_revalidate_from_the_page(study: Study, pair_dataset: Any, editor: Any) -> None:
    client = client_of(editor)
    nothing = client.post(url("study_analysis_publish", study), follow=True)
    assert "nothing to publish" in nothing.content.decode()
    build(study)
    done = client.post(url("study_analysis_publish", study), follow=True)
    assert "Validation summary published to the card of “Agreement pairs”" in done.content.decode()
    pair_dataset.refresh_from_db()
    assert pair_dataset.validation["study_id"] == study.pk
    # The dataset's own page shows what was published, linked back to the study.
    page = client.get(f"/projects/{study.project_id}/datasets/{pair_dataset.pk}/").content.decode()
    assert 'class="card dataset-validation"' in page
    assert f'href="/projects/{study.project_id}/studies/{study.pk}/"' in page
    assert f'data-uid="{FLAGGED}"' in page and "no (below the rule)" in page
    study.prolific_study_id, study.completion_code = "PROLIFIC-1", "OLDCODE1"
    study.prolific_completion_url = "https://app.prolific.com/submissions/complete?cc=OLDCODE1"
    study.save()
    made = client.post(
        url("study_revalidate", study), {"paradigms": [FLAGGED], "datasets": [str(pair_dataset.pk)]}
    )
    new = Study.objects.get(revalidation_of=study)
    assert made.status_code == 302 and made["Location"].endswith(f"/studies/{new.pk}/")
    assert new.paradigm_filter == [FLAGGED] and new.is_draft
    # A re-validation is a new Prolific study: its own STUDY_ID, completion code and URL.
    assert new.prolific_study_id == "" and new.prolific_completion_url == ""
    assert new.completion_code != "OLDCODE1" and len(new.completion_code) == 8
    refused = client.post(url("study_revalidate", study), {"paradigms": []}, follow=True)
    assert "Choose at least one paradigm" in refused.content.decode()


def test_the_analysis_api(study: Study, viewer: Any, api_client_for: Any) -> None:
    build(study)
    path = f"/api/projects/{study.project_id}/studies/{study.pk}/analysis/"
    client = api_client_for(viewer)
    data = client.get(path).json()
    assert data["flow"]["analysed"] == 5 and data["study"]["id"] == study.pk
    faster = client.get(path, {"min_median_rt_ms": "500"}).json()
    assert faster["flow"]["analysed"] == 4
    bad = client.get(path, {"min_median_rt_ms": "soon"})
    assert bad.status_code == 400  # in the API's error layout, as every endpoint answers
    assert bad.json()["errors"][0]["field"] == "min_median_rt_ms"
    assert "write a number" in bad.json()["errors"][0]["message"]


ROLES = ("anonymous", "outsider", "viewer", "editor")


def role_client(role: str, request: pytest.FixtureRequest) -> Client:
    if role == "anonymous":
        return Client()
    if role == "outsider":
        request.getfixturevalue("other_project")
    return client_of(request.getfixturevalue(role))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("method", "name", "args", "needs"),
    [
        ("get", "study_analysis", (), "viewer"),
        ("get", "study_analysis_export", ("responses",), "viewer"),
        ("get", "study_analysis_export", ("json",), "viewer"),
        ("post", "study_analysis_rules", (), "editor"),
        ("post", "study_analysis_publish", (), "editor"),
        ("post", "study_revalidate", (), "editor"),
    ],
)
def test_permissions(
    role: str,
    method: str,
    name: str,
    args: tuple[str, ...],
    needs: str,
    study: Study,
    request: pytest.FixtureRequest,
) -> None:
    client = role_client(role, request)
    data = {"paradigms": [FLAGGED], "min_catch_accuracy": "1"} if method == "post" else None
    response = getattr(client, method)(url(name, study, *args), data)
    if role == "anonymous":
        assert response.status_code == 302 and "/login" in response["Location"]
    elif role == "outsider":
        assert response.status_code == 404
    elif needs == "editor" and role == "viewer":
        assert response.status_code == 403
    else:
        assert response.status_code in (200, 302), (role, name, response.status_code)


@pytest.mark.parametrize(("role", "status"), [("viewer", 200), ("outsider", 404)])
def test_api_permissions(
    role: str, status: int, study: Study, request: pytest.FixtureRequest, api_client_for: Any
) -> None:
    if role == "outsider":
        request.getfixturevalue("other_project")
    client = api_client_for(request.getfixturevalue(role))
    assert client.get(f"/api/projects/{study.project_id}/studies/{study.pk}/analysis/").status_code == status


def test_the_study_page_links_to_its_analysis(study: Study, viewer: Any) -> None:
    html = client_of(viewer).get(url("study_detail", study)).content.decode()
    assert f'href="{url("study_analysis", study)}"' in html


def test_a_study_nobody_has_started(project: Any, pair_dataset: Any, make_study: Any, viewer: Any) -> None:
    study = make_study(project, [pair_dataset], opened=False)
    client = client_of(viewer)
    html = client.get(url("study_analysis", study)).content.decode()
    assert "Nobody has started yet." in html and "No analysed answers yet" in html
    rows = rows_of(client.get(url("study_analysis_export", study, "responses")))
    assert rows == []
    assert json.loads(client.get(url("study_analysis_export", study, "json")).content)["overall"] is None


def test_a_triplet_study_shows_the_hypothesis_apart(
    project: Any, triplet_dataset: Any, make_study: Any, viewer: Any
) -> None:
    from tests.web.studies.analysis_helpers import answer
    from tests.web.studies.conftest import start

    study = make_study(project, [triplet_dataset], items_per_paradigm=2, catch_per_list=0)
    answer(start(study, "t1"), lambda trial: trial.comparison != "learner-artificial")
    html = client_of(viewer).get(url("study_analysis", study)).content.decode()
    assert "BLiSS's hypothesis, not a gold label" in html
    assert '<tr class="hypothesis-row" data-paradigm="all">' in html
    assert '<td class="num share">0.0%</td>' in html
    assert "#learner-artificial" not in html  # never an item of the gold agreement
    rows = rows_of(client_of(viewer).get(url("study_analysis_export", study, "responses")))
    hypothesis = [r for r in rows if r["comparison"] == "learner-artificial"]
    assert hypothesis and all(
        r["correct"] == "" and r["hypothesis"] == "chose_artificial" for r in hypothesis
    )
