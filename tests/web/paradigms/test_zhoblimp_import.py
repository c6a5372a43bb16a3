"""Importing a ZhoBLiMP project into a project: service, page, API, permissions."""

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.paradigms.models import Phrase, Template
from mpp_studio.paradigms.project_engine import project_template_check
from mpp_studio.paradigms.services.phrases import phrase_create
from mpp_studio.paradigms.services.template_upload import Upload
from mpp_studio.paradigms.services.zhoblimp_import import ZhoblimpUploadRejected, zhoblimp_project_import

pytest_plugins = ["tests.web.paradigms.library_support"]
pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "generator" / "importers" / "data" / "zhoblimp"
TEMPLATE_FILES = sorted((DATA / "templates").glob("*.json"))
IMPORTED_UIDS = [
    "BA_inversion",
    "aspect_deletion_insertion",
    "classifier_mismatch",
    "coordination_ambiguous_copy",
    "question_A_not_A_copy",
    "subject_gender__Kejia",
    "subject_gender__zhiheng",
]


def upload(path: Path, name: str | None = None) -> Upload:
    data = path.read_bytes()
    return Upload(name or path.name, len(data), data)


def project_files(extra: list[Path] = []) -> list[Upload]:  # noqa: B006 - never mutated
    return [upload(p) for p in [*TEMPLATE_FILES, *extra, DATA / "vocab.tsv", DATA / "phrases.json"]]


def zipped(paths: list[Path]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in paths:
            archive.write(path, f"ZhoBLiMP/{path.name}")
        archive.writestr("__MACOSX/._junk", b"\x00\x01")
    return buffer.getvalue()


# -- Service ---------------------------------------------------------------------------------------


def test_a_project_becomes_vocabulary_phrases_and_valid_templates(project: object, editor: object) -> None:
    outcome = zhoblimp_project_import(project=project, uploads=project_files(), user=editor)  # type: ignore[arg-type]
    assert sorted(v.template.uid for v in outcome.versions) == IMPORTED_UIDS
    assert outcome.vocabulary.name == "zhoblimp_vocab" and outcome.vocabulary.items.count() == 26
    assert sorted(Phrase.objects.values_list("name", flat=True)) == ["CD_M_NN", "HalfBroken", "NP", "Person"]
    for template in Template.objects.all():
        version = template.versions.get()
        assert version.problems == []
        check = project_template_check(project=project, source_text=version.source_text)  # type: ignore[arg-type]
        assert check.valid
    wheres = {(n.file, n.where) for n in outcome.notes}
    assert ("coordination_ambiguous_copy.json", "bad_rule[3]") in wheres
    assert ("vocab.tsv", "line 30, column 'expression'") in wheres


def test_a_zip_works_like_separate_files(project: object, editor: object) -> None:
    data = zipped([*TEMPLATE_FILES, DATA / "vocab.tsv", DATA / "phrases.json"])
    outcome = zhoblimp_project_import(
        project=project,  # type: ignore[arg-type]
        uploads=[Upload("zhoblimp.zip", len(data), data)],
        user=editor,  # type: ignore[arg-type]
        vocabulary_name="zh_imported",
    )
    assert len(outcome.versions) == 7 and outcome.vocabulary.name == "zh_imported"
    assert "vocabulary: zh_imported" in outcome.versions[0].source_text


def test_malformed_templates_are_reported_and_the_rest_stored(project: object, editor: object) -> None:
    extra = sorted((DATA / "malformed").glob("*.json"))
    outcome = zhoblimp_project_import(project=project, uploads=project_files(extra), user=editor)  # type: ignore[arg-type]
    assert len(outcome.versions) == 7
    skipped = {n.file for n in outcome.notes if n.level == "skipped"}
    assert {p.name for p in extra} <= skipped


@pytest.mark.parametrize(
    ("files", "says"),
    [
        (["templates/ba_inversion_kejia.json", "phrases.json"], "exactly one .tsv"),
        (["vocab.tsv", "phrases.json"], "no template"),
        (["malformed/broken_json.json", "vocab.tsv", "phrases.json"], "No template could be converted"),
    ],
)
def test_an_unusable_upload_stores_nothing(
    project: object, editor: object, files: list[str], says: str
) -> None:
    with pytest.raises(ZhoblimpUploadRejected) as info:
        zhoblimp_project_import(
            project=project,  # type: ignore[arg-type]
            uploads=[upload(DATA / f) for f in files],
            user=editor,  # type: ignore[arg-type]
        )
    assert says in info.value.message
    assert not Vocabulary.objects.exists() and not Template.objects.exists() and not Phrase.objects.exists()


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("project.zip", b"PK\x03\x04 not really a zip", "not a readable zip"),
        ("vocab.tsv", b"\x00\x01\x02expression\x00", "cannot be used"),
        ("vocab.tsv", "expression\tpos\n".encode("utf-16"), "cannot be used"),
    ],
)
def test_broken_files_are_refused_with_a_reason(
    project: object, editor: object, name: str, data: bytes, says: str
) -> None:
    uploads = [upload(TEMPLATE_FILES[0]), Upload(name, len(data), data)]
    if name.endswith(".zip"):
        uploads.append(upload(DATA / "vocab.tsv"))
    with pytest.raises(ZhoblimpUploadRejected) as info:
        zhoblimp_project_import(project=project, uploads=uploads, user=editor)  # type: ignore[arg-type]
    assert says in info.value.message
    assert not Template.objects.exists() and not Vocabulary.objects.exists()


def test_a_file_over_its_limit_is_refused_unread(project: object, editor: object) -> None:
    with pytest.raises(ZhoblimpUploadRejected) as info:
        zhoblimp_project_import(
            project=project,  # type: ignore[arg-type]
            uploads=[Upload("huge.json", 50 * 1024 * 1024, None), upload(DATA / "vocab.tsv")],
            user=editor,  # type: ignore[arg-type]
        )
    assert "huge.json is 50.0 MiB" in info.value.message


def test_a_phrase_the_project_has_with_other_alternatives_stores_nothing(
    project: object, editor: object
) -> None:
    phrase_create(project=project, name="Person", text="- [{direct: 某人}]\n")  # type: ignore[arg-type]
    with pytest.raises(ZhoblimpUploadRejected) as info:
        zhoblimp_project_import(project=project, uploads=project_files(), user=editor)  # type: ignore[arg-type]
    assert "Person" in info.value.message
    assert not Vocabulary.objects.exists() and not Template.objects.exists()
    assert Phrase.objects.count() == 1


def test_a_second_import_reports_the_taken_uids(project: object, editor: object) -> None:
    zhoblimp_project_import(project=project, uploads=project_files(), user=editor)  # type: ignore[arg-type]
    with pytest.raises(ZhoblimpUploadRejected):
        zhoblimp_project_import(project=project, uploads=project_files(), user=editor)  # type: ignore[arg-type]
    assert Template.objects.count() == 7 and Vocabulary.objects.count() == 1


def test_templates_the_project_has_are_reported_and_the_others_stored(
    project: object, editor: object
) -> None:
    first = [upload(TEMPLATE_FILES[0]), upload(DATA / "vocab.tsv"), upload(DATA / "phrases.json")]
    zhoblimp_project_import(project=project, uploads=first, user=editor)  # type: ignore[arg-type]
    outcome = zhoblimp_project_import(project=project, uploads=project_files(), user=editor)  # type: ignore[arg-type]
    assert outcome.vocabulary_reused and len(outcome.versions) == 6
    (taken,) = [n for n in outcome.notes if n.where == "uid" and n.level == "skipped"]
    assert taken.file == TEMPLATE_FILES[0].name and "already has a template" in taken.message
    assert Template.objects.count() == 7 and Vocabulary.objects.count() == 1


def test_a_malformed_vocabulary_name_is_refused(project: object, editor: object) -> None:
    with pytest.raises(ValidationError) as info:
        zhoblimp_project_import(
            project=project,  # type: ignore[arg-type]
            uploads=project_files(),
            user=editor,  # type: ignore[arg-type]
            vocabulary_name="a/b" * 60,
        )
    assert "vocabulary_name" in info.value.message_dict
    assert not Template.objects.exists()


# -- Page ------------------------------------------------------------------------------------------


def page_url(project: object) -> str:
    return f"/projects/{project.pk}/templates/import/zhoblimp/"  # type: ignore[attr-defined]


def files_for_post(paths: list[Path]) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(p.name, p.read_bytes()) for p in paths]


def test_page_imports_and_lists_the_report(
    client_as: Callable[[object], Client], editor: object, project: object
) -> None:
    paths = [
        *TEMPLATE_FILES,
        DATA / "malformed" / "eval_index.json",
        DATA / "vocab.tsv",
        DATA / "phrases.json",
    ]
    response = client_as(editor).post(page_url(project), {"files": files_for_post(paths)})
    assert response.status_code == 201
    page = response.content.decode()
    assert "Imported 7 templates" in page
    assert "eval_index.json" in page and "good_rule[1]" in page
    assert page.count('<tr class="import-note') >= 15
    assert Template.objects.count() == 7


def test_page_rejection_shows_the_reason_and_stores_nothing(
    client_as: Callable[[object], Client], editor: object, project: object
) -> None:
    response = client_as(editor).post(page_url(project), {"files": files_for_post(TEMPLATE_FILES)})
    assert response.status_code == 400
    assert "Nothing was imported" in response.content.decode()
    assert not Template.objects.exists()


def test_page_needs_files(client_as: Callable[[object], Client], editor: object, project: object) -> None:
    response = client_as(editor).post(page_url(project), {})
    assert response.status_code == 400
    assert "Choose the files of a ZhoBLiMP project" in response.content.decode()


def test_page_roles(
    client_as: Callable[[object], Client], editor: object, viewer: object, outsider: object, project: object
) -> None:
    assert client_as(editor).get(page_url(project)).status_code == 200
    assert client_as(viewer).get(page_url(project)).status_code == 403
    body = {"files": files_for_post([*TEMPLATE_FILES, DATA / "vocab.tsv", DATA / "phrases.json"])}
    assert client_as(viewer).post(page_url(project), body).status_code == 403
    assert client_as(outsider).get(page_url(project)).status_code == 404
    assert not Template.objects.exists()


def test_the_template_list_links_the_import_for_editors(
    client_as: Callable[[object], Client], editor: object, viewer: object, project: object
) -> None:
    list_url = f"/projects/{project.pk}/templates/"  # type: ignore[attr-defined]
    assert page_url(project) in client_as(editor).get(list_url).content.decode()
    assert page_url(project) not in client_as(viewer).get(list_url).content.decode()


# -- API -------------------------------------------------------------------------------------------


def api_url(project: object) -> str:
    return f"/api/projects/{project.pk}/templates/import/zhoblimp/"  # type: ignore[attr-defined]


def test_api_imports_and_answers_the_report(
    api_client_for: Callable[[object], object], editor: object, project: object
) -> None:
    paths = [*TEMPLATE_FILES, DATA / "vocab.tsv", DATA / "phrases.json"]
    response = api_client_for(editor).post(  # type: ignore[attr-defined]
        api_url(project), {"files": files_for_post(paths), "vocabulary_name": "zh"}, format="multipart"
    )
    assert response.status_code == 201
    body = response.json()
    assert sorted(t["uid"] for t in body["templates"]) == IMPORTED_UIDS
    assert body["vocabulary"]["name"] == "zh"
    assert {"file", "where", "level", "message"} == set(body["report"][0])


def test_api_rejection_stores_nothing(
    api_client_for: Callable[[object], object], editor: object, project: object
) -> None:
    response = api_client_for(editor).post(  # type: ignore[attr-defined]
        api_url(project), {"files": files_for_post([DATA / "vocab.tsv"])}, format="multipart"
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors[0]["field"] == "files" and "no template" in errors[0]["message"]
    assert not Vocabulary.objects.exists()


@pytest.mark.parametrize(("who", "code"), [("viewer", 403), ("outsider", 404)])
def test_api_permissions(
    api_client_for: Callable[[object], object],
    request: pytest.FixtureRequest,
    project: object,
    who: str,
    code: int,
) -> None:
    paths = [*TEMPLATE_FILES, DATA / "vocab.tsv", DATA / "phrases.json"]
    response = api_client_for(request.getfixturevalue(who)).post(  # type: ignore[attr-defined]
        api_url(project), {"files": files_for_post(paths)}, format="multipart"
    )
    assert response.status_code == code
    assert not Template.objects.exists()


def test_the_import_endpoints_are_described_in_the_schema_without_warnings() -> None:
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path in (
        "/api/projects/{project_id}/templates/import/zhoblimp/",
        "/api/projects/{project_id}/vocabularies/import/converted/",
    ):
        assert "multipart/form-data" in schema["paths"][path]["post"]["requestBody"]["content"]
    problems = [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
    assert [p for p in problems if "api_zhoblimp" in p or "api_converted" in p] == []
