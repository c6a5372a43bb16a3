"""The editor's form fields: read into a state, written as a document, errors named by row and field."""

from pathlib import Path

import pytest
from django.conf import settings
from django.http import QueryDict

from generator.document import document_from_text, document_to_text
from mpp_studio.paradigms.editor_actions import state_after_action, state_apply, state_settle
from mpp_studio.paradigms.forms.editor import (
    EditorState,
    FeatureRow,
    PositionRow,
    document_from_state,
    follow_renames,
    position_from_row,
    row_from_position,
    source_text_from_state,
    split_alternatives,
    state_from_document,
    state_from_post,
    state_to_fields,
)
from tests.web.paradigms.editor_texts import RENAME_TEMPLATE

FORM = {
    "uid": "sv",
    "phenomenon": "subject_verb_agreement",
    "language": "en",
    "vocabulary": "animals",
    "description": "Line one\r\nline two",
    "example_good": "The dog runs.",
    "opt-max_item_reuse": "40",
    "good-0-type": "direct",
    "good-0-words": "the | a",
    "good-1-type": "lexical",
    "good-1-id": "subj",
    "good-1-feat-0-name": "pos",
    "good-1-feat-0-value": "NN",
    "good-1-feat-1-name": "number",
    "good-1-feat-1-value": "sg",
    "good-1-feat-2-name": "",
    "good-1-feat-2-value": "",
    "good-1-uncapped": "true",
    "good-2-type": "matched",
    "good-2-id": "verb",
    "good-2-target": "subj",
    "good-2-on": "number",
    "good-2-feat-0-name": "pos",
    "good-2-feat-0-value": "VB",
    "good-2-form": "VBZ",
    "good-2-not-0-name": "lemma",
    "good-2-not-0-value": "be | have",
    "bad-0-type": "same",
    "bad-0-target": "1",
    "bad-1-type": "same",
    "bad-1-target": "subj",
    "bad-2-type": "same",
    "bad-2-target": "verb",
    "bad-2-form": "VBP",
    "bad-3-type": "phrase",
    "bad-3-phrase": "Place",
    "bad-3-where-0-inner": "head",
    "bad-3-where-0-name": "number",
    "bad-3-where-0-value": "pl",
    "bad-4-type": "delete",
    "bad-4-target": "",
    "mode": "table",
    "seed": "7",
    "note": "first",
}


def test_state_from_post_reads_every_field() -> None:
    state = state_from_post(QueryDict(mutable=True) | FORM)
    assert state.meta["uid"] == "sv" and state.meta["description"] == "Line one\nline two"
    assert state.options["max_item_reuse"] == "40" and state.seed == "7" and state.note == "first"
    assert [row.type for row in state.good] == ["direct", "lexical", "matched"]
    assert [(f.name, f.value) for f in state.good[1].features] == [("pos", "NN"), ("number", "sg"), ("", "")]
    assert state.good[1].uncapped and not state.good[0].uncapped
    assert state.bad[3].where[0].inner == "head"


def test_document_from_state_writes_each_rule() -> None:
    document, errors = document_from_state(state_from_post(QueryDict(mutable=True) | FORM))
    assert errors == []
    assert document["options"] == {"max_item_reuse": "40"}
    assert document["example"] == {"good": "The dog runs."}
    assert document["good"] == [
        {"direct": ["the", "a"]},
        {"id": "subj", "lexical": {"pos": "NN", "number": "sg"}, "uncapped": "true"},
        {
            "id": "verb",
            "matched": "subj",
            "on": "number",
            "lexical": {"pos": "VB"},
            "form": "VBZ",
            "not": {"lemma": ["be", "have"]},
        },
    ]
    assert document["bad"] == [
        {"same": "1"},
        {"same": "subj"},
        {"same": "verb", "form": "VBP"},
        {"phrase": "Place", "where": {"head": {"number": "pl"}}},
        {"delete": None},  # the engine names the missing position at bad position 5
    ]


def test_source_text_from_state_is_canonical_yaml() -> None:
    text, errors = source_text_from_state(state_from_post(QueryDict(mutable=True) | FORM))
    assert errors == []
    assert (
        "  - {id: verb, matched: subj, on: number, lexical: {pos: VB}, form: VBZ, not: {lemma: [be, have]}}\n"
        in text
    )
    assert "description: |-\n  Line one\n  line two\n" in text


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        (
            {"good-0-type": "lexical", "good-0-feat-0-name": "", "good-0-feat-0-value": "pl"},
            "good-0-feat-0-name",
            "Good grammar, row 1, features: the value 'pl' has no feature",
        ),
        (
            {
                "good-0-type": "lexical",
                "good-0-feat-0-name": "number",
                "good-0-feat-0-value": "sg",
                "good-0-feat-1-name": "number",
                "good-0-feat-1-value": "pl",
            },
            "good-0-feat-1-name",
            "Good grammar, row 1, features: the feature 'number' is given twice",
        ),
        (
            {"good-0-type": "direct", "good-0-words": "a", "bad-0-type": "yaml", "bad-0-yaml": "{same: [1"},
            "bad-0-yaml",
            "Bad grammar, row 1: the YAML of this position is not valid",
        ),
        (
            {"bad-0-type": "yaml", "bad-0-yaml": "  "},
            "bad-0-yaml",
            "Bad grammar, row 1: write the position as YAML",
        ),
        (
            {"good-0-type": "same", "good-0-target": "x"},
            "good-0-type",
            "Good grammar, row 1: 'Same' is not a rule type of the good grammar",
        ),
        (
            {
                "good-0-type": "phrase",
                "good-0-phrase": "NP",
                "good-0-where-0-inner": "",
                "good-0-where-0-name": "number",
            },
            "good-0-where-0-inner",
            "Good grammar, row 1, constraints: choose the inner position",
        ),
        ({"extra": "notes: [unclosed\n"}, "extra", "Other fields, line 1: this is not valid YAML"),
        ({"extra": "uid: other\n"}, "extra", "Other fields: 'uid' has its own place in the form"),
    ],
)
def test_document_from_state_names_the_row_and_field_of_each_error(
    fields: dict[str, str], field: str, words: str
) -> None:
    _, errors = document_from_state(state_from_post(QueryDict(mutable=True) | fields))
    assert [e.field for e in errors] == [field]
    assert errors[0].message.startswith(words), errors[0].message
    if field.startswith(("good-", "bad-")):
        assert errors[0].row == 1 and errors[0].grammar == field.split("-")[0]


def test_split_alternatives() -> None:
    assert split_alternatives(" sg | pl |") == ["sg", "pl"]
    assert split_alternatives("NN") == "NN"
    assert split_alternatives("  ") is None


@pytest.mark.parametrize(
    ("position", "kind"),
    [
        ({"id": "subj", "lexical": {"pos": "NN", "number": ["sg", "pl"]}, "form": "NNS"}, "lexical"),
        ({"direct": ["a", "the"]}, "direct"),
        ({"id": "cl", "matched": "noun", "on": "classifier", "lexical": {"pos": "M"}}, "matched"),
        ({"mismatched": "subj.head", "on": ["number", "person"]}, "mismatched"),
        ({"id": "subj", "phrase": "NP", "where": {"head": {"number": "pl"}}}, "phrase"),
        ({"same": "verb", "form": "VBZ"}, "same"),
        ({"copy": "aux"}, "copy"),
        ({"move": "obj"}, "move"),
        ({"delete": "obj"}, "delete"),
        ({"id": "obj", "lexical": {"noun": "1"}, "satisfies": {"verb": "arg_2"}}, "lexical"),
        (
            {"matched": "subj", "on": "number", "lexical": {"pos": "VB"}, "satisfies": {"obj": "arg_9"}},
            "matched",
        ),
        ({"lexical": {"pos": "DT"}, "uncapped": "yes"}, "lexical"),
        # What the fields cannot say exactly stays a line of YAML.
        ({"id": "verb", "lexical": {"pos": "VB"}, "matched": {"subj": "number", "obj": "animate"}}, "yaml"),
        ({"direct": "a | b"}, "yaml"),
        ({"direct": " padded"}, "yaml"),
        ({"lexical": {"pos": "NN"}, "note": "why"}, "yaml"),
        ({"matched": "x", "mismatched": "y"}, "yaml"),
        ("bare word", "yaml"),
        (None, "yaml"),
    ],
)
def test_row_from_position_shows_a_position_without_changing_it(position: object, kind: str) -> None:
    grammar = "bad" if kind in ("same", "copy", "move", "delete") else "good"
    row = row_from_position(position, grammar)
    assert row.type == kind
    state = EditorState()
    state.rows(grammar).append(row)
    document, errors = document_from_state(state)
    assert errors == []
    expected = position
    if isinstance(position, dict) and position.get("uncapped") == "yes":
        expected = {**position, "uncapped": "true"}  # the checkbox writes one spelling
    assert document[grammar] == [expected]


SHIPPED = sorted(
    path
    for path in Path(settings.GRAMMAR_LIBRARY_DIR).rglob("*.yaml")
    if "uid:" in path.read_text(encoding="utf-8")
)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_templates_survive_the_table(path: Path) -> None:
    """Shown in the table and written back, a shipped template is the same document."""
    document = document_from_text(path.read_text(encoding="utf-8"))
    state = state_settle(state_from_document(document))
    back, errors = document_from_state(state)
    assert errors == [] and back == document


def test_state_from_document_puts_other_fields_in_the_extra_box() -> None:
    document = document_from_text(
        "uid: x\nphrase_files: [a.yaml]\nnotes: keep me\n"
        "phrases:\n  NP:\n    - [{direct: the}]\ngood: []\nbad: []\n"
    )
    state = state_from_document(document)
    assert document_from_text(state.extra) == {
        "phrase_files": ["a.yaml"],
        "notes": "keep me",
        "phrases": {"NP": [[{"direct": "the"}]]},
    }
    assert document_from_state(state)[0] == document


def rows(state: EditorState, grammar: str) -> list[tuple[str, str, str]]:
    return [(r.type, r.id, r.target) for r in state.rows(grammar)]


def built() -> EditorState:
    state = EditorState()
    state.good = [
        PositionRow(type="direct", words="the"),
        PositionRow(type="lexical", id="subj"),
        PositionRow(type="lexical"),
    ]
    state.bad = [
        PositionRow(type="same", target="1"),
        PositionRow(type="same", target="subj"),
        PositionRow(type="same", target="3"),
    ]
    return state


def test_adding_removing_and_moving_rows_follows_references_by_number() -> None:
    state = state_apply(built(), "down good 0")  # "the" becomes position 2
    assert [r.type for r in state.good] == ["lexical", "direct", "lexical"]
    assert rows(state, "bad") == [("same", "", "2"), ("same", "", "subj"), ("same", "", "3")]
    state = state_apply(state, "up good 2")
    assert rows(state, "bad") == [("same", "", "3"), ("same", "", "subj"), ("same", "", "2")]
    state = state_apply(state, "remove bad 0")
    assert len(state.bad) == 2
    state = state_apply(state, "add bad")
    assert state.bad[-1].type == "same"
    state = state_apply(state, "add good")
    assert state.good[-1].type == "lexical" and len(state.good) == 4
    # Out of range or unknown: nothing changes.
    for action in ("up good 0", "down good 3", "remove good 9", "explode good 1", "add ugly", ""):
        assert rows(state_apply(state, action), "good") == rows(state, "good")


def test_feature_pairs_are_added_and_removed() -> None:
    state = state_apply(built(), "add-feat good 1")
    state = state_apply(state, "add-not good 1")
    state = state_apply(state, "add-where good 1")
    row = state.good[1]
    assert len(row.features) == 1 and len(row.exclusions) == 1 and len(row.where) == 1
    state = state_apply(state, "remove-feat good 1 0")
    assert state.good[1].features == []


def test_copy_the_good_sentence_makes_one_same_per_position() -> None:
    state = state_apply(built(), "bad-from-good")
    assert rows(state, "bad") == [("same", "", "1"), ("same", "", "subj"), ("same", "", "3")]


def test_changing_a_rule_to_yaml_and_back_keeps_the_position() -> None:
    state = built()
    state.good[1].was = "lexical"
    state.good[1].features = [FeatureRow("pos", "NN")]
    state.good[1].type = "yaml"
    state = state_settle(state)
    assert state.good[1].yaml == "{id: subj, lexical: {pos: NN}}"
    state.good[1].yaml = "{id: subj, lexical: {pos: NN, number: pl}}"
    state.good[1].type = "lexical"
    state = state_settle(state)
    assert [(f.name, f.value) for f in state.good[1].features] == [("pos", "NN"), ("number", "pl")]
    assert state.good[1].was == "lexical"


def test_switching_to_yaml_and_back() -> None:
    state = state_from_post(QueryDict(mutable=True) | FORM)
    yaml_state, errors = state_after_action(state, "to-yaml")
    assert errors == [] and yaml_state.mode == "yaml" and yaml_state.seed == "7"
    document, _ = document_from_state(state)
    assert yaml_state.yaml_text == document_to_text(document)
    table, errors = state_after_action(yaml_state, "to-table")
    assert errors == [] and table.mode == "table"
    assert document_from_state(table)[0] == document


def test_switching_to_the_table_with_broken_yaml_stays_and_names_the_line() -> None:
    state = EditorState(mode="yaml", yaml_text="uid: x\ngood:\n  - {direct: [a\n")
    after, errors = state_after_action(state, "to-table")
    assert after.mode == "yaml"
    [error] = errors
    assert error.field == "yaml_text" and error.line is not None
    assert f"line {error.line}" in error.message


def test_switching_to_yaml_with_a_bad_field_stays_in_the_table() -> None:
    state = state_from_post(QueryDict(mutable=True) | {"bad-0-type": "yaml", "bad-0-yaml": "{same: [1"})
    after, errors = state_after_action(state, "to-yaml")
    assert after.mode == "table" and errors[0].field == "bad-0-yaml"


def _posted(state: EditorState) -> QueryDict:
    data = QueryDict(mutable=True)
    for name, value in state_to_fields(state).items():
        data[name] = value
    return data


def test_renaming_a_position_takes_every_reference_along() -> None:
    state = state_from_document(document_from_text(RENAME_TEMPLATE))
    assert state.bad[0].type == "yaml"  # a mapping after `mismatched` only the YAML row can show
    data = _posted(state)
    data["good-1-id"] = "subject"  # noun
    data["good-3-id"] = "prep"  # was named by its number, 4
    data["good-4-id"] = "location"  # place, the phrase
    renamed = state_from_post(data)
    document, errors = document_from_state(renamed)
    assert errors == []
    assert document["good"][0]["matched"] == "subject"
    assert document["good"][5]["matched"] == "location.head"  # a path through the phrase
    assert document["bad"][0] == {
        "id": "det_bad",
        "mismatched": {"subject": "number"},
        "lexical": {"pos": "DT"},
    }
    assert [document["bad"][i] for i in (2, 3, 4)] == [
        {"same": "verb", "form": "VBZ"},
        {"delete": "prep"},
        {"same": "location"},
    ]
    assert document["bad"][5]["matched"] == "bad.noun_bad"  # a bad position of its own
    assert [row.drawn_id for row in renamed.good] == ["det", "subject", "verb", "prep", "location", "det2"]


def test_a_bad_position_renamed_takes_its_bad_references_along() -> None:
    state = state_from_document(document_from_text(RENAME_TEMPLATE))
    data = _posted(state)
    data["bad-5-id"] = "det3_bad"  # nothing names it: nothing changes
    data["bad-1-id"] = "noun2_bad"
    document, errors = document_from_state(state_from_post(data))
    assert errors == []
    assert document["bad"][5]["matched"] == "bad.noun2_bad"
    assert document["bad"][5]["id"] == "det3_bad"
    assert document["good"][0]["matched"] == "noun"  # a good reference is another position


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"good-1-id": "verb"}, "the new name is taken by another row"),
        ({"good-1-id": "verb", "good-2-id": "noun"}, "two rows swap names"),
    ],
)
def test_an_ambiguous_rename_moves_no_reference(changes: dict[str, str], why: str) -> None:
    state = state_from_document(document_from_text(RENAME_TEMPLATE))
    data = _posted(state)
    data.update(changes)
    document, _ = document_from_state(state_from_post(data))
    assert document["good"][0]["matched"] == "noun", why


def test_clearing_an_id_leaves_references_by_the_number() -> None:
    state = state_from_document(document_from_text(RENAME_TEMPLATE))
    data = _posted(state)
    data["good-1-id"] = ""
    document, _ = document_from_state(state_from_post(data))
    assert document["good"][0]["matched"] == "2"
    assert document["bad"][0]["mismatched"] == {"2": "number"}


def test_a_form_without_the_drawn_ids_renames_nothing() -> None:
    """A post that does not say what the rows were drawn with (an old page) is taken as written."""
    state = state_from_document(document_from_text(RENAME_TEMPLATE))
    data = _posted(state)
    for name in [name for name in data if name.endswith("-drawn")]:
        del data[name]
    data["good-1-id"] = "subject"
    document, _ = document_from_state(state_from_post(data))
    assert document["good"][0]["matched"] == "noun"


def test_blimp_fields_have_their_place_in_the_table() -> None:
    document = document_from_text(
        "uid: x\nblimp: {field: syntax, one_prefix_method: true}\ngood: []\nbad: []\n"
    )
    state = state_from_document(document)
    assert state.blimp == {
        "field": "syntax",
        "linguistics_term": "",
        "one_prefix_method": "true",
        "two_prefix_method": "",
    }
    assert state.extra == ""
    assert document_from_state(state) == (document, [])
    posted = state_from_post(
        QueryDict("uid=x&blimp-linguistics_term=+anaphor_agreement+&blimp-two_prefix_method=on")
    )
    assert document_from_state(posted)[0]["blimp"] == {
        "linguistics_term": "anaphor_agreement",
        "two_prefix_method": "true",
    }


def test_a_blimp_mapping_the_table_cannot_show_stays_as_written() -> None:
    kept = document_from_text("uid: x\nblimp: {one_prefix_method: false}\ngood: []\nbad: []\n")
    state = state_from_document(kept)
    assert state.blimp["one_prefix_method"] == "" and "one_prefix_method" in state.extra
    assert document_from_state(state) == (kept, [])
    state.blimp["field"] = "syntax"  # and the same field in the table: the box must give way
    [error] = document_from_state(state)[1]
    assert error.field == "extra" and "'blimp'" in error.message


def test_one_row_agrees_with_a_position_and_differs_from_one() -> None:
    """Keep gender, break number, in one position: a matched row with "and differs from"."""
    position = document_from_text(
        "good:\n  - {id: adj, lexical: {pos: JJ}, matched: {noun: gender}, mismatched: {noun: number}}\n"
    )["good"][0]
    row = row_from_position(position, "good")
    assert (row.type, row.target, row.on, row.also, row.also_on) == (
        "matched",
        "noun",
        "gender",
        "noun",
        "number",
    )
    assert position_from_row(row, "good", 1) == (position, [])
    # Typed in the table, it is written in the mapping form the engine needs.
    row = PositionRow(
        type="mismatched", id="v", target="subj", on="number", also="subj", also_on="person | gender"
    )
    written, errors = position_from_row(row, "good", 1)
    assert errors == []
    assert written["mismatched"] == {"subj": "number"} and written["matched"] == {
        "subj": ["person", "gender"]
    }
    assert "on" not in written
    # Two positions on one side, or an `on` beside them: shown as YAML, as written.
    several = {"id": "x", "matched": {"a": "number", "b": "gender"}, "mismatched": {"c": "case"}}
    assert row_from_position(several, "good").type == "yaml"


def test_renaming_a_position_follows_into_and_differs_from() -> None:
    state = EditorState()
    state.good = [
        PositionRow(type="lexical", id="noun", drawn_id="noun"),
        PositionRow(
            type="matched",
            id="adj",
            drawn_id="adj",
            target="noun",
            on="gender",
            also="noun",
            also_on="number",
        ),
    ]
    state.good[0].id = "head"
    follow_renames(state)
    assert (state.good[1].target, state.good[1].also) == ("head", "head")


SATISFIES_FORM = {
    "uid": "sel",
    "phenomenon": "selection",
    "language": "en",
    "good-0-type": "lexical",
    "good-0-id": "verb",
    "good-0-feat-0-name": "verb",
    "good-0-feat-0-value": "1",
    "good-1-type": "lexical",
    "good-1-id": "obj",
    "good-1-feat-0-name": "noun",
    "good-1-feat-0-value": "1",
    "good-1-sat-0-target": "verb",
    "good-1-sat-0-column": "arg_2",
    "good-1-sat-1-target": "",
    "good-1-sat-1-column": "",
    "bad-0-type": "same",
    "bad-0-target": "obj",
    "mode": "table",
}


def test_satisfies_fields_round_trip_through_yaml() -> None:
    """A Satisfies pair (position + column) is written as `satisfies:` in the YAML, and the YAML
    shown in the table gives back the same fields."""
    state = state_from_post(QueryDict(mutable=True) | SATISFIES_FORM)
    text, errors = source_text_from_state(state)
    assert errors == []
    assert '  - {id: obj, lexical: {noun: "1"}, satisfies: {verb: arg_2}}\n' in text
    shown = state_settle(state_from_document(document_from_text(text)))
    assert shown.good[1].type == "lexical"
    assert [(s.target, s.column) for s in shown.good[1].satisfies] == [("verb", "arg_2")]
    assert state_to_fields(shown)["good-1-sat-0-column"] == "arg_2"
    assert document_from_state(shown)[0] == document_from_text(text)


@pytest.mark.parametrize(
    ("target", "column", "field"),
    [("verb", "", "good-1-sat-0-column"), ("", "arg_2", "good-1-sat-0-target")],
)
def test_a_satisfies_pair_missing_half_names_its_field(target: str, column: str, field: str) -> None:
    """A Satisfies pair with only a position or only a column is an error of the empty field."""
    form = {**SATISFIES_FORM, "good-1-sat-0-target": target, "good-1-sat-0-column": column}
    _, errors = document_from_state(state_from_post(QueryDict(mutable=True) | form))
    assert [(e.field, e.row) for e in errors] == [(field, 2)]


def test_satisfies_pairs_are_added_removed_and_follow_renames_and_moves() -> None:
    """The + restriction and ✕ buttons add and remove pairs; a renamed or moved position takes
    the pairs naming it along."""
    state = state_apply(state_from_post(QueryDict(mutable=True) | SATISFIES_FORM), "add-sat good 1")
    assert len(state.good[1].satisfies) == 3
    state = state_apply(state, "remove-sat good 1 2")
    state = state_apply(state, "remove-sat good 1 1")
    assert [(s.target, s.column) for s in state.good[1].satisfies] == [("verb", "arg_2")]
    renamed = {**SATISFIES_FORM, "good-0-drawn": "verb", "good-0-id": "predicate"}
    state = state_from_post(QueryDict(mutable=True) | renamed)
    assert state.good[1].satisfies[0].target == "predicate"
    by_number = {**SATISFIES_FORM, "good-0-id": "", "good-1-sat-0-target": "1"}
    state = state_apply(state_from_post(QueryDict(mutable=True) | by_number), "down good 0")
    assert state.good[0].satisfies[0].target == "2"


@pytest.mark.parametrize("mode", ["characters", "words"])
def test_equal_length_option_goes_from_the_form_to_the_document_and_back(mode: str) -> None:
    """The Table's equal-length select becomes `options: {equal_length: ...}` and a document with
    it fills the select again (issue 17)."""
    state = state_from_post(QueryDict(mutable=True) | {**FORM, "opt-equal_length": mode})
    document, errors = document_from_state(state)
    assert errors == []
    assert document["options"] == {"max_item_reuse": "40", "equal_length": mode}
    text, _ = source_text_from_state(state)
    assert f"options:\n  max_item_reuse: 40\n  equal_length: {mode}\n" in text
    shown = state_from_document(document_from_text(text))
    assert shown.options["equal_length"] == mode and shown.extra == ""
    assert state_to_fields(shown)["opt-equal_length"] == mode


def test_equal_length_left_off_writes_no_option() -> None:
    """The select's default (empty) writes nothing."""
    document, _ = document_from_state(
        state_from_post(QueryDict(mutable=True) | {**FORM, "opt-equal_length": ""})
    )
    assert "equal_length" not in document["options"]
