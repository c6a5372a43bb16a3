"""A project's phrases: the engine checks each text, edits re-check the templates, deletes are guarded."""

import pytest
from django.core.exceptions import ValidationError

from mpp_studio.paradigms.models import Phrase
from mpp_studio.paradigms.project_engine import project_template_check
from mpp_studio.paradigms.selectors import phrase_list_get, phrase_users_get
from mpp_studio.paradigms.services import template_save
from mpp_studio.paradigms.services.phrases import (
    PhraseInUseError,
    PhraseTextError,
    phrase_create,
    phrase_delete,
    phrase_update,
)
from tests.web.paradigms.library_texts import NP_TEMPLATE, NP_TEXT, PLAIN_TEMPLATE

pytest_plugins = ["tests.web.paradigms.library_support"]
pytestmark = pytest.mark.django_db

ADJ_NP = (
    "- [{direct: the}, {id: head, lexical: {pos: NN}}]\n- [{direct: a}, {id: head, lexical: {pos: NN}}]\n"
)
# Always contains itself: the engine's E_NO_BASE_CASE once a template uses it.
ENDLESS = "- [{direct: the}, {id: head, lexical: {pos: NN}}, {phrase: NP}]\n"


def url(project: object, tail: str = "") -> str:
    return f"/projects/{project.pk}/phrases/{tail}"  # type: ignore[attr-defined]


# -- Services -------------------------------------------------------------------------------------


def test_phrase_create_stores_a_text_the_engine_reads(project: object) -> None:
    change = phrase_create(project=project, name="AdjNP", text=ADJ_NP.rstrip("\n"), description="two")  # type: ignore[arg-type]
    assert change.phrase.text == ADJ_NP and change.rechecks == []
    [row] = phrase_list_get(project=project)  # type: ignore[arg-type]
    assert row.alternative_count == 2 and row.used_by == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The first `[` is never closed: the error is where it opens, not where the reader stopped.
        ("- [{direct: the}\n- [x\n", "Line 1: this is not valid YAML: the [ opened on line 1"),
        ("- [{direct: the}, {lexical: {pos: NN}, same: x}]\n", "Line 1, alternative 1, position 2: "),
        ("{direct: the}\n", "Line 1: a phrase must be a list of alternatives"),
        ("- []\n", "alternative 1"),
    ],
)
def test_phrase_create_reports_engine_problems_with_their_line(
    project: object, text: str, expected: str
) -> None:
    with pytest.raises(PhraseTextError) as caught:
        phrase_create(project=project, name="NP", text=text)  # type: ignore[arg-type]
    assert any(
        message.startswith(expected) or expected in message for message in caught.value.message_dict["text"]
    )
    assert caught.value.problems and all(p.line for p in caught.value.problems)
    assert not Phrase.objects.exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "needs a name"),
        ("two words", "cannot name a phrase"),
        ("1NP", "cannot name a phrase"),
        ("NP", "already has"),
    ],
)
def test_phrase_create_checks_the_name(project: object, np_phrase: object, name: str, message: str) -> None:
    with pytest.raises(ValidationError) as caught:
        phrase_create(project=project, name=name, text=NP_TEXT)  # type: ignore[arg-type]
    assert message in caught.value.message_dict["name"][0]


def test_templates_get_only_the_phrases_they_use(
    project: object, en_nouns: object, np_phrase: object, owner: object
) -> None:
    """A phrase no template uses (here one whose features this vocabulary lacks) spoils nothing."""
    Phrase.objects.create(
        project=project, name="ChineseNP", text="- [{id: head, lexical: {pos: NN, classifier: 本}}]\n"
    )
    Phrase.objects.create(project=project, name="Endless", text="- [{direct: a}, {phrase: Endless}]\n")
    version = template_save(project=project, source_text=NP_TEMPLATE, user=owner)  # type: ignore[arg-type]
    assert version.problems == [] and version.capacity_text == "16"
    # A template's own phrase of the same name is its own: no duplicate.
    own = (
        NP_TEMPLATE.replace("uid: np_agreement", "uid: own_np")
        + "phrases:\n  NP:\n    - [{direct: a}, {id: head, lexical: {pos: NN}}]\n"
    )
    assert project_template_check(project=project, source_text=own).problems == []  # type: ignore[arg-type]


def test_phrase_update_rechecks_the_templates_that_use_it(project: object, np_template: object) -> None:
    phrase = Phrase.objects.get(project=project, name="NP")
    change = phrase_update(phrase=phrase, name="NP", text=ADJ_NP)
    [recheck] = change.rechecks
    assert recheck.template == np_template and recheck.valid and change.broken == []

    change = phrase_update(
        phrase=phrase, name="NP", text="- [{direct: the}, {id: noun, lexical: {pos: NN}}]\n"
    )
    [broken] = change.broken
    assert broken.problems[0].code == "E_DANGLING_REF" and "head" in broken.problems[0].message
    # The stored version is as it was saved: re-checks never change versions.
    assert np_template.latest_version().problems == []  # type: ignore[attr-defined]


def test_recursive_phrase_without_base_case_is_reported_when_a_template_uses_it(
    project: object, np_template: object
) -> None:
    phrase = Phrase.objects.get(project=project, name="NP")
    change = phrase_update(phrase=phrase, name="NP", text=ENDLESS)
    [broken] = change.broken
    assert (
        broken.problems[0].code == "E_NO_BASE_CASE"
        and "phrase NP always contains itself" in broken.problems[0].message
    )


def test_phrase_rename_rechecks_the_old_users(project: object, np_template: object) -> None:
    phrase = Phrase.objects.get(project=project, name="NP")
    change = phrase_update(phrase=phrase, name="NounPhrase", text=NP_TEXT)
    [broken] = change.broken
    assert broken.template == np_template and broken.problems[0].code == "E_UNKNOWN_PHRASE"


def test_phrase_delete_is_refused_while_a_latest_version_uses_it(
    project: object, np_template: object, owner: object
) -> None:
    phrase = Phrase.objects.get(project=project, name="NP")
    with pytest.raises(PhraseInUseError) as caught:
        phrase_delete(phrase=phrase)
    assert caught.value.templates == [np_template] and "np_agreement" in caught.value.messages[0]
    # Once the latest version no longer uses it, it can go (older versions keep their text).
    template_save(
        project=project,
        source_text=PLAIN_TEMPLATE.replace("plain_agreement", "np_agreement"),
        user=owner,
        template=np_template,
    )  # type: ignore[arg-type]
    assert phrase_users_get(project=project, names=["NP"]) == []  # type: ignore[arg-type]
    phrase_delete(phrase=phrase)
    assert not Phrase.objects.filter(project=project).exists()


def test_phrase_used_through_another_phrase_counts_as_used(
    project: object, en_nouns: object, np_phrase: object, owner: object
) -> None:
    Phrase.objects.create(project=project, name="Subject", text="- [{phrase: NP}]\n")
    template_save(
        project=project,
        source_text=NP_TEMPLATE.replace("phrase: NP", "phrase: Subject").replace(
            "where: {head: {number: sg}}", ""
        ),
        user=owner,
    )  # type: ignore[arg-type]
    assert [t.uid for t in phrase_users_get(project=project, names=["NP"])] == ["np_agreement"]  # type: ignore[arg-type]


# -- Pages ----------------------------------------------------------------------------------------


def test_phrase_list_page_shows_alternatives_and_users(
    client_as: object, viewer: object, project: object, np_template: object
) -> None:
    html = client_as(viewer).get(url(project)).content.decode()  # type: ignore[operator]
    assert "<code>NP</code>" in html and "<code>np_agreement</code>" in html
    assert '<td class="num">1</td>' in html
    assert "New phrase" not in html  # viewers read only


def test_phrase_new_page_creates_or_shows_errors_by_line(
    client_as: object, editor: object, project: object
) -> None:
    client = client_as(editor)  # type: ignore[operator]
    assert client.get(url(project, "new/")).status_code == 200
    response = client.post(url(project, "new/"), {"name": "NP", "text": "- [{direct: the}\n- [x\n"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Line 1: this is not valid YAML" in html and not Phrase.objects.exists()
    response = client.post(url(project, "new/"), {"name": "AdjNP", "text": ADJ_NP, "description": "two ways"})
    phrase = Phrase.objects.get(project=project, name="AdjNP")
    assert response.status_code == 302 and response["Location"] == url(project, f"{phrase.pk}/")


def test_phrase_edit_page_names_the_templates_that_now_have_problems(
    client_as: object, editor: object, project: object, np_template: object
) -> None:
    phrase = Phrase.objects.get(project=project, name="NP")
    client = client_as(editor)  # type: ignore[operator]
    response = client.post(url(project, f"{phrase.pk}/"), {"name": "NP", "text": ENDLESS}, follow=True)
    html = response.content.decode()
    assert "Phrase &#x27;NP&#x27; was saved." in html
    assert "The template that uses phrase &#x27;NP&#x27; now has problems: np_agreement." in html
    assert '<li class="recheck invalid">' in html and "E_NO_BASE_CASE" in html

    html = client.post(
        url(project, f"{phrase.pk}/"), {"name": "NP", "text": NP_TEXT}, follow=True
    ).content.decode()
    assert "was checked again: no problems" in html and '<li class="recheck valid">' in html


def test_phrase_edit_page_keeps_the_phrase_on_errors(
    client_as: object, editor: object, project: object, np_phrase: object
) -> None:
    client = client_as(editor)  # type: ignore[operator]
    response = client.post(url(project, f"{np_phrase.pk}/"), {"name": "Bad name", "text": "- [\n"})  # type: ignore[attr-defined]
    assert response.status_code == 200 and "cannot name a phrase" in response.content.decode()
    assert Phrase.objects.get(pk=np_phrase.pk).text == NP_TEXT  # type: ignore[attr-defined]


def test_phrase_delete_page_refuses_while_used_and_deletes_when_free(
    client_as: object, editor: object, project: object, np_template: object
) -> None:
    phrase = Phrase.objects.get(project=project, name="NP")
    client = client_as(editor)  # type: ignore[operator]
    page = client.get(url(project, f"{phrase.pk}/delete/")).content.decode()
    assert "cannot be deleted" in page and "<code>np_agreement</code>" in page
    refused = client.post(url(project, f"{phrase.pk}/delete/"))
    assert refused.status_code == 409 and "np_agreement" in refused.content.decode()
    assert Phrase.objects.filter(pk=phrase.pk).exists()

    free = Phrase.objects.create(project=project, name="Unused", text=NP_TEXT)
    response = client.post(url(project, f"{free.pk}/delete/"))
    assert response.status_code == 302 and not Phrase.objects.filter(pk=free.pk).exists()


@pytest.mark.parametrize(
    ("who", "read", "write"),
    [
        ("anonymous", 302, 302),
        ("outsider", 404, 404),
        ("viewer", 200, 403),
        ("editor", 200, 302),
        ("owner", 200, 302),
    ],
)
def test_phrase_pages_permissions(
    client_as: object,
    project: object,
    other_project: object,
    np_phrase: object,
    who: str,
    read: int,
    write: int,
    request: pytest.FixtureRequest,
) -> None:
    user = None if who == "anonymous" else request.getfixturevalue(who)
    client = client_as(user)  # type: ignore[operator]
    pk = np_phrase.pk  # type: ignore[attr-defined]
    assert client.get(url(project)).status_code == read
    assert client.get(url(project, f"{pk}/")).status_code == read
    assert client.get(url(project, "new/")).status_code == (read if write != 403 else 403)
    assert client.post(url(project, "new/"), {"name": "AdjNP", "text": ADJ_NP}).status_code == write
    assert client.post(url(project, f"{pk}/"), {"name": "NP", "text": ADJ_NP}).status_code == write
    assert client.post(url(project, f"{pk}/delete/")).status_code == write
    assert Phrase.objects.filter(pk=pk).exists() == (write != 302 or who == "anonymous")


def test_phrase_of_another_project_is_not_found(
    client_as: object, outsider: object, other_project: object, np_phrase: object
) -> None:
    client = client_as(outsider)  # type: ignore[operator]
    assert client.get(url(other_project, f"{np_phrase.pk}/")).status_code == 404  # type: ignore[attr-defined]
    assert client.post(url(other_project, f"{np_phrase.pk}/delete/")).status_code == 404  # type: ignore[attr-defined]
