"""The vocabulary API: the role matrix of every endpoint, filters, errors named by field or row,
imports (jobs) that store nothing when rejected and write large files in chunks, and export
round trips."""

from collections.abc import Callable
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from mpp_studio.lexicon.engine import schema_from_json, vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary, VocabularyImport
from mpp_studio.lexicon.services import MAX_UPLOAD_BYTES
from tests.web.conftest import EN_NOUNS_SCHEMA, ZH_NOUNS_TSV
from tests.web.lexicon.conftest import BAD_EN_CSV, ZH_NOUNS_SCHEMA, import_detail

pytestmark = pytest.mark.django_db

ApiClientFor = Callable[[object], APIClient]


def base(vocabulary: Vocabulary) -> str:
    return f"/api/projects/{vocabulary.project_id}/vocabularies/"


def item_pk(vocabulary: Vocabulary, item_id: str = "n1") -> int:
    return vocabulary.items.get(item_id=item_id).pk


# (method, path under /api/projects/<id>/vocabularies/, body, role needed, success status)
ENDPOINTS: list[tuple[str, str, dict[str, object] | None, str, int]] = [
    ("get", "", None, "viewer", 200),
    ("post", "", {"name": "new"}, "editor", 201),
    ("get", "{v}/", None, "viewer", 200),
    ("patch", "{v}/", {"description": "changed"}, "editor", 200),
    ("delete", "{v}/", None, "editor", 204),
    ("get", "{v}/items/", None, "viewer", 200),
    ("post", "{v}/items/", {"form": "ox"}, "editor", 201),
    ("get", "{v}/items/{i}/", None, "viewer", 200),
    ("patch", "{v}/items/{i}/", {"lemma": "kitty"}, "editor", 200),
    ("delete", "{v}/items/{i}/", None, "editor", 204),
    ("get", "{v}/export/?format=tsv", None, "viewer", 200),
    ("post", "import/", "upload", "editor", 202),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "needed", "success"), ENDPOINTS, ids=[f"{e[0]}-{e[1]}" for e in ENDPOINTS]
)
@pytest.mark.parametrize("who", ["anonymous", "outsider", "viewer", "editor", "owner"])
def test_vocabulary_api_checks_the_role(
    request: pytest.FixtureRequest,
    api_client_for: ApiClientFor,
    vocabulary: Vocabulary,
    method: str,
    path: str,
    body: dict[str, object] | str | None,
    needed: str,
    success: int,
    who: str,
) -> None:
    client = APIClient() if who == "anonymous" else api_client_for(request.getfixturevalue(who))
    url = base(vocabulary) + path.format(v=vocabulary.pk, i=item_pk(vocabulary))
    if body == "upload":
        response = client.post(url, {"file": SimpleUploadedFile("t.csv", b"form\ncat\n")}, format="multipart")
    else:
        response = getattr(client, method)(url, body, format="json")
    expected = {
        "anonymous": 401,
        "outsider": 404,
        "viewer": success if needed == "viewer" else 403,
        "editor": success,
        "owner": success,
    }[who]
    assert response.status_code == expected, response.content
    if expected >= 400:
        assert response.json()["errors"][0]["message"]
        assert Vocabulary.objects.filter(project_id=vocabulary.project_id).count() == 1
        assert vocabulary.items.count() == 12


def test_another_projects_vocabulary_is_not_found(
    api_client_for: ApiClientFor, editor: object, vocabulary: Vocabulary, foreign_vocabulary: Vocabulary
) -> None:
    client = api_client_for(editor)
    assert client.get(f"{base(vocabulary)}{foreign_vocabulary.pk}/").status_code == 404
    foreign_item = foreign_vocabulary.items.get().pk
    assert client.get(f"{base(vocabulary)}{vocabulary.pk}/items/{foreign_item}/").status_code == 404
    response = client.patch(
        f"{base(vocabulary)}{vocabulary.pk}/items/{foreign_item}/", {"form": "x"}, format="json"
    )
    assert response.status_code == 404
    assert foreign_vocabulary.items.get().form == "hidden"


def test_vocabulary_list_and_get(
    api_client_for: ApiClientFor, viewer: object, vocabulary: Vocabulary, zh_vocabulary: Vocabulary
) -> None:
    client = api_client_for(viewer)
    listed = client.get(base(vocabulary)).json()
    assert listed["count"] == 2
    assert [(v["name"], v["language"], v["item_count"], v["features"]) for v in listed["results"]] == [
        ("en_nouns", "en", 12, ["number"]),
        ("zh_nouns", "zh", 14, ["classifier"]),
    ]
    detail = client.get(f"{base(vocabulary)}{zh_vocabulary.pk}/").json()
    assert detail["schema"]["features"]["classifier"]["values"] == ["本", "只", "条", "张"]


def test_vocabulary_create_with_a_schema(
    api_client_for: ApiClientFor, editor: object, project: object
) -> None:
    client = api_client_for(editor)
    url = f"/api/projects/{project.pk}/vocabularies/"  # type: ignore[attr-defined]
    schema = {
        "features": {"number": {"type": "category", "values": ["sg", "pl"]}, "animate": {"type": "bool"}}
    }
    response = client.post(url, {"name": "nouns", "language": "en", "schema": schema}, format="json")
    assert response.status_code == 201
    assert response.json()["features"] == ["number", "animate"]
    bad = client.post(
        url, {"name": "other", "schema": {"features": {"case": {"type": "nominal"}}}}, format="json"
    )
    assert bad.status_code == 400
    assert bad.json()["errors"] == [
        {
            "field": "schema",
            "message": "feature 'case': type 'nominal' is not one of: "
            "category, text, bool, int, float, restriction",
        }
    ]
    taken = client.post(url, {"name": "nouns"}, format="json")
    assert taken.json()["errors"][0]["field"] == "name"
    assert Vocabulary.objects.count() == 1


def test_vocabulary_patch_schema_is_refused_naming_the_items(
    api_client_for: ApiClientFor, editor: object, vocabulary: Vocabulary
) -> None:
    url = f"{base(vocabulary)}{vocabulary.pk}/"
    schema = {"features": {"number": {"type": "category", "values": ["sg"]}}}
    response = api_client_for(editor).patch(url, {"name": "renamed", "schema": schema}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert {e["field"] for e in errors} == {"schema.features.number"}
    assert errors[0]["message"] == "item 'n2' (cats): 'pl' is not one of the declared values (sg)"
    assert len(errors) == 4
    vocabulary.refresh_from_db()
    assert vocabulary.name == "en_nouns"  # nothing of the request was kept


def test_item_list_filters_by_feature(
    api_client_for: ApiClientFor, viewer: object, vocabulary: Vocabulary, zh_vocabulary: Vocabulary
) -> None:
    client = api_client_for(viewer)
    items = f"{base(vocabulary)}{vocabulary.pk}/items/"

    def ids(url: str, **query: str) -> list[str]:
        return [item["item_id"] for item in client.get(url, query).json()["results"]]

    assert ids(items, number="pl") == ["n2", "n4", "n6", "n8"]
    assert ids(items, **{"feature.number": "sg", "search": "o"}) == ["n3", "n7"]
    assert ids(items, pos="VB") == ["v1", "v2", "v3", "v4"]
    assert ids(f"{base(vocabulary)}{zh_vocabulary.pk}/items/", classifier="只") == ["z2", "z3", "z8", "c2"]
    first = client.get(items, {"number": "pl"}).json()["results"][0]
    assert first == {
        "id": first["id"],
        "item_id": "n2",
        "form": "cats",
        "lemma": "cat",
        "pos": "NN",
        "features": {"number": ["pl"]},
    }
    bad = client.get(items, {"numbr": "pl"})
    assert bad.status_code == 400
    assert bad.json()["errors"] == [
        {"field": "numbr", "message": "this vocabulary has no feature called 'numbr' (its features: number)"}
    ]


def test_item_list_is_paginated(
    api_client_for: ApiClientFor, viewer: object, editor: object, vocabulary: Vocabulary
) -> None:
    writer = api_client_for(editor)
    items = f"{base(vocabulary)}{vocabulary.pk}/items/"
    for number in range(40):
        assert writer.post(items, {"form": f"w{number}"}, format="json").status_code == 201
    page = api_client_for(viewer).get(items).json()
    assert (page["count"], len(page["results"])) == (52, 50)
    assert page["next"].endswith("?page=2")


def test_item_create_and_patch_name_the_field_of_each_problem(
    api_client_for: ApiClientFor, editor: object, vocabulary: Vocabulary
) -> None:
    client = api_client_for(editor)
    items = f"{base(vocabulary)}{vocabulary.pk}/items/"
    bad = client.post(items, {"form": "mice", "features": {"number": "plurl", "gender": "f"}}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"] == [
        {"field": "features.number", "message": "'plurl' is not one of the declared values (sg, pl)"},
        {
            "field": "features.gender",
            "message": "this vocabulary has no feature called 'gender' (declare it on the schema page first)",
        },
    ]
    missing = client.post(items, {"lemma": "mouse"}, format="json")
    assert missing.json()["errors"] == [{"field": "form", "message": "This field is required."}]
    made = client.post(
        items, {"form": "mice", "lemma": "mouse", "features": {"number": ["pl"]}}, format="json"
    ).json()
    assert (made["item_id"], made["features"]) == ("mice", {"number": ["pl"]})
    url = f"{items}{made['id']}/"
    patched = client.patch(url, {"pos": "NN"}, format="json").json()
    assert (patched["pos"], patched["features"]) == ("NN", {"number": ["pl"]})
    cleared = client.patch(url, {"features": {"number": None}}, format="json").json()
    assert cleared["features"] == {}
    taken = client.patch(url, {"item_id": "n1"}, format="json")
    assert taken.json()["errors"][0]["field"] == "item_id"
    assert client.delete(url).status_code == 204
    assert vocabulary.items.count() == 12


def test_import_creates_a_vocabulary(
    api_client_for: ApiClientFor, editor: object, project: object, run_jobs_now: None
) -> None:
    client = api_client_for(editor)
    response = client.post(  # type: ignore[attr-defined]
        f"/api/projects/{project.pk}/vocabularies/import/",  # type: ignore[attr-defined]
        {
            "file": SimpleUploadedFile("zh_nouns.tsv", ZH_NOUNS_TSV.encode()),
            "schema_file": SimpleUploadedFile("zh_nouns.schema.yaml", ZH_NOUNS_SCHEMA.encode()),
            "name": "名词",
        },
        format="multipart",
    )
    assert response.status_code == 202
    started = response.json()
    assert (started["file_name"], started["schema_file_name"], started["job"]["status"]) == (
        "zh_nouns.tsv",
        "zh_nouns.schema.yaml",
        "queued",
    )
    body = import_detail(client, project, response)
    assert (body["job"]["status"], body["job"]["progress_done"], body["job"]["progress_total"]) == (
        "done",
        14,
        14,
    )
    vocabulary = body["vocabulary"]
    assert (vocabulary["name"], vocabulary["language"], vocabulary["item_count"]) == ("名词", "zh", 14)


def test_import_rejection_lists_every_row_and_stores_nothing(
    api_client_for: ApiClientFor, editor: object, project: object, run_jobs_now: None
) -> None:
    client = api_client_for(editor)
    response = client.post(  # type: ignore[attr-defined]
        f"/api/projects/{project.pk}/vocabularies/import/",  # type: ignore[attr-defined]
        {
            "file": SimpleUploadedFile("bad.csv", BAD_EN_CSV.encode()),
            "schema_file": SimpleUploadedFile("en.schema.yaml", EN_NOUNS_SCHEMA.encode()),
        },
        format="multipart",
    )
    assert response.status_code == 202
    body = import_detail(client, project, response)
    assert (body["job"]["status"], body["vocabulary"]) == ("failed", None)
    assert body["job"]["message"].startswith("bad.csv was not imported: 3 problems")
    errors = body["problems"]
    assert [(e["field"], e["file"], e["line"], e["column"]) for e in errors] == [
        ("file", "bad.csv", 3, "number"),
        ("file", "bad.csv", 4, "form"),
        ("file", "bad.csv", 5, None),
    ]
    assert errors[0]["message"] == "'plurl' is not one of the declared values (sg, pl)"
    assert not Vocabulary.objects.exists()


def test_import_refuses_a_file_over_the_limit_at_once(
    api_client_for: ApiClientFor, editor: object, project: object
) -> None:
    body = {"file": SimpleUploadedFile("big.csv", b"form\n" + b"x" * MAX_UPLOAD_BYTES)}
    response = api_client_for(editor).post(  # type: ignore[attr-defined]
        f"/api/projects/{project.pk}/vocabularies/import/",
        body,
        format="multipart",  # type: ignore[attr-defined]
    )
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["message"].startswith("the file is 10.0 MiB; the limit is 10 MiB")) == (
        "file",
        True,
    )
    assert not Vocabulary.objects.exists() and not VocabularyImport.objects.exists()


@pytest.mark.parametrize(
    ("files", "field", "start"),
    [
        ({"file": ("photo.csv", b"\x89PNG\r\n\x1a\n")}, "file", "this line is not UTF-8 text"),
        (
            {"file": ("t.csv", b"form\ncat\n"), "schema_file": ("t.schema.yaml", b"features: [\n")},
            "schema_file",
            "this is not valid YAML",
        ),
    ],
    ids=["binary", "bad-schema"],
)
def test_import_job_refuses_bad_files_naming_the_field(
    api_client_for: ApiClientFor,
    editor: object,
    project: object,
    run_jobs_now: None,
    files: dict[str, tuple[str, bytes]],
    field: str,
    start: str,
) -> None:
    client = api_client_for(editor)
    body = {key: SimpleUploadedFile(name, data) for key, (name, data) in files.items()}
    response = client.post(f"/api/projects/{project.pk}/vocabularies/import/", body, format="multipart")  # type: ignore[attr-defined]
    assert response.status_code == 202
    error = import_detail(client, project, response)["problems"][0]
    assert (error["field"], error["message"].startswith(start)) == (field, True), error
    assert not Vocabulary.objects.exists()


def test_import_of_a_large_file_is_written_in_chunks_and_safe_to_run_twice(
    editor: object, project: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of 5,000 items is stored 2,000 at a time; a run that died after the first chunk is
    run again: it finds the vocabulary it began and writes only the items missing."""
    from django.core.files.uploadedfile import SimpleUploadedFile as File

    from mpp_studio.lexicon.models import VocabularyItem
    from mpp_studio.lexicon.services import vocabularies
    from mpp_studio.lexicon.services.import_jobs import vocabulary_import_run, vocabulary_import_start
    from mpp_studio.lexicon.tasks import import_vocabulary

    table = "form,number\n" + "".join(f"w{i},{'sg' if i % 2 else 'pl'}\n" for i in range(5_000))
    with mock.patch.object(import_vocabulary, "delay_on_commit"):
        row = vocabulary_import_start(
            project=project, table=File("big.csv", table.encode()), created_by=editor
        )  # type: ignore[arg-type]
    chunks: list[int] = []
    real = vocabularies.vocabulary_items_store

    def dies_after_one_chunk(**kwargs: object) -> bool:
        progress = kwargs.pop("progress")

        def once(done: int) -> bool:
            chunks.append(done)
            progress(done)  # type: ignore[operator]
            raise RuntimeError("the worker died")

        return real(progress=once, **kwargs)  # type: ignore[arg-type]

    dying = mock.patch("mpp_studio.lexicon.services.import_jobs.vocabulary_items_store", dies_after_one_chunk)
    with dying, pytest.raises(RuntimeError):
        vocabulary_import_run(import_id=row.pk)
    assert chunks == [2_000] and VocabularyItem.objects.count() == 2_000
    vocabulary_import_run(import_id=row.pk)  # the message is delivered again
    row.refresh_from_db()
    assert row.job.status == "done" and row.vocabulary is not None  # type: ignore[union-attr]
    assert list(row.vocabulary.items.values_list("form", flat=True)[:3]) == ["w0", "w1", "w2"]
    assert row.vocabulary.items.count() == 5_000 and Vocabulary.objects.count() == 1
    assert row.uploads == []
    vocabulary_import_run(import_id=row.pk)  # and once more: nothing changes
    assert VocabularyItem.objects.count() == 5_000


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_export_then_import_gives_the_same_version(
    api_client_for: ApiClientFor, editor: object, zh_vocabulary: Vocabulary, fmt: str
) -> None:
    client = api_client_for(editor)
    export = f"{base(zh_vocabulary)}{zh_vocabulary.pk}/export/"
    table = client.get(export, {"format": fmt})
    schema = client.get(export, {"format": "schema"})
    assert table["Content-Disposition"] == f'attachment; filename="zh_nouns.{fmt}"'
    assert "狗" in table.content.decode() and "量词" in schema.content.decode()
    response = client.post(
        f"{base(zh_vocabulary)}import/",
        {
            "file": SimpleUploadedFile(f"zh_nouns.{fmt}", table.content),
            "schema_file": SimpleUploadedFile("zh_nouns.schema.yaml", schema.content),
            "name": "copy",
        },
        format="multipart",
    )
    copy = Vocabulary.objects.get(pk=response.json()["id"])
    assert vocabulary_to_engine(copy).version == vocabulary_to_engine(zh_vocabulary).version
    assert schema_from_json(copy.schema) == schema_from_json(zh_vocabulary.schema)
    bad = client.get(export, {"format": "xlsx"})
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "format"


def test_openapi_schema_documents_the_vocabulary_api(
    client_for: Callable[[object | None], object], viewer: object
) -> None:
    response = client_for(viewer).get("/api/schema/")  # type: ignore[attr-defined]
    assert response.status_code == 200
    text = response.content.decode()
    for path in (
        "/vocabularies/import/",
        "/vocabularies/{vocabulary_id}/items/{item_pk}/",
        "/vocabularies/{vocabulary_id}/export/",
    ):
        assert path in text


def test_openapi_schema_of_the_vocabulary_api_has_no_warnings(db: None) -> None:
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        SchemaGenerator().get_schema(request=None, public=True)
    problems = [
        msg for msg in [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache] if "lexicon" in msg
    ]
    GENERATOR_STATS.reset()
    assert problems == []


def test_a_queued_import_whose_message_was_lost_is_sent_again(project: object, editor: object) -> None:
    """`manage.py requeue_jobs --queued-for` (resend_queued) sends a queued import's message again."""
    from datetime import timedelta

    from django.utils import timezone

    from mpp_studio.jobs import queueing
    from mpp_studio.lexicon.services.import_jobs import vocabulary_import_start

    started = vocabulary_import_start(
        project=project,  # type: ignore[arg-type]
        table=SimpleUploadedFile("waiting.csv", b"form\ncat\n"),
        created_by=editor,  # type: ignore[arg-type]
    )
    with (
        mock.patch.object(queueing, "_broker_failed_at", 0.0),
        mock.patch("mpp_studio.lexicon.tasks.import_vocabulary.delay") as send,
    ):
        sent = queueing.resend_queued(created_before=timezone.now() + timedelta(seconds=1))
    assert sent == {started.job_id: 1}
    assert [c.args for c in send.call_args_list] == [(started.pk,)]
