"""Importing a ZhoBLiMP project into a project: the job, page, API, permissions."""

import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from mpp_studio.lexicon.models import Vocabulary, VocabularyItem
from mpp_studio.paradigms.models import Phrase, Template, TemplateVersion, ZhoblimpImport
from mpp_studio.paradigms.project_engine import project_template_check
from mpp_studio.paradigms.services.phrases import phrase_create
from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_start
from tests.web.conftest import import_jobs_run_now

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


# -- The job (started as the page and the API start it, run at once) --------------------------------


def run_import(
    project: object, user: object, files: list[tuple[str, bytes]], vocabulary_name: str = ""
) -> ZhoblimpImport:
    """Start an import of these (name, bytes) files and run its job; return the import as it ended."""
    with import_jobs_run_now():
        started = zhoblimp_import_start(
            project=project,  # type: ignore[arg-type]
            files=[SimpleUploadedFile(name, data) for name, data in files],
            vocabulary_name=vocabulary_name,
            created_by=user,  # type: ignore[arg-type]
        )
    return ZhoblimpImport.objects.select_related("job", "vocabulary").get(pk=started.pk)


def upload(path: Path, name: str | None = None) -> tuple[str, bytes]:
    return (name or path.name, path.read_bytes())


def project_files(extra: list[Path] = []) -> list[tuple[str, bytes]]:  # noqa: B006 - never mutated
    return [upload(p) for p in [*TEMPLATE_FILES, *extra, DATA / "vocab.tsv", DATA / "phrases.json"]]


def zipped(paths: list[Path]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in paths:
            archive.write(path, f"ZhoBLiMP/{path.name}")
        archive.writestr("__MACOSX/._junk", b"\x00\x01")
    return buffer.getvalue()


def stored_uids(row: ZhoblimpImport) -> list[str]:
    return sorted(str(t["uid"]) for t in row.templates)


def test_a_project_becomes_vocabulary_phrases_and_valid_templates(project: object, editor: object) -> None:
    row = run_import(project, editor, project_files())
    assert row.job.status == "done" and row.uploads == []  # type: ignore[union-attr]
    assert stored_uids(row) == IMPORTED_UIDS
    assert row.vocabulary.name == "zhoblimp_vocab" and row.vocabulary.items.count() == 26  # type: ignore[union-attr]
    assert row.vocabulary_created
    assert sorted(Phrase.objects.values_list("name", flat=True)) == ["CD_M_NN", "HalfBroken", "NP", "Person"]
    assert sorted(row.phrases) == ["CD_M_NN", "HalfBroken", "NP", "Person"]
    for template in Template.objects.all():
        version = template.versions.get()
        assert version.problems == []
        # Checked before the write against the vocabulary and phrases about to be stored: the same
        # outcome as a check against what is stored now.
        check = project_template_check(project=project, source_text=version.source_text)  # type: ignore[arg-type]
        assert check.valid and check.capacity_text == version.capacity_text
        assert check.parsed is not None and check.parsed.content_hash == version.engine_hash
    wheres = {(n["file"], n["where"]) for n in row.report}
    assert ("coordination_ambiguous_copy.json", "bad_rule[3]") in wheres
    assert ("vocab.tsv", "line 30, column 'expression'") in wheres
    assert row.job.message.startswith("Imported 7 templates with the vocabulary “zhoblimp_vocab”.")  # type: ignore[union-attr]


def test_a_zip_works_like_separate_files(project: object, editor: object) -> None:
    data = zipped([*TEMPLATE_FILES, DATA / "vocab.tsv", DATA / "phrases.json"])
    row = run_import(project, editor, [("zhoblimp.zip", data)], vocabulary_name="zh_imported")
    assert len(row.templates) == 7 and row.vocabulary.name == "zh_imported"  # type: ignore[union-attr]
    assert "vocabulary: zh_imported" in TemplateVersion.objects.order_by("pk").first().source_text  # type: ignore[union-attr]
    assert row.file_names == ["zhoblimp.zip"]


def test_malformed_templates_are_reported_and_the_rest_stored(project: object, editor: object) -> None:
    extra = sorted((DATA / "malformed").glob("*.json"))
    row = run_import(project, editor, project_files(extra))
    assert len(row.templates) == 7
    skipped = {n["file"] for n in row.report if n["level"] == "skipped"}
    assert {p.name for p in extra} <= skipped


def assert_nothing_stored() -> None:
    assert not Vocabulary.objects.exists() and not Template.objects.exists() and not Phrase.objects.exists()


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
    row = run_import(project, editor, [upload(DATA / f) for f in files])
    assert row.job.status == "failed" and says in row.job.message  # type: ignore[union-attr]
    assert row.uploads == [] and row.templates == [] and row.vocabulary is None
    assert_nothing_stored()


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
    files = [upload(TEMPLATE_FILES[0]), (name, data)]
    if name.endswith(".zip"):
        files.append(upload(DATA / "vocab.tsv"))
    row = run_import(project, editor, files)
    assert row.job.status == "failed" and says in row.job.message and name in row.job.message  # type: ignore[union-attr]
    assert_nothing_stored()


def test_a_file_over_its_limit_is_refused_before_it_is_kept(project: object, editor: object) -> None:
    huge = SimpleUploadedFile("huge.json", b"{}")
    huge.size = 50 * 1024 * 1024
    with pytest.raises(ValidationError) as info:
        zhoblimp_import_start(
            project=project,  # type: ignore[arg-type]
            files=[huge, SimpleUploadedFile("vocab.tsv", (DATA / "vocab.tsv").read_bytes())],
            created_by=editor,  # type: ignore[arg-type]
        )
    assert "huge.json is 50.0 MiB" in info.value.message_dict["files"][0]
    assert not ZhoblimpImport.objects.exists()


def test_a_phrase_the_project_has_with_other_alternatives_stores_nothing(
    project: object, editor: object
) -> None:
    phrase_create(project=project, name="Person", text="- [{direct: 某人}]\n")  # type: ignore[arg-type]
    row = run_import(project, editor, project_files())
    assert row.job.status == "failed" and "Person" in row.job.message  # type: ignore[union-attr]
    assert not Vocabulary.objects.exists() and not Template.objects.exists()
    assert Phrase.objects.count() == 1


def test_a_second_import_reports_the_taken_uids(project: object, editor: object) -> None:
    run_import(project, editor, project_files())
    again = run_import(project, editor, project_files())
    assert again.job.status == "failed" and "No converted template could be stored" in again.job.message  # type: ignore[union-attr]
    # The vocabulary it found (the same content) is the first import's, and stays.
    assert Template.objects.count() == 7 and Vocabulary.objects.count() == 1


def test_a_vocabulary_the_job_began_goes_when_nothing_else_can_be_stored(
    project: object, editor: object
) -> None:
    """The second import names another vocabulary: the job writes it, then finds every uid taken;
    the project imports whole or not at all, so that vocabulary is removed again."""
    run_import(project, editor, project_files(), vocabulary_name="first")
    again = run_import(project, editor, project_files(), vocabulary_name="second")
    assert again.job.status == "failed" and not again.vocabulary_created  # type: ignore[union-attr]
    assert list(Vocabulary.objects.values_list("name", flat=True)) == ["first"]
    assert not VocabularyItem.objects.filter(vocabulary__name="second").exists()


def test_templates_the_project_has_are_reported_and_the_others_stored(
    project: object, editor: object
) -> None:
    first = [upload(TEMPLATE_FILES[0]), upload(DATA / "vocab.tsv"), upload(DATA / "phrases.json")]
    run_import(project, editor, first)
    row = run_import(project, editor, project_files())
    assert not row.vocabulary_created and len(row.templates) == 6
    (taken,) = [n for n in row.report if n["where"] == "uid" and n["level"] == "skipped"]
    assert taken["file"] == TEMPLATE_FILES[0].name and "already has a template" in taken["message"]
    assert Template.objects.count() == 7 and Vocabulary.objects.count() == 1
    assert "(already in the project with the same content)" in row.job.message  # type: ignore[union-attr]


def test_a_malformed_vocabulary_name_is_refused_before_the_files_are_kept(
    project: object, editor: object
) -> None:
    with pytest.raises(ValidationError) as info:
        zhoblimp_import_start(
            project=project,  # type: ignore[arg-type]
            files=[SimpleUploadedFile(n, d) for n, d in project_files()],
            vocabulary_name="a/b" * 60,
            created_by=editor,  # type: ignore[arg-type]
        )
    assert "vocabulary_name" in info.value.message_dict
    assert not ZhoblimpImport.objects.exists() and not Template.objects.exists()


def test_the_job_is_safe_to_run_twice_and_after_a_death(project: object, editor: object) -> None:
    """A run that died after writing the vocabulary (before the templates) is run again: it finds
    the vocabulary it began and stores the rest once; a third run changes nothing."""
    from mpp_studio.paradigms.services import zhoblimp_import as service
    from mpp_studio.paradigms.tasks import import_zhoblimp

    with mock.patch.object(import_zhoblimp, "delay_on_commit"):
        started = zhoblimp_import_start(
            project=project,  # type: ignore[arg-type]
            files=[SimpleUploadedFile(n, d) for n, d in project_files()],
            created_by=editor,  # type: ignore[arg-type]
        )
    dying = mock.patch.object(service, "_store", side_effect=RuntimeError("the worker died"))
    with dying, pytest.raises(RuntimeError):
        service.zhoblimp_import_run(import_id=started.pk)
    assert Vocabulary.objects.get().items.count() == 26 and not Template.objects.exists()
    service.zhoblimp_import_run(import_id=started.pk)
    service.zhoblimp_import_run(import_id=started.pk)
    row = ZhoblimpImport.objects.select_related("job").get(pk=started.pk)
    assert row.job.status == "done" and stored_uids(row) == IMPORTED_UIDS  # type: ignore[union-attr]
    assert Vocabulary.objects.count() == 1 and VocabularyItem.objects.count() == 26
    assert Template.objects.count() == 7 and TemplateVersion.objects.count() == 7


def test_the_job_counts_its_work_and_checks_before_it_writes(project: object, editor: object) -> None:
    """Progress counts each template checked, each vocabulary item and the store; the templates
    are checked before the write, so the store only writes rows."""
    from mpp_studio.paradigms.services import zhoblimp_import as service

    checks: list[str] = []
    real = service.project_template_check

    def counted(**kwargs: object) -> object:
        checks.append(str(kwargs.get("content") is not None))
        return real(**kwargs)  # type: ignore[arg-type]

    with mock.patch.object(service, "project_template_check", counted):
        row = run_import(project, editor, project_files())
    assert checks == ["True"] * 7  # each checked once, before the write, never inside it
    assert (row.job.progress_done, row.job.progress_total) == (7 + 26 + 1, 7 + 26 + 1)  # type: ignore[union-attr]


# -- Page ------------------------------------------------------------------------------------------


def page_url(project: object) -> str:
    return f"/projects/{project.pk}/templates/import/zhoblimp/"  # type: ignore[attr-defined]


def files_for_post(paths: list[Path]) -> list[SimpleUploadedFile]:
    return [SimpleUploadedFile(p.name, p.read_bytes()) for p in paths]


def test_page_imports_and_lists_the_report(
    client_as: Callable[[object], Client], editor: object, project: object, run_jobs_now: None
) -> None:
    paths = [
        *TEMPLATE_FILES,
        DATA / "malformed" / "eval_index.json",
        DATA / "vocab.tsv",
        DATA / "phrases.json",
    ]
    response = client_as(editor).post(page_url(project), {"files": files_for_post(paths)}, follow=True)
    row = ZhoblimpImport.objects.get()
    assert response.redirect_chain == [(f"{page_url(project)}{row.pk}/", 302)]
    page = response.content.decode()
    assert "Imported 7 templates" in page
    assert "eval_index.json" in page and "good_rule[1]" in page
    assert page.count('<tr class="import-note') >= 15
    assert Template.objects.count() == 7


def test_page_rejection_shows_the_reason_and_stores_nothing(
    client_as: Callable[[object], Client], editor: object, project: object, run_jobs_now: None
) -> None:
    response = client_as(editor).post(
        page_url(project), {"files": files_for_post(TEMPLATE_FILES)}, follow=True
    )
    page = response.content.decode()
    assert "Nothing was imported" in page and "exactly one .tsv file" in page
    assert f'href="{page_url(project)}"' in page  # back to the form
    assert not Template.objects.exists()


def test_page_answers_before_the_files_are_read(
    client_as: Callable[[object], Client], editor: object, viewer: object, project: object
) -> None:
    """Without a worker the page answers at once: the import's page follows the queued job, which
    has kept the files; nothing is stored yet. Viewers may follow it too."""
    paths = [*TEMPLATE_FILES, DATA / "vocab.tsv", DATA / "phrases.json"]
    response = client_as(editor).post(page_url(project), {"files": files_for_post(paths)})
    row = ZhoblimpImport.objects.get()
    assert response.status_code == 302 and len(row.uploads) == len(paths)
    page = client_as(viewer).get(response["Location"]).content.decode()
    assert 'data-status="queued"' in page and f"/templates/import/jobs/{row.job_id}/status/" in page
    assert 'hx-trigger="job-finished from:body"' in page
    assert "ba_inversion_kejia.json" in page  # the files it keeps
    assert not Template.objects.exists() and not Vocabulary.objects.exists()


def test_page_refuses_a_file_over_its_limit_at_once(
    client_as: Callable[[object], Client], editor: object, project: object, settings: object
) -> None:
    settings.MPP_TEMPLATE_UPLOAD_MAX_BYTES = 1024  # type: ignore[attr-defined]
    big = SimpleUploadedFile("big.json", b"{" + b" " * 2048 + b"}")
    response = client_as(editor).post(
        page_url(project), {"files": [big, *files_for_post([DATA / "vocab.tsv"])]}
    )
    assert response.status_code == 400
    assert "big.json is 0.0 MiB; the limit for this kind of file is" in response.content.decode()
    assert not ZhoblimpImport.objects.exists()


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


def detail(client: object, project: object, started: object) -> dict[str, object]:
    """Return the API's view of the import a 202 answer started."""
    response = client.get(f"{api_url(project)}{started.json()['id']}/")  # type: ignore[attr-defined]
    assert response.status_code == 200, response.content
    return response.json()  # type: ignore[no-any-return]


def test_api_imports_and_answers_the_report(
    api_client_for: Callable[[object], object], editor: object, project: object, run_jobs_now: None
) -> None:
    client = api_client_for(editor)
    paths = [*TEMPLATE_FILES, DATA / "vocab.tsv", DATA / "phrases.json"]
    response = client.post(  # type: ignore[attr-defined]
        api_url(project), {"files": files_for_post(paths), "vocabulary_name": "zh"}, format="multipart"
    )
    assert response.status_code == 202
    assert (response.json()["job"]["kind"], response.json()["templates"]) == ("zhoblimp_import", [])
    body = detail(client, project, response)
    assert body["job"]["status"] == "done"  # type: ignore[index]
    assert sorted(t["uid"] for t in body["templates"]) == IMPORTED_UIDS  # type: ignore[union-attr]
    assert body["vocabulary"] == {"id": Vocabulary.objects.get().pk, "name": "zh", "reused": False}
    assert {"file", "where", "level", "message"} == set(body["report"][0])  # type: ignore[index]


def test_api_rejection_stores_nothing(
    api_client_for: Callable[[object], object], editor: object, project: object, run_jobs_now: None
) -> None:
    client = api_client_for(editor)
    response = client.post(  # type: ignore[attr-defined]
        api_url(project), {"files": files_for_post([DATA / "vocab.tsv"])}, format="multipart"
    )
    assert response.status_code == 202
    body = detail(client, project, response)
    assert body["job"]["status"] == "failed" and "no template" in body["job"]["message"]  # type: ignore[index]
    assert (body["vocabulary"], body["templates"]) == (None, [])
    assert not Vocabulary.objects.exists()


def test_api_refuses_a_malformed_vocabulary_name_at_once(
    api_client_for: Callable[[object], object], editor: object, project: object
) -> None:
    paths = [*TEMPLATE_FILES, DATA / "vocab.tsv"]
    response = api_client_for(editor).post(  # type: ignore[attr-defined]
        api_url(project), {"files": files_for_post(paths), "vocabulary_name": "a/b"}, format="multipart"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "vocabulary_name"
    assert not ZhoblimpImport.objects.exists()


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
        assert "202" in schema["paths"][path]["post"]["responses"]
    for path in (
        "/api/projects/{project_id}/templates/import/zhoblimp/{import_id}/",
        "/api/projects/{project_id}/vocabularies/imports/{import_id}/",
        "/api/projects/{project_id}/templates/import/library/{import_id}/",
    ):
        assert "200" in schema["paths"][path]["get"]["responses"]
    problems = [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
    mine = ("apis_zhoblimp", "apis_converted", "apis_imports")
    assert [p for p in problems if any(m in p for m in mine)] == []


def test_queued_imports_whose_messages_were_lost_are_sent_again(project: object, editor: object) -> None:
    """`manage.py requeue_jobs --queued-for` (resend_queued) sends a queued import's message again."""
    from datetime import timedelta

    from django.utils import timezone

    from mpp_studio.jobs import queueing
    from mpp_studio.paradigms.services.library_into_project import library_templates_import_start

    zho = zhoblimp_import_start(
        project=project,  # type: ignore[arg-type]
        files=[SimpleUploadedFile(n, d) for n, d in project_files()],
        created_by=editor,  # type: ignore[arg-type]
    )
    library = library_templates_import_start(project=project, templates=[], user=editor)  # type: ignore[arg-type]
    with (
        mock.patch.object(queueing, "_broker_failed_at", 0.0),
        mock.patch("mpp_studio.paradigms.tasks.import_zhoblimp.delay") as zho_send,
        mock.patch("mpp_studio.paradigms.tasks.import_library.delay") as library_send,
    ):
        sent = queueing.resend_queued(created_before=timezone.now() + timedelta(seconds=1))
    assert sent == {zho.job_id: 1, library.job_id: 1}
    assert [c.args for c in zho_send.call_args_list] == [(zho.pk,)]
    assert [c.args for c in library_send.call_args_list] == [(library.pk,)]
