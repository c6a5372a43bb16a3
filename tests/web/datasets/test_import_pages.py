"""The import page and imported datasets' pages: editors import, viewers read, outsiders see
nothing; an imported dataset shows its report, its pairs' sources, exports in every format, and
refuses what only generated datasets allow."""

from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.datasets.services import UploadedFile, dataset_import_run, dataset_import_start
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"


def client_for(user: object) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)  # type: ignore[attr-defined]
    return client


def file(name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, (DATA / name).read_bytes())


def import_url(project: object) -> str:
    return reverse("datasets:dataset_import", args=(project.pk,))  # type: ignore[attr-defined]


@pytest.fixture
def imported(project: object, editor: object) -> Dataset:
    """A read-only dataset of the ZhoBLiMP file and the BLiMP file with two bad lines."""
    files = [UploadedFile(n, (DATA / n).open("rb")) for n in ("zhoblimp.jsonl", "blimp_some_bad.jsonl")]
    try:
        dataset = dataset_import_start(project=project, name="Released pairs", files=files, created_by=editor)  # type: ignore[arg-type]
        dataset_import_run(dataset_id=dataset.pk)
        dataset.refresh_from_db()
        return dataset
    finally:
        for f in files:
            f.stream.close()


def test_editor_sees_the_import_form(project: object, editor: object) -> None:
    html = client_for(editor).get(import_url(project)).content.decode()
    assert "Import a dataset" in html and 'enctype="multipart/form-data"' in html
    assert 'name="files"' in html and "multiple" in html
    assert 'value="bad-first"' in html and 'value="good-first"' in html and "phueb/UnMasked" in html


@pytest.mark.parametrize("method", ["get", "post"])
def test_viewer_cannot_import_and_outsider_sees_nothing(
    project: object, viewer: object, outsider: object, method: str
) -> None:
    send: Callable[..., object] = getattr(client_for(viewer), method)
    assert send(import_url(project)).status_code == 403  # type: ignore[attr-defined]
    send = getattr(client_for(outsider), method)
    assert send(import_url(project)).status_code == 404  # type: ignore[attr-defined]
    assert not Dataset.objects.exists()


def test_upload_imports_and_shows_the_report_on_the_dataset_page(
    project: object, editor: object, run_jobs_now: None
) -> None:
    client = client_for(editor)
    response = client.post(
        import_url(project),
        {
            "name": "Zorro and BLiMP",
            "files": [file("blimp_some_bad.jsonl"), file("island-effects-adjunct_island.txt")],
            "source_format": "auto",
            "zorro_order": "bad-first",
        },
        follow=True,
    )
    html = response.content.decode()
    dataset = Dataset.objects.get()
    assert response.redirect_chain[-1][0] == reverse("datasets:dataset_detail", args=(project.pk, dataset.pk))  # type: ignore[attr-defined]
    assert "is being imported: the files are read in the background" in html
    assert "Imported “Zorro and BLiMP”: 4 pairs in 2 paradigms from 2 files." in html  # the job's end
    assert "3 items could not be imported" in html
    assert "Imported, read-only" in html and "Several formats" in html
    assert "Cancel generation" not in html and "Seed" not in html
    # The report, item by item: file, line, field, outcome, message.
    assert html.count('class="import-issue issue-error"') == 3
    assert "blimp_some_bad.jsonl" in html and "<code>sentence_bad</code>" in html and "no partner" in html
    assert 'data-format="zhoblimp"' in html


def test_unusable_upload_keeps_no_pair_and_lists_why(
    project: object, editor: object, run_jobs_now: None
) -> None:
    response = client_for(editor).post(
        import_url(project),
        {
            "name": "Broken",
            "files": [file("unusable.jsonl")],
            "source_format": "blimp",
            "zorro_order": "bad-first",
        },
        follow=True,
    )
    html = response.content.decode()
    assert response.status_code == 200 and not Pair.objects.exists()
    assert "No file gave a usable pair, so nothing was imported" in html
    assert html.count('class="import-issue issue-error"') == 3 and "not UTF-8" in html


def test_upload_without_files_names_the_field(project: object, editor: object) -> None:
    response = client_for(editor).post(import_url(project), {"name": "Empty", "source_format": "auto"})
    html = response.content.decode()
    assert response.status_code == 400 and "Files: Choose at least one file to import." in html


def test_list_marks_imported_datasets_and_offers_import_to_editors(
    imported: Dataset, editor: object, viewer: object
) -> None:
    listing = reverse("datasets:dataset_list", args=(imported.project_id,))
    html = client_for(editor).get(listing).content.decode()
    assert "origin-imported" in html and "Import a dataset" in html
    assert "Import a dataset" not in client_for(viewer).get(listing).content.decode()


def test_viewer_reads_an_imported_dataset_and_its_report(imported: Dataset, viewer: object) -> None:
    html = (
        client_for(viewer)
        .get(reverse("datasets:dataset_detail", args=(imported.project_id, imported.pk)))
        .content.decode()
    )
    assert "Import report" in html and "BA_basic" in html and "imported <span" in html
    assert "Delete…" not in html


def test_pair_source_shows_file_line_and_fields(imported: Dataset, viewer: object) -> None:
    pair = Pair.objects.get(paradigm__dataset=imported, paradigm__uid="determiner_noun_agreement_1", index=1)
    url = reverse("datasets:pair_detail", args=(imported.project_id, imported.pk, pair.pk))
    client = client_for(viewer)
    html = client.get(url).content.decode()
    assert "<code>blimp_some_bad.jsonl</code>, line 3" in html and "one_prefix_word_bad" in html
    partial = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<!doctype" not in partial and "line 3" in partial


def test_cancel_of_an_imported_dataset_is_refused_with_the_reason(imported: Dataset, editor: object) -> None:
    response = client_for(editor).post(
        reverse("datasets:dataset_cancel", args=(imported.project_id, imported.pk)), follow=True
    )
    assert (
        "is an imported dataset: it is read-only, so it cannot be regenerated or edited"
        in response.content.decode()
    )


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "hf", "zhoblimp", "blimp"])
def test_imported_dataset_exports_from_its_page(imported: Dataset, viewer: object, fmt: str) -> None:
    response = client_for(viewer).get(
        reverse("datasets:dataset_export", args=(imported.project_id, imported.pk)) + f"?format={fmt}"
    )
    assert response.status_code == 200
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    if fmt == "zhoblimp":
        assert orjson.loads(body.splitlines()[0])["pairID"] == 0
        assert "他把书放在桌子上。" in body.decode()
    elif fmt == "blimp":  # the imported BLiMP lines come back as they were
        original = (DATA / "blimp_some_bad.jsonl").read_bytes().splitlines()
        exported = [orjson.loads(line) for line in body.splitlines()]
        assert exported[3:] == [orjson.loads(original[0]), orjson.loads(original[2])]  # lines 2, 4 were bad
        assert exported[0]["linguistics_term"] == "BA" and exported[0]["pairID"] == "0"
    elif fmt == "jsonl":
        assert len(body.splitlines()) == 5
    elif fmt == "csv":
        assert body.decode().startswith("UID,phenomenon,pairID")
    else:
        assert body[:2] == b"PK"
