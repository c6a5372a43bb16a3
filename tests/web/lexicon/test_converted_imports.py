"""Importing BLiMP and ZhoBLiMP vocabulary files into a project: service, page, API, permissions."""

from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from mpp_studio.lexicon.engine import vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary, VocabularyImport
from mpp_studio.lexicon.services import Upload
from mpp_studio.lexicon.services.converted_imports import ImportRejected, vocabulary_import_converted
from tests.web.lexicon.conftest import import_detail
from vocab.blimp_import import import_blimp_vocabulary

ROOT = Path(__file__).resolve().parents[2]
BLIMP = ROOT / "vocab" / "data" / "blimp_vocabulary.csv"
ZHO = ROOT / "generator" / "importers" / "data" / "zhoblimp" / "vocab.tsv"

ClientFor = Callable[[object | None], Client]


def blimp_upload() -> Upload:
    return Upload("vocabulary.csv", BLIMP.read_bytes())


# -- Service ---------------------------------------------------------------------------------------


def test_blimp_file_becomes_a_vocabulary_with_its_report(project: object) -> None:
    result = vocabulary_import_converted(project=project, table=blimp_upload(), source_format="blimp")  # type: ignore[arg-type]
    vocabulary = result.vocabulary
    assert (vocabulary.name, vocabulary.language, vocabulary.items.count()) == ("vocabulary", "en", 18)
    lexicon = vocabulary_to_engine(vocabulary)
    assert lexicon.schema.features["adjs"].multi
    assert lexicon.get("dog").features["adjs"] == ("big", "small", "brown")
    wheres = [n.where for n in result.notes]
    assert "line 15, column 'expression'" in wheres and "column 'expression'" in wheres  # homographs
    # Restrictions are stored as such: the vocabulary rebuilt from its rows can enforce them.
    assert lexicon.schema.features["arg_1"].type == "restriction"
    assert lexicon.get("buys").features["arg_1"] == ("institution=1^sg=1;animate=1^sg=1",)
    assert "BLiMP vocabulary.csv" in vocabulary.description


def test_zhoblimp_file_becomes_a_vocabulary(project: object) -> None:
    result = vocabulary_import_converted(
        project=project,  # type: ignore[arg-type]
        table=Upload("vocab.tsv", ZHO.read_bytes()),
        source_format="zhoblimp",
        name="zh_vocab",
    )
    lexicon = vocabulary_to_engine(result.vocabulary)
    assert lexicon.language == "zh" and len(lexicon) == 26
    assert lexicon.get("小说").features["classifier"] == ("本", "部")
    assert any("nchar" in n.where for n in result.notes)


def test_an_unusable_file_stores_nothing(project: object) -> None:
    with pytest.raises(ImportRejected) as info:
        vocabulary_import_converted(
            project=project,  # type: ignore[arg-type]
            table=Upload("v.csv", b"word,sg\ndog,1\n"),
            source_format="blimp",
        )
    assert info.value.errors[0].column == "expression"
    assert not Vocabulary.objects.exists()


def test_a_taken_name_stores_nothing(project: object) -> None:
    vocabulary_import_converted(project=project, table=blimp_upload(), source_format="blimp")  # type: ignore[arg-type]
    with pytest.raises(ValidationError) as info:
        vocabulary_import_converted(project=project, table=blimp_upload(), source_format="blimp")  # type: ignore[arg-type]
    assert "already has a vocabulary" in str(info.value)
    assert Vocabulary.objects.count() == 1


# -- Page ------------------------------------------------------------------------------------------


def import_url(project: object) -> str:
    return reverse("lexicon:vocabulary_import", args=[project.pk])  # type: ignore[attr-defined]


def test_page_offers_the_formats(client_for: ClientFor, editor: object, project: object) -> None:
    page = client_for(editor).get(import_url(project)).content.decode()
    assert "BLiMP vocabulary.csv" in page and "ZhoBLiMP vocabulary TSV" in page


def test_page_imports_a_blimp_file_and_lists_the_report(
    client_for: ClientFor, editor: object, project: object, run_jobs_now: None
) -> None:
    response = client_for(editor).post(
        import_url(project),
        {
            "format": "blimp",
            "file": SimpleUploadedFile("vocabulary.csv", BLIMP.read_bytes()),
            "name": "blimp",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0].startswith(f"/projects/{project.pk}/vocabularies/imports/")  # type: ignore[attr-defined]
    assert response.status_code == 200
    page = response.content.decode()
    assert "with 18 items" in page
    expected = import_blimp_vocabulary(BLIMP.read_bytes(), file_name="vocabulary.csv").notes
    assert page.count('<tr class="import-note') == len(expected)
    assert "line 15, column &#x27;expression&#x27;" in page
    assert Vocabulary.objects.get().name == "blimp"


def test_page_shows_why_a_file_is_refused_and_stores_nothing(
    client_for: ClientFor, editor: object, project: object, run_jobs_now: None
) -> None:
    response = client_for(editor).post(
        import_url(project),
        {"format": "zhoblimp", "file": SimpleUploadedFile("v.tsv", "word\tpos\n书\tNN\n".encode())},
        follow=True,
    )
    page = response.content.decode()
    assert "The file was not imported: 1 problem" in page and "expression" in page
    row = VocabularyImport.objects.get()
    assert row.job.status == "failed" and row.problems[0]["line"] == 1  # type: ignore[union-attr]
    assert f"?again={row.pk}" in page  # the form again, with the format and name filled in
    assert not Vocabulary.objects.exists()


def test_page_refuses_a_schema_file_with_a_converted_format(
    client_for: ClientFor, editor: object, project: object
) -> None:
    response = client_for(editor).post(
        import_url(project),
        {
            "format": "blimp",
            "file": SimpleUploadedFile("vocabulary.csv", BLIMP.read_bytes()),
            "schema_file": SimpleUploadedFile("v.schema.yaml", b"features: {}\n"),
        },
    )
    assert response.status_code == 400
    assert "goes with the MPP Studio format only" in response.content.decode()
    assert not Vocabulary.objects.exists()


def test_viewer_cannot_import_and_outsider_gets_404(
    client_for: ClientFor, viewer: object, outsider: object, project: object
) -> None:
    body = {"format": "blimp", "file": SimpleUploadedFile("vocabulary.csv", BLIMP.read_bytes())}
    assert client_for(viewer).post(import_url(project), body).status_code == 403
    body = {"format": "blimp", "file": SimpleUploadedFile("vocabulary.csv", BLIMP.read_bytes())}
    assert client_for(outsider).post(import_url(project), body).status_code == 404
    assert not Vocabulary.objects.exists()


# -- API -------------------------------------------------------------------------------------------


def api_url(project: object) -> str:
    return f"/api/projects/{project.pk}/vocabularies/import/converted/"  # type: ignore[attr-defined]


def test_api_imports_and_answers_the_report(
    api_client_for: Callable[[object], object], editor: object, project: object, run_jobs_now: None
) -> None:
    client = api_client_for(editor)
    response = client.post(  # type: ignore[attr-defined]
        api_url(project),
        {"file": SimpleUploadedFile("vocab.tsv", ZHO.read_bytes()), "format": "zhoblimp"},
        format="multipart",
    )
    assert response.status_code == 202
    assert response.json()["job"]["kind"] == "vocabulary_import" and response.json()["vocabulary"] is None
    body = import_detail(client, project, response)
    assert body["job"]["status"] == "done"
    assert (body["vocabulary"]["name"], body["vocabulary"]["item_count"]) == ("vocab", 26)
    levels = {n["level"] for n in body["report"]}
    assert levels == {"skipped", "changed", "info"}
    skipped = [n for n in body["report"] if n["level"] == "skipped"]
    assert {n["where"] for n in skipped} == {"line 30, column 'expression'", "line 31"}


def test_api_refusal_names_line_and_column_and_stores_nothing(
    api_client_for: Callable[[object], object], editor: object, project: object, run_jobs_now: None
) -> None:
    client = api_client_for(editor)
    response = client.post(  # type: ignore[attr-defined]
        api_url(project),
        {"file": SimpleUploadedFile("v.csv", b"form,sg\ndog,1\n"), "format": "blimp"},
        format="multipart",
    )
    assert response.status_code == 202
    body = import_detail(client, project, response)
    assert (body["job"]["status"], body["vocabulary"]) == ("failed", None)
    (error,) = body["problems"]
    assert (error["field"], error["line"], error["column"]) == ("file", 1, "expression")
    assert not Vocabulary.objects.exists()


def test_api_refuses_a_taken_name_before_keeping_the_file(
    api_client_for: Callable[[object], object], editor: object, project: object
) -> None:
    vocabulary_import_converted(project=project, table=blimp_upload(), source_format="blimp")  # type: ignore[arg-type]
    response = api_client_for(editor).post(  # type: ignore[attr-defined]
        api_url(project),
        {"file": SimpleUploadedFile("vocabulary.csv", BLIMP.read_bytes()), "format": "blimp"},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "name"
    assert not VocabularyImport.objects.exists()


@pytest.mark.parametrize(("who", "code"), [("viewer", 403), ("outsider", 404)])
def test_api_permissions(
    api_client_for: Callable[[object], object],
    request: pytest.FixtureRequest,
    project: object,
    who: str,
    code: int,
) -> None:
    user = request.getfixturevalue(who)
    response = api_client_for(user).post(  # type: ignore[attr-defined]
        api_url(project),
        {"file": SimpleUploadedFile("vocabulary.csv", BLIMP.read_bytes()), "format": "blimp"},
        format="multipart",
    )
    assert response.status_code == code
    assert not Vocabulary.objects.exists()


def test_api_rejects_an_unknown_format(
    api_client_for: Callable[[object], object], editor: object, project: object
) -> None:
    response = api_client_for(editor).post(  # type: ignore[attr-defined]
        api_url(project),
        {"file": SimpleUploadedFile("v.csv", BLIMP.read_bytes()), "format": "zorro"},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "format"
