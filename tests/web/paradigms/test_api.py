"""The paradigms API: templates, versions, preview, phrases, the library and its import; roles; errors."""

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from mpp_studio.paradigms.models import LibraryTemplate, Phrase, Template
from mpp_studio.paradigms.serializers import MAX_IMPORT_TEMPLATES
from mpp_studio.paradigms.services import template_save
from tests.web.paradigms.library_texts import INVALID_TEMPLATE, NP_TEMPLATE, NP_TEXT, PLAIN_TEMPLATE

pytest_plugins = ["tests.web.paradigms.library_support"]
pytestmark = pytest.mark.django_db

ClientFor = Callable[[object], APIClient]


def api(project: object, tail: str) -> str:
    return f"/api/projects/{project.pk}/{tail}"  # type: ignore[attr-defined]


# -- Templates ------------------------------------------------------------------------------------


def test_template_list_filters_and_paginates(
    api_client_for: ClientFor, viewer: object, project: object, np_template: object, owner: object
) -> None:
    template_save(
        project=project, source_text=PLAIN_TEMPLATE.replace("language: en", "language: en-GB"), user=owner
    )  # type: ignore[arg-type]
    client = api_client_for(viewer)
    body = client.get(api(project, "templates/")).json()
    assert body["count"] == 2 and {t["uid"] for t in body["results"]} == {"np_agreement", "plain_agreement"}
    first = next(t for t in body["results"] if t["uid"] == "np_agreement")
    assert first["latest_version"]["number"] == 1 and first["latest_version"]["valid"] is True
    assert first["version_count"] == 1
    assert [t["uid"] for t in client.get(api(project, "templates/?language=en-GB")).json()["results"]] == [
        "plain_agreement"
    ]
    assert client.get(api(project, "templates/?phenomenon=nothing")).json()["count"] == 0


def test_template_list_queries_do_not_grow_with_the_templates(
    api_client_for: ClientFor, viewer: object, project: object, np_template: object, owner: object
) -> None:
    """The latest version of every listed template (and its author) comes in one query, not one
    per template; each template shows its own latest version."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = api_client_for(viewer)
    client.get(api(project, "templates/"))
    with CaptureQueriesContext(connection) as one:
        client.get(api(project, "templates/"))
    first = template_save(project=project, source_text=PLAIN_TEMPLATE, user=owner)  # type: ignore[arg-type]
    template_save(
        project=project, source_text=PLAIN_TEMPLATE + "\n", template=first.template, note="second", user=owner
    )  # type: ignore[arg-type]
    for index in range(3):
        text = PLAIN_TEMPLATE.replace("plain_agreement", f"plain_agreement_{index}")
        template_save(project=project, source_text=text, user=owner)  # type: ignore[arg-type]
    with CaptureQueriesContext(connection) as five:
        body = client.get(api(project, "templates/")).json()
    assert body["count"] == 5
    assert len(five.captured_queries) == len(one.captured_queries)
    plain = next(t for t in body["results"] if t["uid"] == "plain_agreement")
    assert plain["version_count"] == 2
    assert plain["latest_version"]["number"] == 2 and plain["latest_version"]["note"] == "second"
    assert plain["latest_version"]["created_by"] == owner.get_username()  # type: ignore[attr-defined]


def test_template_create_stores_version_1(
    api_client_for: ClientFor, editor: object, project: object, en_nouns: object
) -> None:
    response = api_client_for(editor).post(
        api(project, "templates/"), {"source_text": PLAIN_TEMPLATE, "note": "first"}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["uid"] == "plain_agreement" and body["latest_version"]["number"] == 1
    assert body["latest_version"]["note"] == "first" and body["latest_version"]["problems"] == []
    assert body["latest_version"]["capacity_text"] == "16" and body["latest_version"]["created_by"] == "ed"


def test_template_create_with_problems_is_400_naming_line_grammar_position(
    api_client_for: ClientFor, editor: object, project: object, en_nouns: object
) -> None:
    response = api_client_for(editor).post(
        api(project, "templates/"), {"source_text": INVALID_TEMPLATE}, format="json"
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "source_text" and error["code"] == "E_UNKNOWN_VALUE"
    assert error["line"] == 7 and error["grammar"] == "good" and error["position"] == "2 (subj)"
    assert "dual" in error["message"]
    assert not Template.objects.exists()


@pytest.mark.parametrize(
    ("payload", "field", "text"),
    [
        ({}, "source_text", "required"),
        ({"source_text": "good: [\n"}, "source_text", "not valid YAML"),
        ({"source_text": PLAIN_TEMPLATE, "note": "x" * 301}, "note", "300"),
    ],
)
def test_template_create_bad_input_names_the_field(
    api_client_for: ClientFor,
    editor: object,
    project: object,
    en_nouns: object,
    payload: dict[str, str],
    field: str,
    text: str,
) -> None:
    response = api_client_for(editor).post(api(project, "templates/"), payload, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors[0]["field"] == field and text in errors[0]["message"]


def test_template_create_refuses_a_taken_uid(
    api_client_for: ClientFor, editor: object, project: object, np_template: object
) -> None:
    response = api_client_for(editor).post(
        api(project, "templates/"), {"source_text": NP_TEMPLATE}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "source_text", "message": "This project already has a template with uid 'np_agreement'."}
    ]


def test_template_detail_versions_and_version(
    api_client_for: ClientFor, editor: object, project: object, np_template: object
) -> None:
    client = api_client_for(editor)
    pk = np_template.pk  # type: ignore[attr-defined]
    detail = client.get(api(project, f"templates/{pk}/")).json()
    assert detail["latest_version"]["source_text"] == NP_TEMPLATE

    # A new version with problems is stored (201) and its problems are in the body.
    broken = NP_TEMPLATE.replace("pos: VB", "pos: VERB")
    response = client.post(
        api(project, f"templates/{pk}/versions/"), {"source_text": broken, "note": "try"}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["number"] == 2 and body["valid"] is False and body["template_id"] == pk
    assert body["problems"][0]["code"] == "E_UNKNOWN_VALUE" and body["problems"][0]["line"] == 8
    versions = client.get(api(project, f"templates/{pk}/versions/")).json()
    assert [v["number"] for v in versions["results"]] == [2, 1] and versions["results"][0][
        "problem_count"
    ] == 1
    assert client.get(api(project, f"templates/{pk}/versions/1/")).json()["source_text"] == NP_TEMPLATE
    assert client.get(api(project, f"templates/{pk}/versions/9/")).status_code == 404
    assert client.get(api(project, "templates/999999/")).status_code == 404


def test_template_delete(
    api_client_for: ClientFor, editor: object, viewer: object, project: object, np_template: object
) -> None:
    pk = np_template.pk  # type: ignore[attr-defined]
    assert api_client_for(viewer).delete(api(project, f"templates/{pk}/")).status_code == 403
    assert api_client_for(editor).delete(api(project, f"templates/{pk}/")).status_code == 204
    assert not Template.objects.filter(pk=pk).exists()


def test_template_preview_gives_records_with_critical_regions(
    api_client_for: ClientFor, viewer: object, project: object, en_nouns: object, np_phrase: object
) -> None:
    client = api_client_for(viewer)
    response = client.post(
        api(project, "templates/preview/"), {"source_text": NP_TEMPLATE, "n": 5, "seed": 3}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] and body["capacity_text"] == "16" and body["problems"] == []
    assert len(body["pairs"]) == 5
    pair = body["pairs"][0]
    assert pair["UID"] == "np_agreement" and pair["sentence_good"] != pair["sentence_bad"]
    [region] = pair["critical_region"]
    assert region["type"] == "substitution" and region["good"]["positions"] == ["verb"]
    start, end = region["good"]["chars"]
    assert pair["sentence_good"][start:end] in {"Sleeps", "sleeps", "runs", "jumps", "swims"}
    assert pair["provenance"]["seed"] == 3
    # The same seed gives the same pairs; nothing was stored.
    again = client.post(
        api(project, "templates/preview/"), {"source_text": NP_TEMPLATE, "n": 5, "seed": 3}, format="json"
    )
    assert again.json()["pairs"] == body["pairs"]
    assert not Template.objects.exists()
    # Asking for more than it can make gives all it can, with a message.
    many = client.post(
        api(project, "templates/preview/"), {"source_text": NP_TEMPLATE, "n": 50}, format="json"
    ).json()
    assert len(many["pairs"]) == 16 and "only 16" in many["message"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"source_text": NP_TEMPLATE, "n": 51}, "n"),
        ({"source_text": NP_TEMPLATE, "seed": -1}, "seed"),
        ({}, "source_text"),
    ],
)
def test_template_preview_bad_input(
    api_client_for: ClientFor, editor: object, project: object, payload: dict[str, object], field: str
) -> None:
    response = api_client_for(editor).post(api(project, "templates/preview/"), payload, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == field


def test_template_preview_of_a_text_with_problems_lists_them(
    api_client_for: ClientFor, editor: object, project: object, en_nouns: object
) -> None:
    body = (
        api_client_for(editor)
        .post(api(project, "templates/preview/"), {"source_text": INVALID_TEMPLATE}, format="json")
        .json()
    )
    assert body["valid"] is False and body["pairs"] == []
    assert body["problems"][0]["line"] == 7 and body["problems"][0]["position"] == "2 (subj)"


# -- Phrases --------------------------------------------------------------------------------------


def test_phrase_crud(api_client_for: ClientFor, editor: object, project: object, np_template: object) -> None:
    client = api_client_for(editor)
    listing = client.get(api(project, "phrases/")).json()
    [np] = listing["results"]
    assert np["name"] == "NP" and np["alternative_count"] == 1
    assert np["used_by"] == [{"id": np_template.pk, "uid": "np_agreement"}]  # type: ignore[attr-defined]

    created = client.post(
        api(project, "phrases/"), {"name": "AdjNP", "text": NP_TEXT, "description": "d"}, format="json"
    )
    assert (
        created.status_code == 201 and created.json()["name"] == "AdjNP" and created.json()["rechecked"] == []
    )
    pk = created.json()["id"]
    assert client.get(api(project, f"phrases/{pk}/")).json()["description"] == "d"

    # Changing NP re-checks its template; a broken one is named.
    response = client.patch(
        api(project, f"phrases/{np['id']}/"),
        {"text": "- [{direct: the}, {id: noun, lexical: {pos: NN}}]\n"},
        format="json",
    )
    assert response.status_code == 200
    [recheck] = response.json()["rechecked"]
    assert recheck["uid"] == "np_agreement" and recheck["valid"] is False
    assert recheck["problems"][0]["code"] == "E_DANGLING_REF"
    put = client.put(api(project, f"phrases/{np['id']}/"), {"name": "NP", "text": NP_TEXT}, format="json")
    assert put.status_code == 200 and put.json()["rechecked"][0]["valid"] is True

    # Deleting NP is refused while np_agreement uses it; AdjNP goes.
    refused = client.delete(api(project, f"phrases/{np['id']}/"))
    assert refused.status_code == 409
    [error] = refused.json()["errors"]
    assert error["templates"] == ["np_agreement"] and "np_agreement" in error["message"]
    assert client.delete(api(project, f"phrases/{pk}/")).status_code == 204
    assert list(Phrase.objects.values_list("name", flat=True)) == ["NP"]


def test_phrase_text_errors_name_field_and_line(
    api_client_for: ClientFor, editor: object, project: object, np_phrase: object
) -> None:
    client = api_client_for(editor)
    response = client.post(
        api(project, "phrases/"),
        {"name": "X", "text": "- [{direct: a}]\n- [{direct: b}, {same: q}]\n"},
        format="json",
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "text" and error["line"] == 2 and error["position"] == "2"
    assert error["grammar"] == "phrase X, alternative 2"
    taken = client.post(api(project, "phrases/"), {"name": "NP", "text": NP_TEXT}, format="json")
    assert taken.status_code == 400 and taken.json()["errors"][0]["field"] == "name"
    missing = client.post(api(project, "phrases/"), {"name": "Y"}, format="json")
    assert missing.json()["errors"] == [{"field": "text", "message": "This field is required."}]


def test_phrase_list_paginates(api_client_for: ClientFor, viewer: object, project: object) -> None:
    Phrase.objects.bulk_create(Phrase(project=project, name=f"P{n:02}", text=NP_TEXT) for n in range(51))  # type: ignore[misc]
    client = api_client_for(viewer)
    first = client.get(api(project, "phrases/")).json()
    assert first["count"] == 51 and len(first["results"]) == 50 and first["next"].endswith("?page=2")
    assert [p["name"] for p in client.get(api(project, "phrases/?page=2")).json()["results"]] == ["P50"]


# -- Roles ----------------------------------------------------------------------------------------


def _endpoints(project: object, template: object, phrase: object) -> list[tuple[str, str, dict[str, object]]]:
    t, p = template.pk, phrase.pk  # type: ignore[attr-defined]
    return [
        ("get", api(project, "templates/"), {}),
        ("post", api(project, "templates/"), {"source_text": PLAIN_TEMPLATE}),
        ("get", api(project, f"templates/{t}/"), {}),
        ("get", api(project, f"templates/{t}/versions/"), {}),
        ("post", api(project, f"templates/{t}/versions/"), {"source_text": NP_TEMPLATE}),
        ("get", api(project, f"templates/{t}/versions/1/"), {}),
        ("post", api(project, "templates/preview/"), {"source_text": NP_TEMPLATE, "n": 2}),
        ("get", api(project, "phrases/"), {}),
        ("post", api(project, "phrases/"), {"name": "Other", "text": NP_TEXT}),
        ("get", api(project, f"phrases/{p}/"), {}),
        ("patch", api(project, f"phrases/{p}/"), {"description": "x"}),
        ("delete", api(project, f"templates/{t}/"), {}),
    ]


@pytest.mark.parametrize(
    ("who", "read", "write"),
    [("outsider", 404, 404), ("viewer", 200, 403), ("editor", 200, None), ("owner", 200, None)],
)
def test_project_endpoints_permission_matrix(
    api_client_for: ClientFor,
    project: object,
    other_project: object,
    np_template: object,
    who: str,
    read: int,
    write: int | None,
    request: pytest.FixtureRequest,
) -> None:
    client = api_client_for(request.getfixturevalue(who))
    phrase = Phrase.objects.get(project=project, name="NP")
    for method, url, data in _endpoints(project, np_template, phrase):
        response = getattr(client, method)(url, data, format="json")
        preview = url.endswith("preview/")
        if method == "get" or (preview and who != "outsider"):
            assert response.status_code == read, (method, url, response.content)
        elif write is None:
            assert response.status_code in (200, 201, 204), (method, url, response.content)
        else:
            assert response.status_code == write, (method, url, response.content)
            assert list(response.json()) == ["errors"]


def test_anonymous_api_requests_are_refused(client: object, project: object, np_template: object) -> None:
    phrase = Phrase.objects.get(project=project, name="NP")
    anonymous = APIClient()
    for method, url, data in _endpoints(project, np_template, phrase):
        response = getattr(anonymous, method)(url, data, format="json")
        assert response.status_code in (401, 403), (method, url)
        assert "errors" in response.json()
    assert anonymous.get("/api/library/").status_code in (401, 403)


def test_another_projects_objects_are_not_found(
    api_client_for: ClientFor, outsider: object, other_project: object, np_template: object
) -> None:
    client = api_client_for(outsider)
    phrase = Phrase.objects.get(name="NP")
    assert client.get(api(other_project, f"templates/{np_template.pk}/")).status_code == 404  # type: ignore[attr-defined]
    assert client.get(api(other_project, f"phrases/{phrase.pk}/")).status_code == 404
    assert client.delete(api(other_project, f"phrases/{phrase.pk}/")).status_code == 404
    assert Phrase.objects.filter(pk=phrase.pk).exists()


# -- The library ----------------------------------------------------------------------------------


def test_library_list_detail_and_filters(
    api_client_for: ClientFor, outsider: object, shipped_library: None
) -> None:
    client = api_client_for(outsider)
    body = client.get("/api/library/").json()
    assert body["count"] == LibraryTemplate.objects.values("file_name").distinct().count()
    first = body["results"][0]
    assert {
        "id",
        "uid",
        "language",
        "phenomenon",
        "capacity_text",
        "valid",
        "problems",
        "vocabulary",
        "source_text",
    } <= set(first)
    chinese = client.get("/api/library/?language=zh").json()
    zh_files = LibraryTemplate.objects.filter(language="zh").values("file_name").distinct().count()
    assert chinese["count"] == zh_files > 3 and {t["language"] for t in chinese["results"]} == {"zh"}
    classifier = client.get("/api/library/?phenomenon=classifier").json()["results"]
    assert "classifier_noun_agreement_numeral" in {t["uid"] for t in classifier}
    assert {t["phenomenon"] for t in classifier} == {"classifier"}
    detail = client.get(f"/api/library/{first['id']}/").json()
    assert detail["uid"] == first["uid"]
    assert client.get("/api/library/999999/").status_code == 404


def test_library_import_api(
    api_client_for: ClientFor,
    editor: object,
    viewer: object,
    project: object,
    shipped_library: None,
    run_jobs_now: None,
) -> None:
    ids = list(LibraryTemplate.objects.filter(language="zh").values_list("pk", flat=True))
    client = api_client_for(editor)
    response = client.post("/api/library/import/", {"project": project.pk, "templates": ids}, format="json")  # type: ignore[attr-defined]
    assert response.status_code == 202
    started = response.json()
    assert (started["project"], started["job"]["kind"], started["results"]) == (
        project.pk,
        "library_import",
        [],
    )  # type: ignore[attr-defined]
    detail = f"/api/projects/{project.pk}/templates/import/library/{started['id']}/"  # type: ignore[attr-defined]
    body = api_client_for(viewer).get(detail).json()  # type: ignore[attr-defined]
    assert body["job"]["status"] == "done" and body["job"]["progress_done"] == len(ids)
    assert body["imported"] == len(ids) and body["skipped"] == 0
    result = body["results"][0]
    assert (
        result["version"]["valid"] is True
        and result["template"] == Template.objects.get(uid=result["uid"]).pk
    )
    assert {"kind": "vocabulary", "name": "zh_basic", "outcome": "created"} in result["parts"]
    again = client.post(
        "/api/library/import/", {"project": project.pk, "templates": ids[:1]}, format="json"
    ).json()  # type: ignore[attr-defined]
    again = client.get(f"/api/projects/{project.pk}/templates/import/library/{again['id']}/").json()  # type: ignore[attr-defined]
    assert again["skipped"] == 1 and "already has a template" in again["results"][0]["message"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"templates": [1]}, "project"),
        ({"project": 1, "templates": []}, "templates"),
        ({"project": 1, "templates": [999999]}, "templates"),
        # the whole library fits in one request (test_library_import_api names 150 and more);
        # a list longer than the bound is refused before any lookup
        ({"project": 1, "templates": list(range(1, MAX_IMPORT_TEMPLATES + 2))}, "templates"),
    ],
)
def test_library_import_api_bad_input(
    api_client_for: ClientFor,
    editor: object,
    project: object,
    shipped_library: None,
    payload: dict[str, object],
    field: str,
) -> None:
    if payload.get("project") == 1:
        payload = {**payload, "project": project.pk}  # type: ignore[attr-defined]
    response = api_client_for(editor).post("/api/library/import/", payload, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == field


@pytest.mark.parametrize(("who", "expected"), [("outsider", 404), ("viewer", 403), ("owner", 202)])
def test_library_import_api_roles(
    api_client_for: ClientFor,
    project: object,
    other_project: object,
    shipped_library: None,
    who: str,
    expected: int,
    request: pytest.FixtureRequest,
    run_jobs_now: None,
) -> None:
    template = LibraryTemplate.objects.filter(language="zh").first()
    assert template is not None
    response = api_client_for(request.getfixturevalue(who)).post(
        "/api/library/import/",
        {"project": project.pk, "templates": [template.pk]},
        format="json",  # type: ignore[attr-defined]
    )
    assert response.status_code == expected
    assert Template.objects.filter(project=project).exists() == (expected == 202)


def test_schema_lists_the_paradigm_endpoints(api_client_for: ClientFor, viewer: object) -> None:
    schema = api_client_for(viewer).get("/api/schema/?format=json").json()
    for path in (
        "/api/projects/{project_id}/templates/",
        "/api/projects/{project_id}/templates/{template_id}/versions/{number}/",
        "/api/projects/{project_id}/templates/preview/",
        "/api/projects/{project_id}/phrases/{phrase_id}/",
        "/api/library/",
        "/api/library/import/",
    ):
        assert path in schema["paths"], path


def test_template_delete_is_refused_while_a_dataset_uses_a_version(
    api_client_for: ClientFor, editor: object, project: object, np_template: object
) -> None:
    from mpp_studio.datasets.models import Dataset, DatasetParadigm

    dataset = Dataset.objects.create(project=project, name="d", pairs_per_paradigm=5)
    DatasetParadigm.objects.create(
        dataset=dataset,
        template_version=np_template.latest_version(),  # type: ignore[attr-defined]
        uid="np_agreement",
        requested=5,
    )
    response = api_client_for(editor).delete(api(project, f"templates/{np_template.pk}/"))  # type: ignore[attr-defined]
    assert response.status_code == 409
    assert "a dataset holds pairs made from one of its versions" in response.json()["errors"][0]["message"]
    assert Template.objects.filter(pk=np_template.pk).exists()  # type: ignore[attr-defined]
