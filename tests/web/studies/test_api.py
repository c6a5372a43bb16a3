"""The studies API does what the study pages do: who may read and write it, creating and
changing a study (a draft's design rebuilt, an opened study's design frozen), opening and
closing it, the analysis rules, the downloads, publishing and re-validation; bad input is a 400
naming its field, what the study's state refuses a 409, never a server error; and its schema."""

import csv
import io
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from mpp_studio.studies.models import Study
from mpp_studio.studies.report_exports import RESPONSE_COLUMNS
from tests.web.conftest import PASSWORD
from tests.web.studies.analysis_helpers import FLAGGED, build
from tests.web.studies.conftest import STUDY_DEFAULTS, make_pair_dataset, start

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "viewer", "editor", "owner")


def api_client(role: str, request: pytest.FixtureRequest) -> Any:
    from rest_framework.test import APIClient

    if role == "anonymous":
        return APIClient()
    if role == "outsider":
        request.getfixturevalue("other_project")
    return request.getfixturevalue("api_client_for")(request.getfixturevalue(role))


def api(name: str, study: Study, *args: object) -> str:
    return reverse(f"studies_api:{name}", args=[study.project_id, study.pk, *args])


def errors(response: Any) -> dict[str, str]:
    """Return the API's errors as top-level field -> message (the first message of each field;
    `datasets.0`, a list's first value, is `datasets`)."""
    found: dict[str, str] = {}
    for error in response.json()["errors"]:
        found.setdefault(error["field"].split(".")[0].split("[")[0], error["message"])
    return found


def csv_rows(response: Any) -> list[dict[str, str]]:
    text = b"".join(response.streaming_content).decode("utf-8").lstrip("\ufeff")
    return list(csv.DictReader(io.StringIO(text)))


# -- Who may do what ----------------------------------------------------------------------------


READS = [
    ("study_list", ()),
    ("study_detail", ()),
    ("study_analysis_rules", ()),
    ("study_analysis_export", ("responses",)),
    ("study_analysis_export", ("json",)),
]
# (method, route, URL args, body, what an editor gets with it)
WRITES = [
    ("post", "study_list", (), {"name": "Second", "datasets": []}, 400),
    ("patch", "study_detail", (), {"instructions": "Read both sentences."}, 200),
    ("post", "study_open", (), None, 200),
    ("post", "study_close", (), None, 200),
    ("put", "study_analysis_rules", (), {"tie": "fail"}, 200),
    ("post", "study_analysis_publish", (), None, 409),  # nobody has answered yet
    ("post", "study_revalidate", (), {"paradigms": [FLAGGED]}, 201),
]


def _url(name: str, study: Study, args: tuple[str, ...]) -> str:
    return reverse(
        f"studies_api:{name}",
        args=[study.project_id] if name == "study_list" else [study.project_id, study.pk, *args],
    )


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "args"), READS)
def test_members_read_and_download(
    role: str, name: str, args: tuple[str, ...], study: Study, request: pytest.FixtureRequest
) -> None:
    """Every member reads and downloads; a visitor needs a token (401), an outsider gets 404."""
    response = api_client(role, request).get(_url(name, study, args))
    assert response.status_code == {"anonymous": 401, "outsider": 404}.get(role, 200)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "name", "args", "body", "editor_status"), WRITES)
def test_only_editors_write(
    role: str,
    method: str,
    name: str,
    args: tuple[str, ...],
    body: dict[str, Any] | None,
    editor_status: int,
    study: Study,
    request: pytest.FixtureRequest,
) -> None:
    """Editors and owners write; a viewer gets 403 and changes nothing, an outsider 404."""
    before = Study.objects.filter(project=study.project).values().order_by("pk")
    before_rows = [dict(row) for row in before]
    response = getattr(api_client(role, request), method)(_url(name, study, args), body, format="json")
    expected = {"anonymous": 401, "outsider": 404, "viewer": 403}.get(role, editor_status)
    assert response.status_code == expected, response.content
    if role in ("anonymous", "outsider", "viewer"):
        assert [dict(row) for row in before] == before_rows
        assert response.json()["errors"][0]["field"] == ""


# -- Creating and changing a study --------------------------------------------------------------


def test_create_builds_the_design_as_the_form_does(
    project: Any, pair_dataset: Any, editor: Any, api_client_for: Any
) -> None:
    response = api_client_for(editor).post(
        reverse("studies_api:study_list", args=[project.pk]),
        {**STUDY_DEFAULTS, "datasets": [pair_dataset.pk], "language": "zh", "confidence": True},
        format="json",
    )
    assert response.status_code == 201, response.content
    data = response.json()
    study = Study.objects.get(pk=data["id"])
    assert study.is_draft and study.created_by == editor and list(study.datasets.all()) == [pair_dataset]
    assert (data["status"], data["n_lists"], data["seed"], data["confidence"]) == ("draft", 2, 7, True)
    assert data["design"]["format"] == "mpp-study-design" and len(data["design"]["lists"]) == 2
    assert [row["list_index"] for row in data["lists"]] == [0, 1]
    assert data["instructions"] and data["consent_text"]  # the language's defaults
    assert data["completion_code"] and data["paradigm_filter"] == [] and data["revalidation_of"] is None


@pytest.mark.parametrize(
    ("change", "fields"),
    [
        ({"name": None, "datasets": None}, {"name", "datasets"}),  # both missing
        ({"datasets": []}, {"datasets"}),
        ({"n_lists": 0}, {"n_lists"}),
        ({"n_lists": 1001}, {"n_lists"}),  # more lists than a design may have
        ({"n_lists": "2"}, {"n_lists"}),  # text, not a number
        ({"seed": -1}, {"seed"}),
        ({"lease_ttl_minutes": 10**12}, {"lease_ttl_minutes"}),
        ({"task": "rate"}, {"task"}),
        ({"completion_code": "   "}, {"completion_code"}),
        ({"prolific_completion_url": "not a url"}, {"prolific_completion_url"}),
        ({"datasets": [2**63]}, {"datasets"}),
        ({"catch_pairs": "only one sentence"}, {"catch_pairs"}),  # the service reads the lines
        ({"task": "rank3"}, {"task"}),  # ranking three sentences needs triplets
        ({"practice_items": 500}, {"practice_items"}),  # the sample leaves too few over
        ({"n_lists": 50}, {""}),  # the engine: 12 items cannot fill 50 lists
        ({"replication": 3}, {""}),  # the engine: more lists per item than lists
    ],
)
def test_create_refuses_bad_settings_by_field(
    change: dict[str, Any],
    fields: set[str],
    project: Any,
    pair_dataset: Any,
    editor: Any,
    api_client_for: Any,
) -> None:
    """A setting the form or the service refuses is a 400 naming it (or the whole request, for
    the engine's reasons), and nothing is stored."""
    body = {**STUDY_DEFAULTS, "datasets": [pair_dataset.pk], **change}
    body = {k: v for k, v in body.items() if v is not None}
    response = api_client_for(editor).post(
        reverse("studies_api:study_list", args=[project.pk]), body, format="json"
    )
    assert response.status_code == 400, response.content
    assert set(errors(response)) == fields
    assert not Study.objects.exists()


def test_create_takes_the_forms_limits(
    project: Any, pair_dataset: Any, editor: Any, api_client_for: Any
) -> None:
    """The settings form's limits are the API's: a rating study's scale of 2 to 11 points."""
    client = api_client_for(editor)
    url = reverse("studies_api:study_list", args=[project.pk])
    body = {**STUDY_DEFAULTS, "datasets": [pair_dataset.pk], "task": "rating"}
    refused = client.post(url, {**body, "scale_points": 12}, format="json")
    assert refused.status_code == 400 and set(errors(refused)) == {"scale_points"}
    made = client.post(url, {**body, "scale_points": 5}, format="json")
    assert made.status_code == 201, made.content
    assert (made.json()["task"], made.json()["scale_points"]) == ("rating", 5)


def test_create_takes_only_the_projects_datasets_with_pairs(
    project: Any, pair_dataset: Any, other_project: Any, editor: Any, api_client_for: Any
) -> None:
    from mpp_studio.datasets.models import Dataset

    foreign = make_pair_dataset(other_project, per_paradigm=4)
    empty = Dataset.objects.create(project=project, name="Nothing yet", pairs_per_paradigm=4)
    response = api_client_for(editor).post(
        reverse("studies_api:study_list", args=[project.pk]),
        {**STUDY_DEFAULTS, "datasets": [pair_dataset.pk, foreign.pk, empty.pk]},
        format="json",
    )
    assert response.status_code == 400
    messages = [e["message"] for e in response.json()["errors"] if e["field"] == "datasets"]
    assert [str(foreign.pk) in m for m in messages] == [True, False]
    assert str(empty.pk) in messages[1]
    assert not Study.objects.exists()


def test_a_form_body_is_read_as_the_form_is(
    project: Any, pair_dataset: Any, editor: Any, api_client_for: Any
) -> None:
    """A multipart body works too: numbers and booleans as text, datasets repeated."""
    body = {**STUDY_DEFAULTS, "datasets": [str(pair_dataset.pk)], "confidence": "true"}
    response = api_client_for(editor).post(reverse("studies_api:study_list", args=[project.pk]), body)
    assert response.status_code == 201, response.content
    assert response.json()["confidence"] is True


def test_patch_rebuilds_a_drafts_design(
    project: Any, pair_dataset: Any, make_study: Any, editor: Any, api_client_for: Any
) -> None:
    draft = make_study(project, [pair_dataset], opened=False)
    client = api_client_for(editor)
    response = client.patch(api("study_detail", draft), {"n_lists": 3, "name": "Three lists"}, format="json")
    assert response.status_code == 200, response.content
    assert len(response.json()["design"]["lists"]) == 3 and response.json()["name"] == "Three lists"
    draft.refresh_from_db()
    assert (draft.n_lists, len(draft.design["lists"]), draft.seed) == (3, 3, 7)  # others as they were
    refused = client.patch(api("study_detail", draft), {"n_lists": 40}, format="json")
    assert refused.status_code == 400 and set(errors(refused)) == {""}
    draft.refresh_from_db()
    assert len(draft.design["lists"]) == 3


def test_patch_of_an_opened_study_changes_only_texts(study: Study, editor: Any, api_client_for: Any) -> None:
    """Once opened, the texts change; the datasets, design settings and consent version are
    frozen: a 409 naming each one sent, and nothing changes."""
    client = api_client_for(editor)
    design = study.design
    response = client.patch(api("study_detail", study), {"instructions": "Read both."}, format="json")
    assert response.status_code == 200 and response.json()["instructions"] == "Read both."
    frozen = client.patch(
        api("study_detail", study), {"n_lists": 3, "consent_version": "2", "name": "New"}, format="json"
    )
    assert frozen.status_code == 409, frozen.content
    assert set(errors(frozen)) == {"n_lists", "consent_version"}
    assert "frozen" in errors(frozen)["n_lists"]
    again = client.patch(api("study_detail", study), {"datasets": [study.datasets.get().pk]}, format="json")
    assert again.status_code == 409 and set(errors(again)) == {"datasets"}
    study.refresh_from_db()
    assert (study.n_lists, study.consent_version, study.name, study.design) == (
        2,
        "1",
        "Agreement check",
        design,
    )
    bad = client.patch(api("study_detail", study), {"instructions": 5}, format="json")
    assert bad.status_code == 400 and set(errors(bad)) == {"instructions"}


# -- Opening and closing -----------------------------------------------------------------------


def test_open_and_close(
    project: Any, pair_dataset: Any, make_study: Any, editor: Any, api_client_for: Any
) -> None:
    draft = make_study(project, [pair_dataset], opened=False)
    client = api_client_for(editor)
    too_soon = client.post(api("study_close", draft))
    assert too_soon.status_code == 409 and "Only an open study" in errors(too_soon)[""]
    opened = client.post(api("study_open", draft))
    assert opened.status_code == 200 and opened.json()["status"] == "open" and opened.json()["opened_at"]
    closed = client.post(api("study_close", draft))
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert client.post(api("study_close", draft)).status_code == 409
    assert client.post(api("study_open", draft)).json()["status"] == "open"
    draft.refresh_from_db()
    assert draft.is_open


# -- Analysis rules ----------------------------------------------------------------------------


def test_rules_are_read_saved_and_used(study: Study, editor: Any, viewer: Any, api_client_for: Any) -> None:
    build(study)
    reader, writer = api_client_for(viewer), api_client_for(editor)
    defaults = reader.get(api("study_analysis_rules", study)).json()
    assert defaults["min_catch_accuracy"] == 1.0 and defaults["min_median_rt_ms"] is None
    assert reader.get(api("study_analysis", study)).json()["flow"]["analysed"] == 5
    saved = writer.put(
        api("study_analysis_rules", study), {"min_median_rt_ms": 500, "tie": "fail"}, format="json"
    )
    assert saved.status_code == 200, saved.content
    assert (saved.json()["min_median_rt_ms"], saved.json()["tie"]) == (500.0, "fail")
    study.refresh_from_db()
    assert study.analysis_rules["min_median_rt_ms"] == 500.0
    assert reader.get(api("study_analysis_rules", study)).json() == saved.json()
    assert reader.get(api("study_analysis", study)).json()["flow"]["analysed"] == 4  # the fast one out
    # A PUT replaces the rules: what it leaves out takes its default; null turns a rule off.
    off = writer.put(api("study_analysis_rules", study), {"min_catch_accuracy": None}, format="json").json()
    assert (off["min_catch_accuracy"], off["min_median_rt_ms"], off["tie"]) == (None, None, "half")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"min_median_rt_ms": "fast"}, "min_median_rt_ms"),
        ({"min_median_rt_ms": "500"}, "min_median_rt_ms"),  # text, not a number
        ({"min_catch_accuracy": 1.5}, "min_catch_accuracy"),
        ({"max_left_share_deviation": 0.6}, "max_left_share_deviation"),
        ({"min_items_answered": 2.5}, "min_items_answered"),
        ({"threshold": -0.1}, "threshold"),
        ({"preset": "mine"}, "preset"),
        ({"tie": "draw"}, "tie"),
        ({"include_incomplete": "yes"}, "include_incomplete"),
    ],
)
def test_rules_refuse_bad_values_by_field(
    body: dict[str, Any], field: str, study: Study, editor: Any, api_client_for: Any
) -> None:
    response = api_client_for(editor).put(api("study_analysis_rules", study), body, format="json")
    assert response.status_code == 400, response.content
    assert set(errors(response)) == {field}
    study.refresh_from_db()
    assert study.analysis_rules == {}


# -- Downloads ---------------------------------------------------------------------------------


def test_downloads_are_the_pages(study: Study, viewer: Any, api_client_for: Any) -> None:
    """Each download is byte for byte the analysis page's."""
    build(study)
    client = api_client_for(viewer)
    page = Client()
    assert page.login(username=viewer.username, password=PASSWORD)
    for what in ("responses", "participants", "items", "paradigms", "phenomena", "words", "json"):
        got = client.get(api("study_analysis_export", study, what))
        assert got.status_code == 200, what
        shown = page.get(reverse("studies:study_analysis_export", args=[study.project_id, study.pk, what]))
        assert got["Content-Disposition"] == shown["Content-Disposition"]
        if what == "json":
            assert got["Content-Type"].startswith("application/json")
            assert json.loads(got.content)["study"] == json.loads(shown.content)["study"]
            continue
        assert got["Content-Type"].startswith("text/csv")
        rows = csv_rows(got)
        assert rows == csv_rows(shown), what
        if what == "responses":
            assert tuple(rows[0]) == RESPONSE_COLUMNS and all(
                "honest" not in v for r in rows for v in r.values()
            )
    unknown = client.get(api("study_analysis_export", study, "secrets"))
    assert unknown.status_code == 404 and unknown.json()["errors"][0]["field"] == ""


def test_a_download_asked_for_as_csv_is_still_answered(
    study: Study, viewer: Any, api_client_for: Any
) -> None:
    """An Accept header naming the file's type is no 406."""
    response = api_client_for(viewer).get(
        api("study_analysis_export", study, "responses"), HTTP_ACCEPT="text/csv"
    )
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")


# -- Publishing and re-validation --------------------------------------------------------------


def test_publish_writes_the_summary_to_the_dataset_card(
    study: Study, pair_dataset: Any, editor: Any, api_client_for: Any
) -> None:
    client = api_client_for(editor)
    start(study, "early")
    nothing = client.post(api("study_analysis_publish", study))
    assert nothing.status_code == 409 and "nothing to publish" in errors(nothing)[""]
    pair_dataset.refresh_from_db()
    assert not pair_dataset.validation
    build(study)
    done = client.post(api("study_analysis_publish", study))
    assert done.status_code == 200, done.content
    [written] = done.json()
    assert (written["id"], written["name"]) == (pair_dataset.pk, "Agreement pairs")
    pair_dataset.refresh_from_db()
    assert written["validation"]["study_id"] == pair_dataset.validation["study_id"] == study.pk
    assert {p["uid"]: p["included"] for p in written["validation"]["paradigms"]}[FLAGGED] is False


def test_revalidate_makes_a_draft_of_the_flagged_paradigms(
    study: Study, pair_dataset: Any, editor: Any, api_client_for: Any
) -> None:
    build(study)
    response = api_client_for(editor).post(
        api("study_revalidate", study),
        {"paradigms": [FLAGGED, "en_missing"], "datasets": [pair_dataset.pk]},
        format="json",
    )
    assert response.status_code == 201, response.content
    data = response.json()
    new = Study.objects.get(revalidation_of=study)
    assert (data["id"], data["status"], data["revalidation_of"]) == (new.pk, "draft", study.pk)
    assert data["paradigm_filter"] == [FLAGGED, "en_missing"] and data["missing_paradigms"] == ["en_missing"]
    assert {item["paradigm"] for item in data["design"]["items"]} == {FLAGGED}
    assert new.created_by == editor and list(new.datasets.all()) == [pair_dataset]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "paradigms"),
        ({"paradigms": []}, "paradigms"),
        ({"paradigms": [""]}, "paradigms"),
        ({"paradigms": FLAGGED}, "paradigms"),  # one text, not a list
        ({"paradigms": [FLAGGED], "datasets": []}, "datasets"),
        ({"paradigms": [FLAGGED], "datasets": ["1"]}, "datasets"),
        ({"paradigms": ["en_nothing_like_it"]}, "datasets"),  # the datasets have none of its items
    ],
)
def test_revalidate_refuses_bad_choices_by_field(
    body: dict[str, Any], field: str, study: Study, editor: Any, api_client_for: Any
) -> None:
    response = api_client_for(editor).post(api("study_revalidate", study), body, format="json")
    assert response.status_code == 400, response.content
    assert set(errors(response)) == {field} or {e.split(".")[0].split("[")[0] for e in errors(response)} == {
        field
    }
    assert not Study.objects.filter(revalidation_of=study).exists()


def test_revalidate_takes_only_the_projects_datasets(
    study: Study, other_project: Any, editor: Any, api_client_for: Any
) -> None:
    foreign = make_pair_dataset(other_project, per_paradigm=4)
    response = api_client_for(editor).post(
        api("study_revalidate", study), {"paradigms": [FLAGGED], "datasets": [foreign.pk]}, format="json"
    )
    assert response.status_code == 400 and str(foreign.pk) in errors(response)["datasets"]


# -- Schema ------------------------------------------------------------------------------------


def test_schema_has_no_warnings_from_the_studies_api() -> None:
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    base = "/api/projects/{project_id}/studies/"
    operations = {
        (method.upper(), path[len(base) :])
        for path, item in schema["paths"].items()
        if path.startswith(base)
        for method in item
    }
    assert operations == {
        ("GET", ""),
        ("POST", ""),
        ("GET", "{study_id}/"),
        ("PATCH", "{study_id}/"),
        ("POST", "{study_id}/open/"),
        ("POST", "{study_id}/close/"),
        ("GET", "{study_id}/preview/"),
        ("POST", "{study_id}/prolific/"),
        ("GET", "{study_id}/analysis/"),
        ("GET", "{study_id}/analysis/rules/"),
        ("PUT", "{study_id}/analysis/rules/"),
        ("GET", "{study_id}/analysis/export/{what}/"),
        ("POST", "{study_id}/analysis/publish/"),
        ("POST", "{study_id}/analysis/revalidate/"),
    }
    problems = [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
    assert [p for p in problems if "studies" in p.lower() or "Study" in p] == []


def test_the_input_takes_every_setting_of_the_form() -> None:
    """The API's settings are the form's: a field the form gains is a field the API takes."""
    from mpp_studio.studies.forms import StudyForm
    from mpp_studio.studies.serializers import StudyInputSerializer

    assert set(StudyInputSerializer().fields) == set(StudyForm.Meta.fields)
