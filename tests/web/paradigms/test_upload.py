"""Uploading template files (and zips with vocabularies and phrases) into a project, and downloading them."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.paradigms.models import Phrase, Template
from mpp_studio.paradigms.services import template_save
from mpp_studio.paradigms.services.template_upload import MAX_YAML_BYTES, Upload, template_files_upload
from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA
from tests.web.paradigms.library_texts import INVALID_TEMPLATE, NP_TEMPLATE, NP_TEXT, PLAIN_TEMPLATE

pytest_plugins = ["tests.web.paradigms.library_support"]
pytestmark = pytest.mark.django_db


def upload(name: str, data: bytes | str) -> Upload:
    raw = data.encode() if isinstance(data, str) else data
    return Upload(name, len(raw), raw)


def zipped(files: dict[str, str | bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def url(project: object, tail: str = "templates/upload/") -> str:
    return f"/projects/{project.pk}/{tail}"  # type: ignore[attr-defined]


# -- The service ----------------------------------------------------------------------------------


def test_upload_stores_templates_as_version_1_with_their_problems(
    project: object, en_nouns: object, owner: object
) -> None:
    report = template_files_upload(
        project=project,  # type: ignore[arg-type]
        uploads=[upload("plain.yaml", PLAIN_TEMPLATE), upload("dual.yaml", INVALID_TEMPLATE)],
        user=owner,  # type: ignore[arg-type]
    )
    assert [r.stored for r in report.results] == [True, True]
    plain, dual = report.results
    assert plain.version is not None and plain.version.number == 1 and plain.version.problems == []
    assert "it is valid" in plain.message
    assert dual.version is not None and "with 1 problem to fix" in dual.message
    [problem] = dual.details
    assert "line 7, good grammar, position 2 (subj)" in problem and "dual" in problem
    assert plain.version.note == "Uploaded from plain.yaml."


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("broken.yaml", "uid: x\ngood: [\n", "Not YAML, so not stored: line 3"),
        ("image.yaml", b"uid: x\n\x00\x01\x02", "not a text file (line 2 holds a NUL byte)"),
        ("latin.yaml", "uid: caf\u00e9\n".encode("latin-1"), "Line 1 is not UTF-8 text"),
        ("nouid.yaml", "phenomenon: x\nuid:\n", "needs a `uid:` line"),
        ("notes.txt", "hello", "Not a file MPP Studio reads"),
        ("bad.zip", b"PK not really a zip", "Not a readable zip archive"),
        ("list.yaml", "- a\n- b\n", "is not a phrase file"),
    ],
)
def test_upload_rejects_a_file_it_cannot_store_and_says_where(
    project: object, owner: object, name: str, data: bytes | str, message: str
) -> None:
    [result] = template_files_upload(project=project, uploads=[upload(name, data)], user=owner).results  # type: ignore[arg-type]
    assert not result.stored and result.file_name == name
    assert message in result.message
    assert not Template.objects.filter(project=project).exists()


def test_upload_rejects_a_uid_the_project_has_and_keeps_the_template(
    project: object, en_nouns: object, owner: object
) -> None:
    template_save(project=project, source_text=PLAIN_TEMPLATE, user=owner)  # type: ignore[arg-type]
    [result] = template_files_upload(
        project=project, uploads=[upload("p.yaml", PLAIN_TEMPLATE + "# new\n")], user=owner
    ).results  # type: ignore[arg-type]
    assert not result.stored and "already has a template with uid 'plain_agreement'" in result.message
    assert Template.objects.get(project=project, uid="plain_agreement").versions.count() == 1


def test_upload_of_a_too_large_file_is_refused_unread(project: object, owner: object) -> None:
    big = Upload("big.yaml", MAX_YAML_BYTES + 1, None)
    [result] = template_files_upload(project=project, uploads=[big], user=owner).results  # type: ignore[arg-type]
    assert not result.stored and "the limit for this kind of file is 1 MiB" in result.message


def test_upload_zip_with_vocabulary_schema_phrases_and_templates(project: object, owner: object) -> None:
    archive = zipped(
        {
            "lib/vocabularies/en_nouns.csv": EN_NOUNS_CSV,
            "lib/vocabularies/en_nouns.schema.yaml": EN_NOUNS_SCHEMA,
            "lib/phrases/np.yaml": "NP:\n" + "".join("  " + line + "\n" for line in NP_TEXT.splitlines()),
            "lib/en/np.yaml": NP_TEMPLATE,
            "lib/en/plain.yaml": PLAIN_TEMPLATE,
            "lib/README.md": "notes",
            "__MACOSX/._np.yaml": b"\x00\x05",
        }
    )
    report = template_files_upload(project=project, uploads=[upload("bundle.zip", archive)], user=owner)  # type: ignore[arg-type]
    by_name = {r.file_name: r for r in report.results}
    assert list(by_name) == [
        "bundle.zip › lib/README.md",
        "bundle.zip › lib/vocabularies/en_nouns.csv",
        "bundle.zip › lib/phrases/np.yaml",
        "bundle.zip › lib/en/np.yaml",
        "bundle.zip › lib/en/plain.yaml",
    ]
    assert not by_name["bundle.zip › lib/README.md"].stored
    vocabulary = by_name["bundle.zip › lib/vocabularies/en_nouns.csv"]
    assert vocabulary.stored and "Stored as vocabulary 'en_nouns' with its schema" in vocabulary.message
    assert "12 items" in vocabulary.message
    assert Vocabulary.objects.get(project=project, name="en_nouns").schema["features"]["number"][
        "values"
    ] == ["sg", "pl"]
    assert by_name["bundle.zip › lib/phrases/np.yaml"].message == "Phrases: added phrase NP."
    for name in ("bundle.zip › lib/en/np.yaml", "bundle.zip › lib/en/plain.yaml"):
        version = by_name[name].version
        assert version is not None and version.problems == [], version.problems if version else None

    # The same zip again: vocabulary and phrases are reused, the templates' uids are taken.
    again = {
        r.file_name: r
        for r in template_files_upload(
            project=project, uploads=[upload("bundle.zip", archive)], user=owner
        ).results
    }  # type: ignore[arg-type]
    assert again["bundle.zip › lib/vocabularies/en_nouns.csv"].stored
    assert "same content" in again["bundle.zip › lib/vocabularies/en_nouns.csv"].message
    assert "already had NP with the same alternatives" in again["bundle.zip › lib/phrases/np.yaml"].message
    assert not again["bundle.zip › lib/en/np.yaml"].stored
    assert Phrase.objects.filter(project=project).count() == 1


def test_upload_zip_with_a_bad_vocabulary_rejects_only_that_file(project: object, owner: object) -> None:
    archive = zipped(
        {
            "v/en_nouns.csv": EN_NOUNS_CSV.replace("n3,dog,dog,NN,sg", "n3,,dog,NN,sg"),
            "t.yaml": PLAIN_TEMPLATE,
        }
    )
    results = template_files_upload(project=project, uploads=[upload("b.zip", archive)], user=owner).results  # type: ignore[arg-type]
    vocabulary, template = results
    assert not vocabulary.stored and "nothing of it was stored" in vocabulary.message
    assert any("line 4" in line for line in vocabulary.details)
    assert not Vocabulary.objects.filter(project=project).exists()
    # The template is stored, with the missing vocabulary as its problem.
    assert template.stored and template.version is not None
    assert template.version.problems[0]["code"] == "E_VOCABULARY"


def test_upload_rejects_a_conflicting_phrase_file_and_stores_none_of_it(
    project: object, np_phrase: object, owner: object
) -> None:
    text = "Other:\n  - [{direct: a}]\nNP:\n  - [{direct: a}, {direct: b}]\n"
    [result] = template_files_upload(project=project, uploads=[upload("p.yaml", text)], user=owner).results  # type: ignore[arg-type]
    assert not result.stored and "phrase called 'NP'" in result.message and "p.yaml, line 3" in result.message
    assert not Phrase.objects.filter(project=project, name="Other").exists()


def test_upload_reports_a_malformed_phrase_by_phrase_and_position(project: object, owner: object) -> None:
    text = "NP:\n  - [{direct: the}, {lexical: {pos: NN}, same: x}]\n"
    [result] = template_files_upload(project=project, uploads=[upload("p.yaml", text)], user=owner).results  # type: ignore[arg-type]
    assert not result.stored and "p.yaml, line 1: phrase NP: alternative 1, position 2" in result.message


# -- The pages ------------------------------------------------------------------------------------


def test_upload_page_stores_files_and_reports_each(
    client_as: object, editor: object, project: object, en_nouns: object
) -> None:
    client = client_as(editor)  # type: ignore[operator]
    page = client.get(url(project))
    assert page.status_code == 200 and "Upload template files" in page.content.decode()
    response = client.post(
        url(project),
        {
            "files": [
                SimpleUploadedFile("plain.yaml", PLAIN_TEMPLATE.encode()),
                SimpleUploadedFile("broken.yaml", b"uid: x\ngood: [\n"),
                SimpleUploadedFile("binary.yaml", b"\x89PNG\r\n\x00\x00"),
            ]
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "1 of 3 files stored, 2 rejected" in html
    assert "Stored as template &#x27;plain_agreement&#x27;, version 1; it is valid." in html
    assert "Not YAML, so not stored: line 3" in html
    assert "not a text file (line 2 holds a NUL byte)" in html
    assert Template.objects.filter(project=project).count() == 1


def test_upload_page_needs_a_file(client_as: object, editor: object, project: object) -> None:
    response = client_as(editor).post(url(project), {})  # type: ignore[operator]
    assert response.status_code == 200 and "Choose at least one file to upload." in response.content.decode()


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 302), ("outsider", 404), ("viewer", 403), ("editor", 200), ("owner", 200)],
)
def test_upload_page_permissions(
    client_as: object,
    project: object,
    other_project: object,
    who: str,
    expected: int,
    request: pytest.FixtureRequest,
) -> None:
    user = None if who == "anonymous" else request.getfixturevalue(who)
    client = client_as(user)  # type: ignore[operator]
    assert client.get(url(project)).status_code == expected
    response = client.post(url(project), {"files": [SimpleUploadedFile("p.yaml", PLAIN_TEMPLATE.encode())]})
    assert response.status_code == expected
    assert Template.objects.filter(project=project).exists() == (expected == 200)


def test_download_gives_the_latest_or_a_numbered_version_as_uid_yaml(
    client_as: object, viewer: object, project: object, np_template: object, owner: object
) -> None:
    template_save(project=project, source_text=NP_TEMPLATE + "# second\n", user=owner, template=np_template)  # type: ignore[arg-type]
    client = client_as(viewer)  # type: ignore[operator]
    tail = f"templates/{np_template.pk}/download/"  # type: ignore[attr-defined]
    latest = client.get(url(project, tail))
    assert latest.status_code == 200
    assert latest["Content-Disposition"] == 'attachment; filename="np_agreement.yaml"'
    assert latest.content.decode() == NP_TEMPLATE + "# second\n"
    assert client.get(url(project, tail) + "?version=1").content.decode() == NP_TEMPLATE
    assert client.get(url(project, tail) + "?version=9").status_code == 404
    assert client.get(url(project, tail) + "?version=abc").status_code == 404
    assert client.get(url(project, "templates/999999/download/")).status_code == 404


def test_download_permissions(
    client_as: object, outsider: object, project: object, other_project: object, np_template: object
) -> None:
    tail = f"templates/{np_template.pk}/download/"  # type: ignore[attr-defined]
    assert client_as(outsider).get(url(project, tail)).status_code == 404  # type: ignore[operator]
    # Another project's id in the path does not reach this template either.
    assert client_as(outsider).get(url(other_project, tail)).status_code == 404  # type: ignore[operator]
    anonymous = client_as(None).get(url(project, tail))  # type: ignore[operator]
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")


def test_upload_zip_with_an_oversized_entry_stores_nothing_of_it(
    project: object, en_nouns: object, owner: object
) -> None:
    archive = zipped({"a.yaml": PLAIN_TEMPLATE, "huge.yaml": "#" * (MAX_YAML_BYTES + 1)})
    [result] = template_files_upload(project=project, uploads=[upload("b.zip", archive)], user=owner).results  # type: ignore[arg-type]
    assert not result.stored and result.kind == "zip"
    assert "huge.yaml unpacks to 1.0 MiB; the limit for this kind of file is 1 MiB" in result.message
    assert not Template.objects.filter(project=project).exists()
