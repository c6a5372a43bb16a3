"""Importing library paradigms into a project: the real shipped library, reuse, conflicts, the pages."""

import re
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.test import Client

from generator.library import find_templates
from mpp_studio.lexicon.engine import vocabulary_parse, vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.lexicon.services.vocabularies import vocabulary_create_from_lexicon
from mpp_studio.paradigms.models import LibraryImport, LibraryTemplate, Phrase, Template
from mpp_studio.paradigms.selectors import template_latest_list
from mpp_studio.paradigms.services.library_into_project import library_templates_import
from mpp_studio.paradigms.services.phrases import phrase_file_import
from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA

pytest_plugins = ["tests.web.paradigms.library_support"]
pytestmark = pytest.mark.django_db

SHIPPED = Path(settings.GRAMMAR_LIBRARY_DIR)


def shipped_phrase_names() -> set[str]:
    names: set[str] = set()
    for path in (SHIPPED / "phrases").glob("*.yaml"):
        names |= set(yaml.safe_load(path.read_text(encoding="utf-8")))
    return names


def latest() -> list[LibraryTemplate]:
    return list(template_latest_list())


# -- The service, with the real shipped library ---------------------------------------------------


def test_shipped_library_imports_into_a_project_with_every_template_valid(
    shipped_library: None, project: object, owner: object
) -> None:
    templates = latest()
    assert len(templates) == len(find_templates([SHIPPED])) >= 7
    report = library_templates_import(project=project, templates=templates, user=owner)  # type: ignore[arg-type]

    assert [r.message for r in report.skipped] == []
    assert len(report.imported) == len(templates)
    for result in report.results:
        version = result.version
        assert version is not None and version.number == 1
        assert version.problems == [], (result.source.uid, version.problems)
        # The same check as in the library: the same capacity.
        assert version.capacity_text == result.source.capacity_text
        assert version.created_by == owner

    # Each vocabulary and phrase was created once, then reused by the next template.
    vocabularies = Vocabulary.objects.filter(project=project)
    used = sorted({t.vocabulary.name for t in templates if t.vocabulary})
    assert {"en_child", "zh_basic"} <= set(used)
    assert sorted(vocabularies.values_list("name", flat=True)) == used
    for vocabulary in vocabularies:
        library = next(
            t.vocabulary for t in templates if t.vocabulary and t.vocabulary.name == vocabulary.name
        )
        parsed = vocabulary_parse(
            file_name=library.file_name, items_text=library.items_text, schema_text=library.schema_text
        )
        assert vocabulary_to_engine(vocabulary).version == parsed.lexicon.version
    assert (
        set(Phrase.objects.filter(project=project).values_list("name", flat=True)) == shipped_phrase_names()
    )
    created = [(p.kind, p.name) for r in report.results for p in r.created]
    assert len(created) == len(set(created)) == len(used) + len(shipped_phrase_names())
    reused = [(p.kind, p.name) for r in report.results for p in r.reused]
    assert ("vocabulary", "en_child") in reused and ("vocabulary", "zh_basic") in reused


def test_reimport_skips_templates_whose_uid_the_project_has(
    shipped_library: None, project: object, owner: object
) -> None:
    templates = latest()
    library_templates_import(project=project, templates=templates, user=owner)  # type: ignore[arg-type]
    again = library_templates_import(project=project, templates=templates, user=owner)  # type: ignore[arg-type]
    assert again.imported == []
    for result in again.skipped:
        assert f"already has a template with uid '{result.source.uid}'" in result.message
    assert Template.objects.filter(project=project).count() == len(templates)


def test_reimport_after_deleting_a_template_reuses_vocabulary_and_phrases(
    shipped_library: None, project: object, owner: object
) -> None:
    templates = latest()
    library_templates_import(project=project, templates=templates, user=owner)  # type: ignore[arg-type]
    pp = next(t for t in templates if t.uid == "distractor_agreement_prepositional_phrase")
    Template.objects.get(project=project, uid=pp.uid).delete()
    counts = (Vocabulary.objects.count(), Phrase.objects.count())

    [result] = library_templates_import(project=project, templates=[pp], user=owner).results  # type: ignore[arg-type]
    assert result.imported and result.created == []
    assert {p.name for p in result.reused} == {"en_child", *shipped_phrase_names_of(pp)}
    assert (Vocabulary.objects.count(), Phrase.objects.count()) == counts


def shipped_phrase_names_of(template: LibraryTemplate) -> set[str]:
    names: set[str] = set()
    for text in template.phrase_texts.values():
        names |= set(yaml.safe_load(text))
    return names


def test_a_different_vocabulary_of_the_same_name_is_a_conflict_and_nothing_is_stored(
    shipped_library: None, project: object, owner: object
) -> None:
    lexicon = vocabulary_parse(
        file_name="en_child.csv", items_text=EN_NOUNS_CSV, schema_text=EN_NOUNS_SCHEMA
    ).lexicon
    mine = vocabulary_create_from_lexicon(project=project, lexicon=lexicon, name="en_child")  # type: ignore[arg-type]

    report = library_templates_import(project=project, templates=latest(), user=owner)  # type: ignore[arg-type]
    skipped = {r.source.uid for r in report.skipped}
    over_en_child = {t.uid for t in latest() if t.vocabulary is not None and t.vocabulary.name == "en_child"}
    assert skipped == over_en_child
    for result in report.skipped:
        assert (
            "the project's vocabulary 'en_child' differs from the library's vocabulary"
            in result.message.lower()
        )
        assert "vocabularies/en_child.csv" in result.message
    # The other paradigms (Chinese, and English over en_general) are imported.
    assert {r.source.uid for r in report.imported} == {t.uid for t in latest()} - over_en_child
    # The project's vocabulary is untouched, and no English phrase or template was stored.
    assert vocabulary_to_engine(Vocabulary.objects.get(pk=mine.pk)).version == lexicon.version
    assert not Phrase.objects.filter(project=project, name="AnimateNP").exists()
    assert not Template.objects.filter(project=project, uid__in=over_en_child).exists()


def test_a_different_phrase_of_the_same_name_is_a_conflict(
    shipped_library: None, project: object, owner: object
) -> None:
    Phrase.objects.create(project=project, name="ObjectNP", text="- [{direct: it}]\n")
    report = library_templates_import(project=project, templates=latest(), user=owner)  # type: ignore[arg-type]
    # Every paradigm whose phrase files define the clashing name is refused, and only those.
    with_object_np = {
        t.uid for t in latest() if any("ObjectNP" in yaml.safe_load(text) for text in t.phrase_texts.values())
    }
    assert {r.source.uid for r in report.skipped} == with_object_np
    message = report.skipped[0].message
    assert "phrase called 'ObjectNP'" in message and "en_phrases.yaml, line" in message
    assert "this paradigm was not imported" in message
    # The template without phrase files came in with the vocabulary it needs.
    assert Template.objects.filter(project=project, uid="determiner_noun_agreement_demonstrative").exists()
    assert Phrase.objects.get(project=project, name="ObjectNP").text == "- [{direct: it}]\n"
    assert not Phrase.objects.filter(project=project, name="AnimateNP").exists()


def test_phrase_file_import_stores_plain_yaml_and_keeps_yes_no_as_text(project: object) -> None:
    text = "Answer:\n  - [{direct: no}]\n  - [{direct: [on, yes]}]\n"
    [result] = phrase_file_import(project=project, file_name="answers.yaml", text=text)  # type: ignore[arg-type]
    assert result.outcome == "created"
    stored = Phrase.objects.get(project=project, name="Answer")
    assert stored.text == yaml.safe_dump(
        [[{"direct": "no"}], [{"direct": ["on", "yes"]}]], allow_unicode=True, sort_keys=False
    )
    assert yaml.safe_load(stored.text) == [[{"direct": "no"}], [{"direct": ["on", "yes"]}]]
    # The same again (laid out differently) is reused.
    [again] = phrase_file_import(
        project=project, file_name="b.yaml", text="Answer: [[{direct: 'no'}], [{direct: [on, 'yes']}]]\n"
    )  # type: ignore[arg-type]
    assert again.outcome == "reused"


# -- The pages -------------------------------------------------------------------------------------


def library_html(client: Client, query: str = "", **headers: str) -> str:
    response = client.get("/library/" + query, headers=headers)
    assert response.status_code == 200
    return response.content.decode().replace("<wbr>", "")


def test_library_page_filters_by_language_and_phenomenon(
    shipped_library: None, client_as: object, editor: object, project: object
) -> None:
    client = client_as(editor)  # type: ignore[operator]
    everything = library_html(client)
    assert (
        "anaphor_gender_agreement_ziji" in everything and "dropped_object_obligatory_transitive" in everything
    )
    assert '<option value="zh">Chinese (zh)</option>' in everything

    chinese = library_html(client, "?language=zh")
    assert (
        "anaphor_gender_agreement_ziji" in chinese and "dropped_object_obligatory_transitive" not in chinese
    )
    zh_count = sum(1 for t in latest() if t.language == "zh")
    assert f"{zh_count} paradigms in 1 language match these filters." in chinese

    agreement = library_html(client, "?language=en&phenomenon=agreement_subject_verb")
    expected = sorted(t.uid for t in latest() if t.phenomenon == "agreement_subject_verb")
    assert "distractor_agreement_prepositional_phrase" in expected
    assert sorted(re.findall(r'<a class="uid"[^>]*><code>([^<]+)</code>', agreement)) == expected

    # htmx asks for the list only; an unknown filter value is ignored.
    partial = library_html(client, "?language=zh", **{"HX-Request": "true"})
    assert "<html" not in partial and "anaphor_gender_agreement_ziji" in partial
    assert "dropped_object_obligatory_transitive" in library_html(client, "?language=xx")
    assert "No paradigm matches these filters." in library_html(
        client, "?language=zh&phenomenon=subject_aux_inversion"
    )


def test_library_page_offers_import_into_projects_the_user_edits(
    shipped_library: None, client_as: object, editor: object, viewer: object, project: object
) -> None:
    html = library_html(client_as(editor))  # type: ignore[operator]
    assert 'id="library-import"' in html and f'<option value="{project.pk}">Agreement study</option>' in html  # type: ignore[attr-defined]
    assert html.count('name="templates"') == len(latest())
    viewer_html = library_html(client_as(viewer))  # type: ignore[operator]
    assert 'id="library-import"' not in viewer_html and 'name="templates"' not in viewer_html
    assert "you need to be an editor or owner" in viewer_html


def test_import_page_imports_two_paradigms_and_reports_each(
    shipped_library: None, client_as: object, editor: object, project: object, run_jobs_now: None
) -> None:
    chosen = [
        t
        for t in latest()
        if t.uid in ("classifier_noun_agreement_numeral", "dropped_object_obligatory_transitive")
    ]
    response = client_as(editor).post(  # type: ignore[operator]
        "/paradigms/import/",
        {"project": project.pk, "templates": [t.pk for t in chosen], "from": "list"},  # type: ignore[attr-defined]
        follow=True,
    )
    row = LibraryImport.objects.get()
    assert response.redirect_chain == [(f"/projects/{project.pk}/templates/import/library/{row.pk}/", 302)]  # type: ignore[attr-defined]
    html = response.content.decode()
    assert "2 paradigms are being imported" in html and 'data-status="done"' in html
    assert "2 of 2 paradigms imported." in html
    assert html.count('<span class="badge badge-ok">imported</span>') == 2
    assert "Vocabulary <code>zh_basic</code>: added to the project" in html
    assert "The template is valid in the project" in html
    assert set(Template.objects.filter(project=project).values_list("uid", flat=True)) == {
        t.uid for t in chosen
    }

    again = client_as(editor).post(  # type: ignore[operator]
        "/paradigms/import/",
        {"project": project.pk, "templates": [chosen[0].pk]},  # type: ignore[attr-defined]
        follow=True,
    )
    assert "0 of 1 paradigm imported, 1 skipped." in again.content.decode()
    assert "already has a template with uid" in again.content.decode()


def test_import_page_answers_before_the_job_runs_and_follows_it(
    shipped_library: None, client_as: object, editor: object, viewer: object, project: object
) -> None:
    """Without a worker the page answers at once; the import's page polls the job, and shows
    each paradigm's row as the job stores it (viewers may follow it too)."""
    from mpp_studio.paradigms.services.library_into_project import library_templates_import_run

    template = next(t for t in latest() if t.uid == "classifier_noun_agreement_numeral")
    response = client_as(editor).post(
        "/paradigms/import/", {"project": project.pk, "templates": [template.pk]}
    )  # type: ignore[operator, attr-defined]
    row = LibraryImport.objects.get()
    assert response.status_code == 302 and not Template.objects.exists()
    page = client_as(viewer).get(response["Location"]).content.decode()  # type: ignore[operator]
    assert 'data-status="queued"' in page and f"/templates/import/jobs/{row.job_id}/status/" in page
    assert 'hx-trigger="job-progress from:body, job-finished from:body"' in page
    library_templates_import_run(import_id=row.pk)
    partial = client_as(viewer).get(response["Location"], HTTP_HX_REQUEST="true").content.decode()  # type: ignore[operator]
    assert "<html" not in partial and "1 of 1 paradigm imported." in partial
    assert 'data-status="done"' in partial and "hx-trigger" not in partial.split('class="job-status')[0]


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 302), ("outsider", 404), ("viewer", 403), ("editor", 302), ("owner", 302)],
)
def test_import_page_permissions(
    shipped_library: None,
    client_as: object,
    project: object,
    other_project: object,
    who: str,
    expected: int,
    request: pytest.FixtureRequest,
    run_jobs_now: None,
) -> None:
    user = None if who == "anonymous" else request.getfixturevalue(who)
    template = latest()[0]
    response = client_as(user).post("/paradigms/import/", {"project": project.pk, "templates": [template.pk]})  # type: ignore[operator, attr-defined]
    assert response.status_code == expected
    if who == "anonymous":
        assert response["Location"].startswith("/accounts/login/")
    allowed = who in ("editor", "owner")
    assert Template.objects.filter(project=project).exists() == allowed
    assert LibraryImport.objects.exists() == allowed


def test_the_import_job_is_safe_to_run_twice_and_goes_on_after_a_death(
    shipped_library: None, project: object, editor: object
) -> None:
    """Each template's result is stored with it: a run that died after the first template is run
    again and imports only the rest; a third run changes nothing."""
    from unittest import mock

    from mpp_studio.paradigms.services import library_into_project as service
    from mpp_studio.paradigms.tasks import import_library

    chosen = [t for t in latest() if t.language == "zh"][:3]
    with mock.patch.object(import_library, "delay_on_commit"):
        row = service.library_templates_import_start(project=project, templates=chosen, user=editor)  # type: ignore[arg-type]
    real = service._template_import
    calls: list[str] = []

    def dies_on_the_second(project: object, source: LibraryTemplate, user: object) -> object:
        calls.append(source.uid)
        if len(calls) == 2:
            raise RuntimeError("the worker died")
        return real(project, source, user)  # type: ignore[arg-type]

    with mock.patch.object(service, "_template_import", dies_on_the_second), pytest.raises(RuntimeError):
        service.library_templates_import_run(import_id=row.pk)
    row.refresh_from_db()
    assert [r["uid"] for r in row.results] == [chosen[0].uid]
    assert Template.objects.filter(project=project).count() == 1
    service.library_templates_import_run(import_id=row.pk)
    service.library_templates_import_run(import_id=row.pk)
    row = LibraryImport.objects.select_related("job").get(pk=row.pk)
    assert [r["uid"] for r in row.results] == [t.uid for t in chosen]
    assert all(r["imported"] for r in row.results), row.results
    assert (row.job.status, row.job.progress_done, row.job.progress_total) == ("done", 3, 3)  # type: ignore[union-attr]
    assert row.job.message == "3 of 3 paradigms imported."  # type: ignore[union-attr]
    assert Template.objects.filter(project=project).count() == 3


def test_import_page_without_choice_goes_back_with_a_message(
    shipped_library: None, client_as: object, editor: object, project: object
) -> None:
    client = client_as(editor)  # type: ignore[operator]
    response = client.post("/paradigms/import/", {"project": project.pk}, follow=True)  # type: ignore[attr-defined]
    assert response.redirect_chain[0][0] == "/library/"
    assert "Choose at least one paradigm to import." in response.content.decode()
    template = latest()[0]
    response = client.post("/paradigms/import/", {"templates": [template.pk], "from": "detail"}, follow=True)
    assert response.redirect_chain[0][0] == f"/paradigms/{template.pk}/"
    assert "Choose the project to import into." in response.content.decode()
    assert client.get("/paradigms/import/").status_code == 405


def test_detail_page_offers_import_and_download(
    shipped_library: None, client_as: object, editor: object, project: object
) -> None:
    template = next(t for t in latest() if t.uid == "classifier_noun_agreement_numeral")
    client = client_as(editor)  # type: ignore[operator]
    html = client.get(f"/paradigms/{template.pk}/").content.decode()
    assert "Import into project…" in html and 'name="from" value="detail"' in html
    assert f'href="/paradigms/{template.pk}/download/"' in html
    # The preview is still there.
    assert html.count('<tr class="pair">') == 10

    download = client.get(f"/paradigms/{template.pk}/download/")
    assert download.status_code == 200
    assert download["Content-Disposition"] == 'attachment; filename="classifier_noun_agreement_numeral.yaml"'
    assert download["Content-Type"].startswith("application/yaml")
    assert download.content.decode() == template.source_text
    assert client.get("/paradigms/999999/download/").status_code == 404
    assert Client().get(f"/paradigms/{template.pk}/download/").status_code == 302
