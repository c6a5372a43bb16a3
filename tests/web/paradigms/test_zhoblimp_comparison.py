"""A ZhoBLiMP project imported with its released data: the job compares each released UID with
its rebuilt template, and the page and the API show the comparison (issue 17)."""

import io
import zipfile
from collections.abc import Callable
from unittest import mock

import orjson
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils.html import escape

from generator.importers.zhoblimp import ZhoblimpImport as EngineImport
from generator.importers.zhoblimp import import_zhoblimp
from generator.importers.zhoblimp_compare import NOT_IMPORTED, NOT_REPRODUCED, SHAPE, VERDICT_MEANINGS
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.paradigms.models import Template, ZhoblimpImport
from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_start
from tests.generator.importers.zhoblimp_files import (
    PHRASES,
    TEMPLATES,
    VOCAB,
    released_jsonl,
    source,
    template_sources,
)
from tests.web.conftest import import_jobs_run_now

pytest_plugins = ["tests.web.paradigms.library_support"]
pytestmark = pytest.mark.django_db

N_TEMPLATES, N_ITEMS = 7, 26  # what the fixture project imports


@pytest.fixture(scope="module")
def engine_import() -> EngineImport:
    """The fixture project as the engine imports it: the templates that make the 'released' files."""
    return import_zhoblimp(template_sources(), vocabulary=source(VOCAB), phrases=source(PHRASES))


def project_files() -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in [*sorted(TEMPLATES.glob("*.json")), VOCAB, PHRASES]]


def releases(engine_import: EngineImport) -> list[tuple[str, bytes]]:
    """BA_inversion as its template makes it (another seed); classifier_mismatch with every bad
    sentence one character longer, which the template does not make."""
    return [
        ("BA_inversion.jsonl", released_jsonl(engine_import, "BA_inversion", 77, 40)),
        (
            "classifier_mismatch.jsonl",
            released_jsonl(engine_import, "classifier_mismatch", 77, 40, bad_suffix="吗"),
        ),
    ]


def zipped(files: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return buffer.getvalue()


def run_import(project: object, user: object, files: list[tuple[str, bytes]]) -> ZhoblimpImport:
    """Start an import of these (name, bytes) files and run its job; return the import as it ended."""
    with import_jobs_run_now():
        started = zhoblimp_import_start(
            project=project,  # type: ignore[arg-type]
            files=[SimpleUploadedFile(name, data) for name, data in files],
            created_by=user,  # type: ignore[arg-type]
        )
    return ZhoblimpImport.objects.select_related("job").get(pk=started.pk)


def verdicts(row: ZhoblimpImport) -> dict[str, str]:
    return {u["uid"]: u["verdict"] for u in row.comparison["uids"]}


@pytest.fixture
def compared(project: object, editor: object, engine_import: EngineImport) -> ZhoblimpImport:
    """The project and its two released files, all in one zip (as the real release comes)."""
    released = [(f"ZhoBLiMP/data/{name}", data) for name, data in releases(engine_import)]
    return run_import(project, editor, [("zhoblimp.zip", zipped(project_files() + released))])


# -- The job ---------------------------------------------------------------------------------------


def test_released_files_in_a_zip_are_compared_and_stored_with_the_outcome(compared: ZhoblimpImport) -> None:
    """A UID its template makes is in the released shape; one whose bad sentences were changed is
    not reproduced; the job counts each template rebuilt and its message gives the summary."""
    assert compared.job.status == "done" and len(compared.templates) == N_TEMPLATES  # type: ignore[union-attr]
    assert verdicts(compared) == {"BA_inversion": SHAPE, "classifier_mismatch": NOT_REPRODUCED}
    assert compared.comparison["seeds"] == [1, 2]
    changed = next(u for u in compared.comparison["uids"] if u["uid"] == "classifier_mismatch")
    length = next(t for t in changed["seeds"][0]["tests"] if t["name"] == "length")
    assert length["differs"] and length["most_different"][0]["released"] == 0  # every one is longer
    assert (compared.job.progress_done, compared.job.progress_total) == (  # type: ignore[union-attr]
        N_TEMPLATES + 2 + N_ITEMS + 1,
        N_TEMPLATES + 2 + N_ITEMS + 1,
    )
    assert compared.comparison["summary"] in compared.job.message  # type: ignore[union-attr]
    assert not any(n["file"].endswith(".jsonl") for n in compared.report)


def test_a_malformed_released_line_is_reported_by_line_and_the_import_stores(
    project: object, editor: object, engine_import: EngineImport
) -> None:
    good = released_jsonl(engine_import, "BA_inversion", 77, 40).split(b"\n")
    broken = b"\n".join([good[0], b'{"UID": "BA_inversion", "sentence_good": ', *good[1:]])
    row = run_import(project, editor, [*project_files(), ("BA_inversion.jsonl", broken)])
    assert row.job.status == "done" and len(row.templates) == N_TEMPLATES  # type: ignore[union-attr]
    (note,) = [n for n in row.report if n["file"] == "BA_inversion.jsonl"]
    assert (note["where"], note["level"]) == ("line 2", "skipped")
    (uid,) = row.comparison["uids"]
    assert (uid["uid"], uid["released"]) == ("BA_inversion", 40)


def test_without_released_files_there_is_no_comparison(project: object, editor: object) -> None:
    row = run_import(project, editor, project_files())
    assert row.job.status == "done" and row.comparison == {}  # type: ignore[union-attr]
    assert "released data" not in row.job.message  # type: ignore[union-attr]


def test_a_job_cancelled_while_it_compares_stops_and_stores_nothing(
    project: object, editor: object, engine_import: EngineImport
) -> None:
    from mpp_studio.jobs.services import job_cancel
    from mpp_studio.paradigms.services import zhoblimp_import as service

    real = service.job_progress

    def cancelled_when_comparing(**kwargs: object) -> bool:
        if str(kwargs.get("message", "")).startswith("Comparing"):
            job_cancel(job_id=kwargs["job_id"])  # type: ignore[arg-type]
        return real(**kwargs)  # type: ignore[arg-type]

    with mock.patch.object(service, "job_progress", cancelled_when_comparing):
        row = run_import(project, editor, [*project_files(), *releases(engine_import)])
    assert row.job.status == "cancelled" and row.comparison == {}  # type: ignore[union-attr]
    assert not Template.objects.exists() and not Vocabulary.objects.exists()


def test_a_release_of_real_size_in_a_zip_is_within_the_limits(project: object, editor: object) -> None:
    """ZhoBLiMP's release is 129 files of 300 lines (about 60 KB each): the zip is read whole."""
    line = {"phenomenon": "p", "sentence_good": "他" * 40 + "。", "sentence_bad": "她" * 40 + "。"}
    released = []
    for number in range(129):
        lines = [orjson.dumps({**line, "UID": f"released_{number}", "pairID": i}) for i in range(300)]
        released.append((f"data/released_{number}.jsonl", b"\n".join(lines) + b"\n"))
    assert min(len(data) for _, data in released) > 55_000
    row = run_import(project, editor, [("zhoblimp.zip", zipped(project_files() + released))])
    assert row.job.status == "done", row.job.message  # type: ignore[union-attr]
    assert row.comparison["counts"][NOT_IMPORTED] == 129
    assert {u["released"] for u in row.comparison["uids"]} == {300}


# -- Page and API ----------------------------------------------------------------------------------


def page_url(row: ZhoblimpImport) -> str:
    return f"/projects/{row.project_id}/templates/import/zhoblimp/{row.pk}/"


def test_page_shows_the_comparison_worst_first_with_links_and_verdicts(
    client_as: Callable[[object], Client], viewer: object, compared: ZhoblimpImport
) -> None:
    response = client_as(viewer).get(page_url(compared))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="import-comparison"' in page and compared.comparison["summary"] in page
    assert page.index('data-uid="classifier_mismatch"') < page.index('data-uid="BA_inversion"')
    template = Template.objects.get(uid="BA_inversion")
    assert f'href="/projects/{compared.project_id}/templates/{template.pk}/"' in page
    # classifier_mismatch's bad sentences are longer: its length profile differs, with its p-value
    assert 'length differs <span class="p-value">(p=' in page
    assert all(escape(meaning) in page for meaning in VERDICT_MEANINGS.values())


def test_page_without_a_comparison_has_no_comparison_section(
    client_as: Callable[[object], Client], editor: object, project: object
) -> None:
    row = run_import(project, editor, project_files())
    page = client_as(editor).get(page_url(row)).content.decode()
    assert "Imported 7 templates" in page and 'id="import-comparison"' not in page


def test_api_detail_gives_the_comparison(
    api_client_for: Callable[[object], object], viewer: object, compared: ZhoblimpImport
) -> None:
    url = f"/api/projects/{compared.project_id}/templates/import/zhoblimp/{compared.pk}/"
    body = api_client_for(viewer).get(url).json()  # type: ignore[attr-defined]
    assert body["comparison"] == compared.comparison
    assert {u["uid"]: u["verdict"] for u in body["comparison"]["uids"]} == verdicts(compared)


def test_api_detail_without_released_files_gives_no_comparison(
    api_client_for: Callable[[object], object], editor: object, project: object
) -> None:
    row = run_import(project, editor, project_files())
    url = f"/api/projects/{row.project_id}/templates/import/zhoblimp/{row.pk}/"
    assert api_client_for(editor).get(url).json()["comparison"] is None  # type: ignore[attr-defined]
