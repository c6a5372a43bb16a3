"""The template pages and the editor over HTTP: preview partials, saves, versions, restore, no-JS posts."""

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from generator.document import document_from_text
from mpp_studio.paradigms.editor_actions import state_settle
from mpp_studio.paradigms.forms.editor import state_from_document, state_to_fields
from mpp_studio.paradigms.models import Phrase, Template, TemplateVersion
from mpp_studio.paradigms.services import template_save
from tests.web.paradigms.editor_texts import DET_TEMPLATE

pytest_plugins = ["tests.web.paradigms.editor_support"]
pytestmark = pytest.mark.django_db

SignedIn = Callable[[object | None], Client]


def fields_of(text: str, **changes: str) -> dict[str, str]:
    """Return the editor's form fields for a template text (as the table shows it), with changes."""
    fields = state_to_fields(state_settle(state_from_document(document_from_text(text))))
    fields.update(changes)
    return fields


def url(name: str, project: object, *args: object) -> str:
    return reverse(f"project_paradigms:{name}", args=[project.pk, *args])  # type: ignore[attr-defined]


# -- the preview ----------------------------------------------------------------------------------


def test_preview_shows_ten_pairs_with_marks_and_the_capacity(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    response = signed_in(editor).post(url("template_editor_preview", project), fields_of(DET_TEMPLATE))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<tr class="pair">') == 10
    assert html.count("<mark") >= 20
    assert "Capacity: <strong>32</strong> different pairs" in html
    assert 'class="badge badge-ok">no problems' in html
    # Every place's problem slot is sent (empty), so old problems are cleared.
    assert 'id="problems-good-1" class="inline-problems" hx-swap-oob="true"' in html
    assert 'id="problems-field-uid" class="inline-problems" hx-swap-oob="true"' in html
    assert not Template.objects.exists()  # nothing saved


def test_preview_shows_a_problem_beside_its_row(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    fields = fields_of(DET_TEMPLATE)
    assert fields["good-1-feat-1-name"] == "number"
    fields["good-1-feat-1-value"] = "dual"
    html = signed_in(editor).post(url("template_editor_preview", project), fields).content.decode()
    slot = re.search(r'<div id="problems-good-1"[^>]*>(.*?)</div>', html, re.S)
    assert slot is not None and "E_UNKNOWN_VALUE" in slot.group(1) and "dual" in slot.group(1)
    assert 'hx-swap-oob="true"' in slot.group(0)
    assert "good grammar, position 2 (noun)" in html  # the list at the top says where, in words
    assert "line " not in html.split('id="preview"')[1].split("</div>")[0]  # no invisible line numbers
    assert '<tr class="pair">' not in html


def test_preview_puts_problems_without_a_position_at_their_field(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    client = signed_in(editor)
    html = client.post(
        url("template_editor_preview", project), fields_of(DET_TEMPLATE, vocabulary="plants")
    ).content.decode()
    vocabulary = re.search(r'<div id="problems-field-vocabulary"[^>]*>(.*?)</div>', html, re.S)
    assert vocabulary is not None and "no vocabulary called &#x27;plants&#x27;" in vocabulary.group(1)
    html = client.post(
        url("template_editor_preview", project), fields_of(DET_TEMPLATE, uid="")
    ).content.decode()
    uid = re.search(r'<div id="problems-field-uid"[^>]*>(.*?)</div>', html, re.S)
    assert uid is not None and "needs &#x27;uid&#x27;" in uid.group(1)


def test_preview_applies_equal_length_and_places_its_problem_at_the_options(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    """With equal length in words the pairs still count 32; in characters `these`/`those` never
    balance `this`/`that`, which the preview reports beside the options (issue 17)."""
    client = signed_in(editor)
    html = client.post(
        url("template_editor_preview", project), fields_of(DET_TEMPLATE, **{"opt-equal_length": "words"})
    ).content.decode()
    assert "Capacity: <strong>32</strong> different pairs" in html
    html = client.post(
        url("template_editor_preview", project), fields_of(DET_TEMPLATE, **{"opt-equal_length": "characters"})
    ).content.decode()
    options = re.search(r'<div id="problems-field-options"[^>]*>(.*?)</div>', html, re.S)
    assert options is not None and "E_UNEQUAL_LENGTH" in options.group(1)
    assert '<tr class="pair">' not in html


def test_editor_table_offers_equal_length_and_keeps_it_in_the_yaml(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    """The Table's options have an equal-length select; switching to YAML writes the option."""
    client = signed_in(editor)
    html = client.get(url("template_new", project)).content.decode()
    select = re.search(r'<select name="opt-equal_length"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None
    assert re.findall(r'<option value="([^"]*)"', select.group(1)) == ["", "characters", "words"]
    text = DET_TEMPLATE.replace("good:\n", "options:\n  equal_length: words\ngood:\n", 1)
    html = client.post(
        url("template_editor_table", project), {"mode": "yaml", "yaml_text": text, "action": "to-table"}
    ).content.decode()
    assert '<option value="words" selected>' in html
    assert '<details class="options" open>' in html
    html = client.post(
        url("template_editor_table", project), fields_of(text, action="to-yaml")
    ).content.decode()
    assert "options:\n  equal_length: words\n" in html


def test_editor_table_keeps_zhoblimp_sampling_of_an_imported_template(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    """An imported ZhoBLiMP template's `sampling: zhoblimp` is shown in the Table's options and
    written back, never dropped by a round through the Table (issue 17)."""
    client = signed_in(editor)
    html = client.get(url("template_new", project)).content.decode()
    select = re.search(r'<select name="opt-sampling"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None
    assert re.findall(r'<option value="([^"]*)"', select.group(1)) == ["", "uniform", "zhoblimp"]
    text = DET_TEMPLATE.replace("good:\n", "options:\n  sampling: zhoblimp\ngood:\n", 1)
    html = client.post(
        url("template_editor_table", project), {"mode": "yaml", "yaml_text": text, "action": "to-table"}
    ).content.decode()
    assert '<option value="zhoblimp" selected>' in html
    html = client.post(
        url("template_editor_table", project), fields_of(text, action="to-yaml")
    ).content.decode()
    assert "options:\n  sampling: zhoblimp\n" in html


def test_preview_names_the_phrase_of_a_phrase_problem(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    Phrase.objects.create(
        project=project,
        name="Place",
        text="- [{direct: the}, {id: head, lexical: {pos: NN, number: dual}}]\n",
    )
    text = DET_TEMPLATE.replace(
        '  - {id: stop, direct: "."}\n', '  - {id: where, phrase: Place}\n  - {id: stop, direct: "."}\n', 1
    )
    html = signed_in(editor).post(url("template_editor_preview", project), fields_of(text)).content.decode()
    assert "E_UNKNOWN_VALUE" in html and "phrase Place" in html


def test_preview_of_the_yaml_view_names_lines(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    text = DET_TEMPLATE.replace("number: pl", "number: dual")
    html = (
        signed_in(editor)
        .post(url("template_editor_preview", project), {"mode": "yaml", "yaml_text": text, "seed": "0"})
        .content.decode()
    )
    assert "line 9, good grammar, position 2 (noun)" in html
    assert 'id="problems-field-yaml_text"' in html


def test_preview_reports_fields_that_are_not_yaml_beside_their_row(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    fields = fields_of(DET_TEMPLATE, **{"bad-1-type": "yaml", "bad-1-yaml": "{same: [noun"})
    html = signed_in(editor).post(url("template_editor_preview", project), fields).content.decode()
    slot = re.search(r'<div id="problems-bad-1"[^>]*>(.*?)</div>', html, re.S)
    assert slot is not None and "Bad grammar, row 2: the YAML of this position is not valid" in slot.group(1)
    assert "Pairs appear here once the marked fields are fixed." in html


def test_preview_never_fails_on_an_engine_error(
    signed_in: SignedIn, editor: object, project: object, animals: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("mpp_studio.paradigms.services.editor.project_template_check", broken)
    response = signed_in(editor).post(url("template_editor_preview", project), fields_of(DET_TEMPLATE))
    assert response.status_code == 200
    assert "The generator failed unexpectedly (RuntimeError: boom)" in response.content.decode()


def test_preview_refuses_a_bad_seed_in_words(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    html = (
        signed_in(editor)
        .post(url("template_editor_preview", project), fields_of(DET_TEMPLATE, seed="-3"))
        .content.decode()
    )
    assert "The seed must be a whole number" in html


# -- the editor's buttons ---------------------------------------------------------------------------


def test_table_endpoint_adds_a_row_and_asks_for_a_new_preview(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    response = signed_in(editor).post(
        url("template_editor_table", project), fields_of(DET_TEMPLATE, action="add good")
    )
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<div id="editor-body"')
    assert 'id="row-good-4"' in html and 'id="row-good-5"' not in html
    assert 'hx-trigger="load"' in html  # the preview follows the new form


def test_table_endpoint_switches_to_yaml_and_back(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    client = signed_in(editor)
    html = client.post(
        url("template_editor_table", project), fields_of(DET_TEMPLATE, action="to-yaml")
    ).content.decode()
    assert 'name="mode" value="yaml"' in html
    assert "  - {id: det, matched: noun, on: number, lexical: {pos: DT}}" in html
    html = client.post(
        url("template_editor_table", project),
        {"mode": "yaml", "yaml_text": DET_TEMPLATE, "action": "to-table"},
    ).content.decode()
    assert 'name="mode" value="table"' in html and 'id="row-bad-3"' in html
    html = client.post(
        url("template_editor_table", project),
        {"mode": "yaml", "yaml_text": "uid: [x\n", "action": "to-table"},
    ).content.decode()
    assert (
        'name="mode" value="yaml"' in html
        and "cannot be shown in the table until it is fixed (line 1: this is not valid YAML: the [ opened"
        in html
    )


def test_editor_offers_the_vocabularys_features_values_forms_and_phrases(
    signed_in: SignedIn, editor: object, project: object, animals: object, place_phrase: object
) -> None:
    html = signed_in(editor).get(url("template_new", project)).content.decode()
    assert '<option value="animals" selected>animals</option>' in html
    assert '<option value="number">number</option>' in html  # a feature of the schema
    assert re.search(
        r'<datalist id="values-\d+-number"><option value="sg"><option value="pl"></datalist>', html
    )
    assert "VBZ — verb, present, 3rd person singular" in html
    html = (
        signed_in(editor)
        .post(url("template_editor_table", project), fields_of(DET_TEMPLATE, **{"good-3-type": "phrase"}))
        .content.decode()
    )
    assert '<option value="Place">Place</option>' in html
    # Positions a row can agree with, and, in the bad grammar, positions named bad.x.
    assert '<option value="noun" selected>2 · noun — Lexical</option>' in html
    assert '<option value="bad.det_bad">bad.det_bad — bad position 1</option>' in html
    # Phrases defined in the template itself are offered too, with the ids inside them.
    fields = fields_of(DET_TEMPLATE, **{"good-3-type": "phrase", "good-3-phrase": "Own", "good-3-id": "own"})
    fields["extra"] = "phrases:\n  Own:\n    - [{direct: a}, {id: head, lexical: {pos: NN}}]\n"
    html = signed_in(editor).post(url("template_editor_table", project), fields).content.decode()
    assert '<option value="Own" selected>Own (in this template)</option>' in html
    assert '<option value="own.head">own.head — the head inside position 4</option>' in html


def test_editor_without_javascript_handles_buttons_by_drawing_the_page(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    response = signed_in(editor).post(
        url("template_new", project), fields_of(DET_TEMPLATE, action="add-feat good 2")
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html
    assert 'name="good-2-feat-1-name"' in html and 'name="good-2-feat-2-name"' not in html
    assert html.count('<tr class="pair">') == 10  # the preview is drawn too
    assert not Template.objects.exists()


# -- saving -----------------------------------------------------------------------------------------


def test_save_creates_a_template_and_goes_to_its_page(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    client = signed_in(editor)
    response = client.post(url("template_new", project), fields_of(DET_TEMPLATE, action="save", note="first"))
    template = Template.objects.get(project=project)
    assert response.status_code == 302 and response["Location"] == url(
        "template_detail", project, template.pk
    )
    version = template.versions.get()
    assert version.number == 1 and version.note == "first" and version.created_by == editor
    assert version.source_text.startswith("uid: det_noun_agreement\n") and version.problems == []
    page = client.get(response["Location"]).content.decode()
    assert "Saved version 1 of det_noun_agreement." in page
    assert page.count('<tr class="pair">') == 10


def test_saving_again_adds_a_version_and_changes_none(
    signed_in: SignedIn, editor: object, project: object, det_template: Template
) -> None:
    first = det_template.versions.get()
    client = signed_in(editor)
    fields = fields_of(DET_TEMPLATE, action="save", note="plural only")
    fields["good-3-words"] = ". | !"
    response = client.post(url("template_edit", project, det_template.pk), fields)
    assert response.status_code == 302
    versions = list(det_template.versions.order_by("number"))
    assert [v.number for v in versions] == [1, 2]
    assert versions[0].source_text == first.source_text == DET_TEMPLATE  # never overwritten
    assert (
        "direct: [., " in versions[1].source_text or '{id: stop, direct: [., "!"]}' in versions[1].source_text
    )
    # A version with problems is saved too, and says so.
    fields["good-1-feat-1-value"] = "dual"
    response = client.post(url("template_edit", project, det_template.pk), fields, follow=True)
    assert "Saved version 3 of det_noun_agreement. It has 1 problem to fix." in response.content.decode()
    assert det_template.versions.get(number=3).problems[0]["code"] == "E_UNKNOWN_VALUE"


def test_save_from_the_yaml_view_keeps_the_text_as_written(
    signed_in: SignedIn, editor: object, project: object, det_template: Template
) -> None:
    text = "# my notes\n" + DET_TEMPLATE
    signed_in(editor).post(
        url("template_edit", project, det_template.pk), {"mode": "yaml", "yaml_text": text, "action": "save"}
    )
    assert det_template.versions.get(number=2).source_text == text


def test_save_refuses_a_duplicate_uid_and_stores_nothing(
    signed_in: SignedIn, editor: object, project: object, det_template: Template
) -> None:
    response = signed_in(editor).post(url("template_new", project), fields_of(DET_TEMPLATE, action="save"))
    html = response.content.decode()
    assert response.status_code == 200
    assert (
        "Nothing was saved: This project already has a template with uid &#x27;det_noun_agreement&#x27;."
        in html
    )
    assert re.search(
        r'<div id="problems-field-uid"[^>]*><p class="inline-problem">This project already has', html
    )
    assert TemplateVersion.objects.count() == 1


def test_save_refuses_fields_that_are_not_yaml(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    fields = fields_of(DET_TEMPLATE, action="save", **{"good-0-type": "yaml", "good-0-yaml": "{id: [det"})
    response = signed_in(editor).post(url("template_new", project), fields)
    html = response.content.decode()
    assert response.status_code == 200 and "Nothing was saved" in html
    assert "Good grammar, row 1: the YAML of this position is not valid" in html
    assert not Template.objects.exists()


def test_save_needs_a_uid(signed_in: SignedIn, editor: object, project: object, animals: object) -> None:
    response = signed_in(editor).post(
        url("template_new", project), fields_of(DET_TEMPLATE, action="save", uid="")
    )
    assert response.status_code == 200 and "needs a `uid:` line" in response.content.decode()
    assert not Template.objects.exists()


def test_restore_saves_an_old_text_as_a_new_version(
    signed_in: SignedIn, editor: object, owner: object, project: object, det_template: Template
) -> None:
    template_save(
        project=project, source_text=DET_TEMPLATE.replace("pl}", "sg}"), user=owner, template=det_template
    )  # type: ignore[arg-type]
    response = signed_in(editor).post(
        url("template_version_restore", project, det_template.pk, 1), follow=True
    )
    assert "Version 1 of det_noun_agreement was saved again as version 3" in response.content.decode()
    versions = {v.number: v for v in det_template.versions.all()}
    assert versions[3].source_text == versions[1].source_text == DET_TEMPLATE
    assert versions[3].note == "Restored version 1" and "sg}" in versions[2].source_text


# -- a new uid: rename or copy; Duplicate ----------------------------------------------------------


def test_saving_with_a_new_uid_asks_rename_or_copy_and_saves_nothing(
    signed_in: SignedIn, editor: object, project: object, det_template: Template
) -> None:
    fields = fields_of(DET_TEMPLATE, action="save", uid="det_deletion")
    response = signed_in(editor).post(url("template_edit", project, det_template.pk), fields)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Nothing is saved yet." in html and 'value="save-rename"' in html and 'value="save-copy"' in html
    assert 'name="uid" id="uid" value="det_deletion"' in html  # the form comes back as it was
    assert det_template.versions.count() == 1 and Template.objects.count() == 1


def test_rename_keeps_the_versions_under_the_new_uid(
    signed_in: SignedIn, editor: object, project: object, det_template: Template
) -> None:
    fields = fields_of(DET_TEMPLATE, action="save-rename", uid="det_renamed")
    response = signed_in(editor).post(url("template_edit", project, det_template.pk), fields, follow=True)
    assert "Saved version 2 of det_renamed (renamed from det_noun_agreement)." in response.content.decode()
    det_template.refresh_from_db()
    assert det_template.uid == "det_renamed" and det_template.versions.count() == 2


def test_save_as_new_template_leaves_the_original_as_it_was(
    signed_in: SignedIn, editor: object, project: object, det_template: Template
) -> None:
    fields = fields_of(DET_TEMPLATE, action="save-copy", uid="det_deletion", note="the deletion one")
    fields["good-3-words"] = "!"
    response = signed_in(editor).post(url("template_edit", project, det_template.pk), fields, follow=True)
    page = response.content.decode()
    assert "Saved det_deletion as a new template (version 1); det_noun_agreement is unchanged." in page
    det_template.refresh_from_db()
    assert (
        det_template.uid == "det_noun_agreement" and det_template.versions.get().source_text == DET_TEMPLATE
    )
    copy = Template.objects.get(uid="det_deletion")
    assert copy.versions.get().number == 1 and '{id: stop, direct: "!"}' in copy.versions.get().source_text
    assert response.redirect_chain[-1][0] == url("template_detail", project, copy.pk)


def test_save_as_new_template_needs_a_uid_of_its_own(
    signed_in: SignedIn, editor: object, project: object, det_template: Template
) -> None:
    response = signed_in(editor).post(
        url("template_edit", project, det_template.pk), fields_of(DET_TEMPLATE, action="save-copy")
    )
    assert response.status_code == 200
    assert "already has a template with uid &#x27;det_noun_agreement&#x27;" in response.content.decode()
    assert Template.objects.count() == 1 and det_template.versions.count() == 1


def test_duplicate_copies_the_latest_version_under_a_free_uid(
    signed_in: SignedIn, editor: object, owner: object, project: object, det_template: Template
) -> None:
    text = "# notes stay\n" + DET_TEMPLATE.replace("pl}", "sg}")
    template_save(project=project, source_text=text, user=owner, template=det_template)  # type: ignore[arg-type]
    client = signed_in(editor)
    first = client.post(url("template_duplicate", project, det_template.pk), follow=True)
    second = client.post(url("template_duplicate", project, det_template.pk), follow=True)
    copies = {t.uid: t for t in Template.objects.exclude(pk=det_template.pk)}
    assert set(copies) == {"det_noun_agreement_copy", "det_noun_agreement_copy2"}
    copy = copies["det_noun_agreement_copy"]
    version = copy.versions.get()
    assert version.source_text == text.replace("uid: det_noun_agreement", "uid: det_noun_agreement_copy")
    assert version.note == "A copy of det_noun_agreement, version 2."
    assert first.redirect_chain[-1][0] == url("template_edit", project, copy.pk)
    assert "was copied as det_noun_agreement_copy" in first.content.decode()
    assert "was copied as det_noun_agreement_copy2" in second.content.decode()
    assert det_template.versions.count() == 2


# -- the list and a template's page -----------------------------------------------------------------


def test_list_groups_templates_with_badges_and_actions(
    signed_in: SignedIn,
    editor: object,
    viewer: object,
    owner: object,
    project: object,
    det_template: Template,
) -> None:
    template_save(
        project=project,
        source_text=DET_TEMPLATE.replace("det_noun_agreement", "broken").replace("pl}", "dual}"),
        user=owner,
    )  # type: ignore[arg-type]
    html = signed_in(editor).get(url("template_list", project)).content.decode()
    assert "English</span> › determiner noun agreement" in html
    assert '<span class="badge badge-ok">valid</span>' in html and "1 problem</span>" in html
    assert '<td class="capacity">32</td>' in html
    assert "These dogs run." in html and url("template_new", project) in html
    assert "Import from the library" in html  # the library helper's buttons, in block list_actions
    html = signed_in(viewer).get(url("template_list", project)).content.decode()
    assert url("template_new", project) not in html


def test_template_page_shows_yaml_problems_preview_and_versions(
    signed_in: SignedIn, viewer: object, owner: object, project: object, det_template: Template
) -> None:
    template_save(
        project=project,
        source_text=DET_TEMPLATE.replace("pl}", "dual}"),
        user=owner,
        template=det_template,
        note="oops",
    )  # type: ignore[arg-type]
    client = signed_in(viewer)
    html = client.get(url("template_detail", project, det_template.pk)).content.decode()
    assert "version 2 (latest)" in html and "1 problem" in html
    assert 'class="line problem-line" id="L9"' in html  # numbered lines, the problem's highlighted
    assert "line 9, good grammar, position 2 (noun)" in html
    assert "oops" in html and url("template_version", project, det_template.pk, 1) in html
    assert "Restore" not in html  # viewers read only
    old = client.get(url("template_version", project, det_template.pk, 1)).content.decode()
    assert "You are looking at version 1" in old and old.count('<tr class="pair">') == 10
    seeded = client.get(url("template_version", project, det_template.pk, 1) + "?seed=5").content.decode()
    assert "Seed 5." in seeded


def test_edit_opens_text_that_is_not_yaml_in_the_yaml_view(
    signed_in: SignedIn, editor: object, owner: object, project: object, det_template: Template
) -> None:
    template_save(
        project=project,
        source_text="uid: det_noun_agreement\ngood: [unclosed\n",
        user=owner,
        template=det_template,
    )  # type: ignore[arg-type]
    html = signed_in(editor).get(url("template_edit", project, det_template.pk)).content.decode()
    assert 'name="mode" value="yaml"' in html and "good: [unclosed" in html
    # Where the bracket was opened, not where the reader noticed (line 3, the end of the text).
    assert "it cannot be read as a table (line 2: this is not valid YAML: the [ opened on line 2" in html


def test_edit_of_a_hand_written_version_offers_the_text_as_written(
    signed_in: SignedIn, editor: object, project: object, det_template: Template
) -> None:
    client = signed_in(editor)
    html = client.get(url("template_edit", project, det_template.pk)).content.decode()
    assert "written by hand" in html and "?view=yaml" in html
    html = client.get(url("template_edit", project, det_template.pk) + "?view=yaml").content.decode()
    assert 'name="mode" value="yaml"' in html and "direct: &quot;.&quot;}" in html


# -- who may do what --------------------------------------------------------------------------------

PAGES = [("template_list", ()), ("template_detail", (True,)), ("template_version", (True, 1))]
EDITOR_PAGES = [("template_new", ()), ("template_edit", (True,))]
EDITOR_POSTS = [
    ("template_new", ()),
    ("template_edit", (True,)),
    ("template_editor_table", ()),
    ("template_editor_preview", ()),
    ("template_version_restore", (True, 1)),
    ("template_duplicate", (True,)),
]


def _url(name: str, project: object, template: Template, args: tuple[object, ...]) -> str:
    return url(name, project, *[template.pk if a is True else a for a in args])


@pytest.mark.parametrize(("name", "args"), PAGES + EDITOR_PAGES)
def test_pages_send_anonymous_visitors_to_sign_in(
    signed_in: SignedIn, project: object, det_template: Template, name: str, args: tuple[object, ...]
) -> None:
    response = signed_in(None).get(_url(name, project, det_template, args))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize(("name", "args"), EDITOR_POSTS)
def test_posts_send_anonymous_visitors_to_sign_in(
    signed_in: SignedIn, project: object, det_template: Template, name: str, args: tuple[object, ...]
) -> None:
    response = signed_in(None).post(
        _url(name, project, det_template, args), fields_of(DET_TEMPLATE, action="save")
    )
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert TemplateVersion.objects.count() == 1


@pytest.mark.parametrize(("name", "args"), PAGES + EDITOR_PAGES)
def test_outsiders_get_404(
    signed_in: SignedIn,
    outsider: object,
    other_project: object,
    project: object,
    det_template: Template,
    name: str,
    args: tuple[object, ...],
) -> None:
    assert signed_in(outsider).get(_url(name, project, det_template, args)).status_code == 404


@pytest.mark.parametrize(("name", "args"), EDITOR_POSTS)
def test_outsiders_cannot_post(
    signed_in: SignedIn,
    outsider: object,
    other_project: object,
    project: object,
    det_template: Template,
    name: str,
    args: tuple[object, ...],
) -> None:
    response = signed_in(outsider).post(
        _url(name, project, det_template, args), fields_of(DET_TEMPLATE, action="save")
    )
    assert response.status_code == 404 and TemplateVersion.objects.count() == 1


@pytest.mark.parametrize(("name", "args"), PAGES)
def test_viewers_read(
    signed_in: SignedIn,
    viewer: object,
    project: object,
    det_template: Template,
    name: str,
    args: tuple[object, ...],
) -> None:
    assert signed_in(viewer).get(_url(name, project, det_template, args)).status_code == 200


@pytest.mark.parametrize(("name", "args"), EDITOR_PAGES)
def test_viewers_cannot_open_the_editor(
    signed_in: SignedIn,
    viewer: object,
    project: object,
    det_template: Template,
    name: str,
    args: tuple[object, ...],
) -> None:
    assert signed_in(viewer).get(_url(name, project, det_template, args)).status_code == 403


@pytest.mark.parametrize(("name", "args"), EDITOR_POSTS)
def test_viewers_cannot_preview_save_or_restore(
    signed_in: SignedIn,
    viewer: object,
    project: object,
    det_template: Template,
    name: str,
    args: tuple[object, ...],
) -> None:
    response = signed_in(viewer).post(
        _url(name, project, det_template, args), fields_of(DET_TEMPLATE, action="save")
    )
    assert response.status_code == 403 and TemplateVersion.objects.count() == 1


@pytest.mark.parametrize("role", ["editor", "owner"])
@pytest.mark.parametrize(("name", "args"), PAGES + EDITOR_PAGES)
def test_editors_and_owners_open_every_page(
    signed_in: SignedIn,
    request: pytest.FixtureRequest,
    project: object,
    det_template: Template,
    role: str,
    name: str,
    args: tuple[object, ...],
) -> None:
    user = request.getfixturevalue(role)
    assert signed_in(user).get(_url(name, project, det_template, args)).status_code == 200


@pytest.mark.parametrize("role", ["editor", "owner"])
@pytest.mark.parametrize(
    ("name", "args", "status"),
    [
        (
            n,
            a,
            302
            if n in ("template_new", "template_edit", "template_version_restore", "template_duplicate")
            else 200,
        )
        for n, a in EDITOR_POSTS
    ],
)
def test_editors_and_owners_post(
    signed_in: SignedIn,
    request: pytest.FixtureRequest,
    project: object,
    det_template: Template,
    role: str,
    name: str,
    args: tuple[object, ...],
    status: int,
) -> None:
    user = request.getfixturevalue(role)
    fields = fields_of(DET_TEMPLATE.replace("det_noun_agreement", f"det_{role}"), action="save-rename")
    response = signed_in(user).post(_url(name, project, det_template, args), fields)
    assert response.status_code == status


def test_another_projects_template_is_not_found_here(
    signed_in: SignedIn,
    editor: object,
    outsider: object,
    project: object,
    other_project: object,
    det_template: Template,
) -> None:
    """A template id of another project, under this project's URL, is 404 for this project's members."""
    foreign = template_save(project=other_project, source_text=DET_TEMPLATE, user=outsider).template  # type: ignore[arg-type]
    client = signed_in(editor)
    for name, args in [
        ("template_detail", (foreign.pk,)),
        ("template_edit", (foreign.pk,)),
        ("template_version", (foreign.pk, 1)),
    ]:
        assert client.get(url(name, project, *args)).status_code == 404
    assert client.post(url("template_version_restore", project, foreign.pk, 1)).status_code == 404
    assert (
        client.post(
            url("template_edit", project, foreign.pk), fields_of(DET_TEMPLATE, action="save")
        ).status_code
        == 404
    )
    assert foreign.versions.count() == 1


def test_unknown_version_is_404(
    signed_in: SignedIn, viewer: object, project: object, det_template: Template
) -> None:
    assert signed_in(viewer).get(url("template_version", project, det_template.pk, 9)).status_code == 404


def test_chinese_pairs_and_fields_carry_their_language(
    signed_in: SignedIn, editor: object, project: object
) -> None:
    from mpp_studio.lexicon.engine import vocabulary_parse
    from mpp_studio.lexicon.services.vocabularies import vocabulary_create_from_lexicon
    from tests.web.conftest import ZH_CLASSIFIER_YAML, ZH_NOUNS_TSV

    lexicon = vocabulary_parse(file_name="zh_nouns.tsv", items_text=ZH_NOUNS_TSV).lexicon
    vocabulary_create_from_lexicon(project=project, lexicon=lexicon, name="zh_nouns")  # type: ignore[arg-type]
    client = signed_in(editor)
    html = client.post(
        url("template_editor_preview", project), fields_of(ZH_CLASSIFIER_YAML)
    ).content.decode()
    assert html.count('<td class="sentence good" lang="zh">一') == 10
    body = client.post(
        url("template_editor_table", project), fields_of(ZH_CLASSIFIER_YAML, action="")
    ).content.decode()
    assert (
        '<textarea name="description" id="description" rows="2" lang="zh">量词与名词搭配。</textarea>' in body
    )
    assert 'value="一" placeholder="the | a" class="words" lang="zh"' in body


@pytest.mark.parametrize(
    "junk",
    [
        {},
        {"good-0-type": "nonsense", "good-0-feat-x-name": "pos", "bad-99-type": "same", "seed": "abc"},
        {"mode": "yaml", "yaml_text": "- just\n- a list\n"},
        {"mode": "yaml", "yaml_text": "uid: x\ngood: {not: a list}\nbad: 3\n"},
        {"extra": "phrases: [1, 2]\n", "good-0-type": "phrase", "good-0-phrase": "Nope"},
        {"good-0-type": "yaml", "good-0-yaml": "[1, {a: b}]", "action": "to-yaml"},
        {"action": "down good 5"},
        {"action": "remove-feat bad 0 9", "bad-0-type": "lexical"},
    ],
)
def test_editor_endpoints_answer_any_form_without_failing(
    signed_in: SignedIn, editor: object, project: object, animals: object, junk: dict[str, str]
) -> None:
    client = signed_in(editor)
    for name in ("template_editor_table", "template_editor_preview", "template_new"):
        assert client.post(url(name, project), junk).status_code == 200, name
    assert not Template.objects.exists()


def test_saving_the_same_text_again_adds_no_version(
    signed_in: SignedIn, editor: object, project: object, det_template: Template
) -> None:
    response = signed_in(editor).post(
        url("template_edit", project, det_template.pk), fields_of(DET_TEMPLATE, action="save"), follow=True
    )
    # The table writes the canonical layout: save once, then the same form again changes nothing.
    assert det_template.versions.count() == 2
    again = signed_in(editor).post(
        url("template_edit", project, det_template.pk), fields_of(DET_TEMPLATE, action="save"), follow=True
    )
    assert "Nothing changed since version 2: no version was added." in again.content.decode()
    assert det_template.versions.count() == 2 and response.status_code == 200


def test_choosing_another_vocabulary_brings_its_language(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    from mpp_studio.lexicon.engine import vocabulary_parse
    from mpp_studio.lexicon.services.vocabularies import vocabulary_create_from_lexicon

    lexicon = vocabulary_parse(
        file_name="zh.csv", items_text="id,form,pos\nn1,书,NN\n", schema_text="language: zh\nfeatures: {}\n"
    ).lexicon
    vocabulary_create_from_lexicon(project=project, lexicon=lexicon, name="zh_words")  # type: ignore[arg-type]
    fields = fields_of(DET_TEMPLATE, vocabulary="zh_words", vocabulary_drawn="animals")
    body = signed_in(editor).post(url("template_editor_table", project), fields).content.decode()
    assert 'name="language" id="language" value="zh"' in body
    # A redraw for anything else leaves the language as typed.
    fields = fields_of(DET_TEMPLATE, vocabulary="zh_words", vocabulary_drawn="zh_words", language="en")
    body = signed_in(editor).post(url("template_editor_table", project), fields).content.decode()
    assert 'name="language" id="language" value="en"' in body


def test_the_api_root_says_where_to_start(client: Client) -> None:
    response = client.get("/api/")
    assert response.status_code == 200
    body = response.json()
    assert body["docs"].endswith("/api/docs/") and body["schema"].endswith("/api/schema/")
    assert body["projects"].endswith("/api/projects/") and body["token"].endswith("/api/token/")


def test_compare_shows_the_yaml_that_changed_and_the_pairs_of_each_version(
    signed_in: SignedIn, viewer: object, owner: object, project: object, det_template: Template
) -> None:
    template_save(
        project=project,
        source_text=DET_TEMPLATE.replace('{id: stop, direct: "."}', '{id: stop, direct: "!"}'),
        user=owner,  # type: ignore[arg-type]
        template=det_template,
        note="exclamation",
    )
    client = signed_in(viewer)
    detail = client.get(url("template_detail", project, det_template.pk)).content.decode()
    compare_url = url("template_compare", project, det_template.pk)
    assert f'href="{compare_url}?a=1&amp;b=2">Compare with 2</a>' in detail
    html = client.get(compare_url).content.decode()  # the last two versions by default
    assert "YAML: version 1 → version 2" in html
    assert '<span class="diff-line diff-removed"><span class="ln" aria-hidden="true">11</span>' in html
    assert "{id: stop, direct: &quot;.&quot;}" in html and "{id: stop, direct: &quot;!&quot;}" in html
    assert html.count('<tr class="pair">') == 20  # ten pairs of each version, one seed
    same = client.get(compare_url + "?a=2&b=2&seed=4").content.decode()
    assert "The two versions have the same text." in same and "Seed 4." in same
    unknown = client.get(compare_url + "?a=9&b=x").content.decode()
    assert "This template has no version 9 or x" in unknown


SATISFIES_TEMPLATE = """\
uid: sel
phenomenon: selection
language: en
good:
  - {id: verb, lexical: {pos: VB}}
  - {id: obj, lexical: {pos: NN}, satisfies: {verb: arg_2}}
bad:
  - {same: obj}
  - {same: verb}
"""


def test_table_shows_a_satisfies_pair_and_adds_another(
    signed_in: SignedIn, editor: object, project: object, animals: object
) -> None:
    """A position's `satisfies:` is drawn as a position choice and a column field, and the
    + restriction button adds an empty pair."""
    response = signed_in(editor).post(
        url("template_editor_table", project), fields_of(SATISFIES_TEMPLATE, action="add-sat good 1")
    )
    html = response.content.decode()
    assert response.status_code == 200
    chosen = re.search(r'<select name="good-1-sat-0-target".*?</select>', html, re.S)
    assert chosen is not None and '<option value="verb" selected>' in chosen.group(0)
    assert re.search(r'name="good-1-sat-0-column" id="good-1-sat-0-column" value="arg_2"', html)
    assert 'name="good-1-sat-1-column"' in html and 'name="good-1-sat-2-column"' not in html
