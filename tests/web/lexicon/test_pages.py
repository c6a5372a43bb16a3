"""The vocabulary pages: who may open them, import with row errors, the filtered table, item and
schema editing with errors named by field, export downloads, settings and deletion."""

import re
from collections.abc import Callable
from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from mpp_studio.lexicon.engine import schema_from_json
from mpp_studio.lexicon.models import Vocabulary, VocabularyImport
from mpp_studio.lexicon.services import MAX_UPLOAD_BYTES, vocabulary_item_create
from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA, ZH_NOUNS_TSV
from tests.web.lexicon.conftest import BAD_EN_CSV, ZH_NOUNS_SCHEMA

pytestmark = pytest.mark.django_db

ClientFor = Callable[[object | None], Client]

# (url name, extra URL arguments, role needed); arguments name fixtures' objects by keyword.
PAGES = [
    ("vocabulary_list", (), "viewer"),
    ("vocabulary_new", (), "editor"),
    ("vocabulary_import", (), "editor"),
    ("vocabulary_detail", ("vocabulary",), "viewer"),
    ("vocabulary_export", ("vocabulary", "csv"), "viewer"),
    ("vocabulary_export", ("vocabulary", "schema"), "viewer"),
    ("schema", ("vocabulary",), "viewer"),
    ("vocabulary_settings", ("vocabulary",), "editor"),
    ("vocabulary_delete", ("vocabulary",), "editor"),
    ("item_new", ("vocabulary",), "editor"),
    ("item_edit", ("vocabulary", "item"), "editor"),
    ("item_delete", ("vocabulary", "item"), "editor"),
    ("schema_yaml", ("vocabulary",), "editor"),
    ("feature_new", ("vocabulary",), "editor"),
    ("feature_edit", ("vocabulary", "number"), "editor"),
    ("feature_delete", ("vocabulary", "number"), "editor"),
]


def page_url(name: str, args: tuple[str, ...], vocabulary: Vocabulary) -> str:
    values: list[object] = [vocabulary.project_id]
    for arg in args:
        if arg == "vocabulary":
            values.append(vocabulary.pk)
        elif arg == "item":
            values.append(vocabulary.items.get(item_id="n1").pk)
        else:
            values.append(arg)
    return reverse(f"lexicon:{name}", args=values)


@pytest.mark.parametrize(("name", "args", "needed"), PAGES, ids=[f"{p[0]}-{'-'.join(p[1])}" for p in PAGES])
@pytest.mark.parametrize("who", ["anonymous", "outsider", "viewer", "editor", "owner"])
def test_vocabulary_pages_check_the_role(
    request: pytest.FixtureRequest,
    client_for: ClientFor,
    vocabulary: Vocabulary,
    name: str,
    args: tuple[str, ...],
    needed: str,
    who: str,
) -> None:
    user = None if who == "anonymous" else request.getfixturevalue(who)
    if who == "outsider":
        request.getfixturevalue("other_project")
    response = client_for(user).get(page_url(name, args, vocabulary))
    expected = {
        "anonymous": 302,
        "outsider": 404,
        "viewer": 200 if needed == "viewer" else 403,
        "editor": 200,
        "owner": 200,
    }[who]
    assert response.status_code == expected
    if who == "anonymous":
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    ("name", "args"),
    [(p[0], p[1]) for p in PAGES if p[2] == "editor" and p[0] not in {"vocabulary_new", "vocabulary_import"}],
)
def test_viewers_cannot_post_to_editor_pages(
    client_for: ClientFor, viewer: object, vocabulary: Vocabulary, name: str, args: tuple[str, ...]
) -> None:
    response = client_for(viewer).post(page_url(name, args, vocabulary), {"name": "x", "form": "x"})
    assert response.status_code == 403
    assert Vocabulary.objects.get().items.count() == 12


def test_another_projects_vocabulary_is_not_found(
    client_for: ClientFor, editor: object, vocabulary: Vocabulary, foreign_vocabulary: Vocabulary
) -> None:
    client = client_for(editor)
    own_project_foreign_id = reverse(
        "lexicon:vocabulary_detail", args=[vocabulary.project_id, foreign_vocabulary.pk]
    )
    assert client.get(own_project_foreign_id).status_code == 404
    foreign_item = foreign_vocabulary.items.get()
    edit = reverse("lexicon:item_edit", args=[vocabulary.project_id, vocabulary.pk, foreign_item.pk])
    assert client.post(edit, {"form": "stolen"}).status_code == 404
    foreign_item.refresh_from_db()
    assert foreign_item.form == "hidden"


# -- List, new, import -----------------------------------------------------------------------------


def test_vocabulary_list_shows_names_languages_counts_and_features(
    client_for: ClientFor, viewer: object, vocabulary: Vocabulary, zh_vocabulary: Vocabulary
) -> None:
    response = client_for(viewer).get(reverse("lexicon:vocabulary_list", args=[vocabulary.project_id]))
    html = response.content.decode()
    assert re.search(r'lang="zh">zh_nouns</a>', html)
    assert [m for m in re.findall(r'class="num item-count">(\d+)<', html)] == ["12", "14"]
    assert '<code class="feature-chip">classifier</code>' in html
    assert "Import CSV/TSV" not in html  # a viewer gets no buttons that would answer 403


def test_vocabulary_new_creates_an_empty_vocabulary(
    client_for: ClientFor, editor: object, project: object
) -> None:
    url = reverse("lexicon:vocabulary_new", args=[project.pk])  # type: ignore[attr-defined]
    response = client_for(editor).post(url, {"name": "量词", "language": "zh"})
    vocabulary = Vocabulary.objects.get()
    assert response["Location"] == reverse("lexicon:schema", args=[project.pk, vocabulary.pk])  # type: ignore[attr-defined]
    assert (vocabulary.name, vocabulary.language) == ("量词", "zh")
    again = client_for(editor).post(url, {"name": "量词", "language": "Chinese"})
    assert again.status_code == 400
    assert "this project already has a vocabulary called" in again.content.decode()
    assert Vocabulary.objects.count() == 1


def _import(
    client: Client,
    project_id: int,
    table: tuple[str, bytes],
    schema: tuple[str, bytes] | None = None,
    follow: bool = False,
    **fields: str,
):
    data: dict[str, object] = {"file": SimpleUploadedFile(table[0], table[1]), **fields}
    if schema is not None:
        data["schema_file"] = SimpleUploadedFile(schema[0], schema[1])
    return client.post(reverse("lexicon:vocabulary_import", args=[project_id]), data, follow=follow)


@pytest.mark.parametrize(
    ("table", "schema", "shown"),
    [
        (
            ("en_nouns.csv", EN_NOUNS_CSV.encode()),
            ("en_nouns.schema.yaml", EN_NOUNS_SCHEMA.encode()),
            "horses",
        ),
        (("zh_nouns.tsv", ZH_NOUNS_TSV.encode()), ("zh.schema.yaml", ZH_NOUNS_SCHEMA.encode()), "桌子"),
        (("zh_nouns.tsv", ("\ufeff" + ZH_NOUNS_TSV).encode()), None, "只|条"),
    ],
    ids=["english", "chinese", "chinese-bom-no-schema"],
)
def test_vocabulary_import_page_imports_and_shows_the_table(
    client_for: ClientFor,
    editor: object,
    project: object,
    run_jobs_now: None,
    table: tuple[str, bytes],
    schema: tuple[str, bytes] | None,
    shown: str,
) -> None:
    client = client_for(editor)
    response = _import(client, project.pk, table, schema)  # type: ignore[attr-defined]
    started = VocabularyImport.objects.get()
    assert response["Location"] == reverse("lexicon:vocabulary_import_detail", args=[project.pk, started.pk])  # type: ignore[attr-defined]
    vocabulary = Vocabulary.objects.get()
    page = client.get(response["Location"]).content.decode()
    assert f"Imported “{vocabulary.name}”: {vocabulary.items.count()} items." in page
    vocabulary_url = reverse("lexicon:vocabulary_detail", args=[project.pk, vocabulary.pk])  # type: ignore[attr-defined]
    assert f'href="{vocabulary_url}"' in page
    assert shown in client.get(vocabulary_url).content.decode()


def test_vocabulary_import_page_answers_before_the_file_is_read(
    client_for: ClientFor, editor: object, project: object
) -> None:
    """Without a worker the page answers at once: the import's page follows the queued job, whose
    part of the page polls it; nothing is stored yet and the file is kept for the job."""
    client = client_for(editor)
    response = _import(client, project.pk, ("en_nouns.csv", EN_NOUNS_CSV.encode()))  # type: ignore[attr-defined]
    started = VocabularyImport.objects.get()
    page = client.get(response["Location"]).content.decode()
    assert 'data-status="queued"' in page and f"/vocabularies/imports/jobs/{started.job_id}/status/" in page
    assert f'hx-get="{response["Location"]}"' in page and 'hx-trigger="job-finished from:body"' in page
    assert not Vocabulary.objects.exists() and len(started.uploads) == 1
    partial = client.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert partial.lstrip().startswith('<div id="import-status"') and "<html" not in partial


def test_vocabulary_import_page_shows_every_row_error_and_keeps_the_typed_fields(
    client_for: ClientFor, editor: object, project: object, run_jobs_now: None
) -> None:
    client = client_for(editor)
    response = _import(
        client,
        project.pk,  # type: ignore[attr-defined]
        ("bad.csv", BAD_EN_CSV.encode()),
        ("en.schema.yaml", EN_NOUNS_SCHEMA.encode()),
        follow=True,
        name="my nouns",
        language="en-GB",
    )
    html = response.content.decode()
    assert "The file was not imported: 3 problems" in html
    rows = re.findall(r'<tr class="import-problem">(.*?)</tr>', html, re.S)
    assert [re.search(r'class="num line">(\S+)<', row).group(1) for row in rows] == ["3", "4", "5"]  # type: ignore[union-attr]
    assert "&#x27;plurl&#x27; is not one of the declared values (sg, pl)" in rows[0]
    assert not Vocabulary.objects.exists()
    again = re.search(r'href="([^"]*\?again=\d+)"', html).group(1)  # type: ignore[union-attr]
    form = client.get(again).content.decode()
    assert 'value="my nouns"' in form and 'value="en-GB"' in form


def test_vocabulary_import_page_refuses_a_file_over_the_limit(
    client_for: ClientFor, editor: object, project: object
) -> None:
    big = b"form\n" + b"x" * MAX_UPLOAD_BYTES
    response = _import(client_for(editor), project.pk, ("big.csv", big))  # type: ignore[attr-defined]
    assert response.status_code == 400
    assert "big.csv: the file is 10.0 MiB; the limit is 10 MiB" in response.content.decode()
    assert not Vocabulary.objects.exists()


def test_vocabulary_import_page_reports_a_binary_file_by_line(
    client_for: ClientFor, editor: object, project: object, run_jobs_now: None
) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00"
    response = _import(client_for(editor), project.pk, ("photo.csv", png), follow=True)  # type: ignore[attr-defined]
    html = response.content.decode()
    assert "The file was not imported" in html
    assert "this line is not UTF-8 text" in html and "NUL byte" in html
    assert sorted(set(re.findall(r'class="num line">(\d+)<', html))) == ["1", "3"]
    assert not Vocabulary.objects.exists()


# -- The item table ---------------------------------------------------------------------------------


def _rows(html: str) -> list[str]:
    return re.findall(r'<tr class="item" data-item-id="([^"]+)"', html)


def test_vocabulary_detail_filters_by_feature_search_and_pos(
    client_for: ClientFor, viewer: object, vocabulary: Vocabulary
) -> None:
    url = reverse("lexicon:vocabulary_detail", args=[vocabulary.project_id, vocabulary.pk])
    client = client_for(viewer)
    assert len(_rows(client.get(url).content.decode())) == 12
    assert _rows(client.get(url, {"f-number": "pl"}).content.decode()) == ["n2", "n4", "n6", "n8"]
    assert _rows(client.get(url, {"f-number": "sg", "search": "o"}).content.decode()) == ["n3", "n7"]
    assert _rows(client.get(url, {"pos": "VB"}).content.decode()) == ["v1", "v2", "v3", "v4"]
    html = client.get(url, {"f-number": "pl"}).content.decode()
    assert "4 of 12 items match." in html
    assert '<option value="pl" selected>pl</option>' in html


def test_vocabulary_detail_answers_htmx_with_the_table_only(
    client_for: ClientFor, viewer: object, zh_vocabulary: Vocabulary
) -> None:
    url = reverse("lexicon:vocabulary_detail", args=[zh_vocabulary.project_id, zh_vocabulary.pk])
    response = client_for(viewer).get(url, {"f-classifier": "条"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="item-table"')
    assert "<html" not in html
    assert _rows(html) == ["z3", "z4", "z9", "c3"]
    assert '<tbody lang="zh">' in html and '<td class="feature">只|条</td>' in html
    assert "HX-Request" in response["Vary"]


def test_vocabulary_detail_offers_htmx_live_filtering(
    client_for: ClientFor, viewer: object, vocabulary: Vocabulary
) -> None:
    html = (
        client_for(viewer)
        .get(reverse("lexicon:vocabulary_detail", args=[vocabulary.project_id, vocabulary.pk]))
        .content.decode()
    )
    assert 'hx-trigger="input changed delay:300ms, submit"' in html
    assert 'hx-target="#item-table"' in html
    assert 'name="f-number"' in html


def test_vocabulary_detail_pages_fifty_items(
    client_for: ClientFor, viewer: object, vocabulary: Vocabulary
) -> None:
    for number in range(48):
        vocabulary_item_create(vocabulary=vocabulary, form=f"word{number}", features={"number": "sg"})
    url = reverse("lexicon:vocabulary_detail", args=[vocabulary.project_id, vocabulary.pk])
    client = client_for(viewer)
    first = client.get(url, {"f-number": "sg"}).content.decode()
    assert len(_rows(first)) == 50 and "Page 1 of 2" in first
    assert "f-number=sg&amp;page=2" in first
    assert len(_rows(client.get(url, {"f-number": "sg", "page": 2}).content.decode())) == 2


def test_vocabulary_detail_names_a_bad_filter_value(
    client_for: ClientFor, viewer: object, project: object
) -> None:
    from mpp_studio.lexicon.services import vocabulary_create, vocabulary_feature_add

    vocabulary = vocabulary_create(project=project, name="numbers")
    vocabulary_feature_add(vocabulary=vocabulary, name="person", type="int")
    url = reverse("lexicon:vocabulary_detail", args=[project.pk, vocabulary.pk])  # type: ignore[attr-defined]
    html = client_for(viewer).get(url, {"f-person": "three"}).content.decode()
    assert "<code>person</code>: &#x27;three&#x27; is not a whole number" in html


# -- Items -----------------------------------------------------------------------------------------


def test_item_new_checks_values_against_the_schema(
    client_for: ClientFor, editor: object, vocabulary: Vocabulary
) -> None:
    url = reverse("lexicon:item_new", args=[vocabulary.project_id, vocabulary.pk])
    client = client_for(editor)
    response = client.post(url, {"form": "mice", "lemma": "mouse", "pos": "NN", "f-number": "plurl"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "<strong>number</strong>: &#x27;plurl&#x27; is not one of the declared values (sg, pl)" in html
    assert vocabulary.items.count() == 12
    response = client.post(url, {"form": "mice", "lemma": "mouse", "pos": "NN", "f-number": "pl"})
    assert response.status_code == 302
    assert vocabulary.items.get(form="mice").features == {"number": ["pl"]}


def test_item_edit_and_delete(client_for: ClientFor, editor: object, zh_vocabulary: Vocabulary) -> None:
    client = client_for(editor)
    item = zh_vocabulary.items.get(item_id="z3")
    edit = reverse("lexicon:item_edit", args=[zh_vocabulary.project_id, zh_vocabulary.pk, item.pk])
    form = client.get(edit).content.decode()
    checked = re.findall(r'name="f-classifier" value="(\S+)"[^>]* checked>', form)
    assert checked == ["只", "条"]
    response = client.post(edit, {"form": "小狗", "item_id": "z3", "f-classifier": ["条"]})
    assert response.status_code == 302
    item.refresh_from_db()
    assert (item.form, item.lemma, item.features) == ("小狗", "小狗", {"classifier": ["条"]})
    taken = client.post(edit, {"form": "小狗", "item_id": "z1"})
    assert "the id &#x27;z1&#x27; is already used by the item &#x27;书&#x27;" in taken.content.decode()
    delete = reverse("lexicon:item_delete", args=[zh_vocabulary.project_id, zh_vocabulary.pk, item.pk])
    assert "Delete the item" in client.get(delete).content.decode()
    assert client.post(delete).status_code == 302
    assert not zh_vocabulary.items.filter(pk=item.pk).exists()


# -- Schema ----------------------------------------------------------------------------------------


def test_schema_page_lists_features(client_for: ClientFor, viewer: object, zh_vocabulary: Vocabulary) -> None:
    html = (
        client_for(viewer)
        .get(reverse("lexicon:schema", args=[zh_vocabulary.project_id, zh_vocabulary.pk]))
        .content.decode()
    )
    assert '<code class="feature-name">classifier</code>' in html
    assert '<span class="value-chip">本</span>' in html and "量词" in html
    assert "Add feature" not in html


def test_feature_edit_is_refused_listing_the_items(
    client_for: ClientFor, editor: object, vocabulary: Vocabulary
) -> None:
    url = reverse("lexicon:feature_edit", args=[vocabulary.project_id, vocabulary.pk, "number"])
    response = client_for(editor).post(url, {"name": "number", "type": "category", "values": "sg, du"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "4 items hold values it would not allow" in html
    assert re.findall(r'<tr class="schema-problem">\s*<td><code>(\w+)</code>', html) == [
        "n2",
        "n4",
        "n6",
        "n8",
    ]
    assert schema_from_json(Vocabulary.objects.get().schema).features["number"].values == ("sg", "pl")


def test_feature_new_and_delete(client_for: ClientFor, editor: object, vocabulary: Vocabulary) -> None:
    client = client_for(editor)
    new = reverse("lexicon:feature_new", args=[vocabulary.project_id, vocabulary.pk])
    bad = client.post(new, {"name": "pos", "type": "category"})
    assert "&#x27;pos&#x27; is a built-in column" in bad.content.decode()
    assert client.post(new, {"name": "gender", "type": "category", "values": "m\nf\nn"}).status_code == 302
    vocabulary.refresh_from_db()
    assert schema_from_json(vocabulary.schema).features["gender"].values == ("m", "f", "n")
    delete = reverse("lexicon:feature_delete", args=[vocabulary.project_id, vocabulary.pk, "number"])
    assert "8 items hold a value for it" in client.get(delete).content.decode()
    assert client.post(delete).status_code == 302
    assert not any(vocabulary.items.values_list("features__number", flat=True))


def test_schema_yaml_page_shows_problems_by_line(
    client_for: ClientFor, editor: object, vocabulary: Vocabulary
) -> None:
    url = reverse("lexicon:schema_yaml", args=[vocabulary.project_id, vocabulary.pk])
    client = client_for(editor)
    assert "number:" in client.get(url).content.decode()
    response = client.post(
        url, {"text": "language: en\nfeatures:\n  number: {type: category, values: [sg]}\n"}
    )
    assert response.status_code == 400 and "4 items hold values" in response.content.decode()
    response = client.post(
        url, {"text": "features:\n  number: {type: category, values: [sg, pl]}\n  case: {type: nominal}\n"}
    )
    html = response.content.decode()
    assert 'data-line="3"' in html and "type &#x27;nominal&#x27; is not one of" in html


# -- Export, settings, delete ----------------------------------------------------------------------


def test_export_downloads_named_attachments(client_for: ClientFor, viewer: object, project: object) -> None:
    from mpp_studio.lexicon.services import Upload, vocabulary_import_upload

    vocabulary = vocabulary_import_upload(project=project, table=Upload("名词.tsv", ZH_NOUNS_TSV.encode()))
    client = client_for(viewer)
    csv = client.get(reverse("lexicon:vocabulary_export", args=[project.pk, vocabulary.pk, "csv"]))  # type: ignore[attr-defined]
    assert csv["Content-Type"] == "text/csv; charset=utf-8"
    assert csv["Content-Disposition"] == f"attachment; filename*=utf-8''{quote('名词.csv')}"
    assert csv.content.decode().startswith("id,form,lemma,pos,classifier\nz1,书,书,N,本\n")
    tsv = client.get(reverse("lexicon:vocabulary_export", args=[project.pk, vocabulary.pk, "tsv"]))  # type: ignore[attr-defined]
    assert "z3\t狗\t狗\tN\t只|条" in tsv.content.decode()
    other = client.get(reverse("lexicon:vocabulary_export", args=[project.pk, vocabulary.pk, "xlsx"]))  # type: ignore[attr-defined]
    assert other.status_code == 404


def test_settings_rename_and_delete(
    client_for: ClientFor, editor: object, vocabulary: Vocabulary, zh_vocabulary: Vocabulary
) -> None:
    client = client_for(editor)
    settings_url = reverse("lexicon:vocabulary_settings", args=[vocabulary.project_id, vocabulary.pk])
    taken = client.post(settings_url, {"name": "zh_nouns", "language": "en"})
    assert taken.status_code == 400 and "already has a vocabulary called" in taken.content.decode()
    assert (
        client.post(settings_url, {"name": "nouns", "language": "en", "description": "Animals"}).status_code
        == 302
    )
    vocabulary.refresh_from_db()
    assert (vocabulary.name, vocabulary.description) == ("nouns", "Animals")
    delete_url = reverse("lexicon:vocabulary_delete", args=[vocabulary.project_id, vocabulary.pk])
    assert "will report that the project has no such vocabulary" in client.get(delete_url).content.decode()
    response = client.post(delete_url)
    assert response["Location"] == reverse("lexicon:vocabulary_list", args=[vocabulary.project_id])
    assert list(Vocabulary.objects.values_list("name", flat=True)) == ["zh_nouns"]


ODD_CSV = (
    "id,form,lemma,pos,number\n"
    + "".join(f"n{i},dog{i},dog,NN,{'sg' if i % 2 else 'pl'}\n" for i in range(6))
    + "n6,cats,cat,NN,plural\nn7,cow,cow,NN,x\n"
)


def test_vocabulary_detail_shows_values_that_look_like_slips(
    client_for: ClientFor, viewer: object, project: object, vocabulary: Vocabulary
) -> None:
    from mpp_studio.lexicon.services import Upload, vocabulary_import_upload

    odd = vocabulary_import_upload(project=project, table=Upload("odd.csv", ODD_CSV.encode()))  # type: ignore[arg-type]
    client = client_for(viewer)
    html = client.get(reverse("lexicon:vocabulary_detail", args=[odd.project_id, odd.pk])).content.decode()
    assert "Check 2 values:" in html
    slip = '<a href="?f-number=plural">number: <code>plural</code></a> (item n6)'
    assert slip + ": did you mean <code>pl</code> (3 items)?" in html
    assert '<a href="?f-number=x">number: <code>x</code></a> (item n7)</li>' in html
    # A vocabulary whose schema lists the values (or whose values are all common) has none.
    clean = client.get(reverse("lexicon:vocabulary_detail", args=[vocabulary.project_id, vocabulary.pk]))
    assert "odd-values" not in clean.content.decode()
