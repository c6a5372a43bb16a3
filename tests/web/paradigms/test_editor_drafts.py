"""Drafts: the editor's form kept on the server as it changes, offered back, ended by a save."""

from collections.abc import Callable

import pytest
from django.test import Client

from mpp_studio.paradigms.models import Template, TemplateDraft
from mpp_studio.paradigms.services.drafts import DRAFT_MAX_CHARACTERS
from tests.web.paradigms.editor_texts import DET_TEMPLATE
from tests.web.paradigms.test_editor_pages import fields_of, url

pytest_plugins = ["tests.web.paradigms.editor_support"]
pytestmark = pytest.mark.django_db

SignedIn = Callable[[object | None], Client]


def test_a_draft_is_kept_offered_restored_and_ended_by_a_save(
    signed_in: SignedIn, editor: object, project: object, det_template: Template
) -> None:
    client = signed_in(editor)
    fields = fields_of(DET_TEMPLATE, draft_of=str(det_template.pk), base_version="1", csrfmiddlewaretoken="x")
    fields["good-3-words"] = ". | !"
    response = client.post(url("template_editor_draft", project), fields)
    assert response.status_code == 200 and response.content.decode().startswith("Draft kept at ")
    draft = TemplateDraft.objects.get()
    assert draft.template == det_template and draft.base_version == 1
    assert draft.fields["good-3-words"] == ". | !" and "csrfmiddlewaretoken" not in draft.fields
    assert det_template.versions.count() == 1  # a draft is not a version

    fields["good-3-words"] = "!"  # the latest state replaces the last
    client.post(url("template_editor_draft", project), fields)
    assert TemplateDraft.objects.get().fields["good-3-words"] == "!"

    page = client.get(url("template_edit", project, det_template.pk)).content.decode()
    assert "You have a draft" in page and 'href="?draft=restore"' in page
    assert 'id="good-3-words" value="."' in page  # opened on the latest version until restored

    restored = client.get(url("template_edit", project, det_template.pk) + "?draft=restore").content.decode()
    assert 'id="good-3-words" value="!"' in restored and 'data-dirty="true"' in restored
    assert "You have a draft" not in restored

    save = fields_of(DET_TEMPLATE, action="save", **{"good-3-words": "!"})
    assert client.post(url("template_edit", project, det_template.pk), save).status_code == 302
    assert not TemplateDraft.objects.exists()
    assert (
        "You have a draft" not in client.get(url("template_edit", project, det_template.pk)).content.decode()
    )


def test_a_new_template_has_its_own_draft_per_person(
    signed_in: SignedIn, editor: object, owner: object, project: object, animals: object
) -> None:
    mine, theirs = signed_in(editor), signed_in(owner)
    mine.post(url("template_editor_draft", project), fields_of(DET_TEMPLATE, draft_of="", uid="mine"))
    theirs.post(url("template_editor_draft", project), fields_of(DET_TEMPLATE, draft_of="", uid="theirs"))
    assert sorted(d.fields["uid"] for d in TemplateDraft.objects.filter(template=None)) == ["mine", "theirs"]
    restored = mine.get(url("template_new", project) + "?draft=restore").content.decode()
    assert 'name="uid" id="uid" value="mine"' in restored

    response = mine.post(url("template_editor_draft_discard", project), {"draft_of": ""})
    assert response.status_code == 302 and response["Location"] == url("template_new", project)
    assert [d.fields["uid"] for d in TemplateDraft.objects.all()] == ["theirs"]
    assert (
        "no draft to restore"
        in mine.get(url("template_new", project) + "?draft=restore", follow=True).content.decode()
    )


def test_the_offer_says_when_a_version_was_saved_since(
    signed_in: SignedIn, editor: object, owner: object, project: object, det_template: Template
) -> None:
    from mpp_studio.paradigms.services import template_save

    client = signed_in(editor)
    client.post(
        url("template_editor_draft", project),
        fields_of(DET_TEMPLATE, draft_of=str(det_template.pk), base_version="1"),
    )
    template_save(project=project, source_text=DET_TEMPLATE + "\n", user=owner, template=det_template)  # type: ignore[arg-type]
    page = client.get(url("template_edit", project, det_template.pk)).content.decode()
    assert "It was begun on version 1; version 2 has been saved since." in page


def test_drafts_refuse_what_no_template_is_and_other_projects(
    signed_in: SignedIn,
    editor: object,
    viewer: object,
    outsider: object,
    project: object,
    det_template: Template,
) -> None:
    client = signed_in(editor)
    huge = client.post(
        url("template_editor_draft", project), {"draft_of": "", "extra": "x" * (DRAFT_MAX_CHARACTERS + 1)}
    )
    assert huge.status_code == 413 and "not kept" in huge.content.decode()
    assert client.post(url("template_editor_draft", project), {"draft_of": "999999"}).status_code == 404
    assert client.post(url("template_editor_draft", project), {"draft_of": "abc"}).status_code == 404
    assert signed_in(viewer).post(url("template_editor_draft", project), {"draft_of": ""}).status_code == 403
    assert (
        signed_in(outsider).post(url("template_editor_draft", project), {"draft_of": ""}).status_code == 404
    )
    assert signed_in(None).post(url("template_editor_draft", project), {"draft_of": ""}).status_code == 302
    assert not TemplateDraft.objects.exists()
