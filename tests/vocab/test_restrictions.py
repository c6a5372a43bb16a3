"""Selectional restrictions: parsed in DNF, evaluated against items, checked where a file is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocab import errors as E
from vocab.cli import EXIT_BAD_INPUT, EXIT_OK, main
from vocab.errors import VocabularyError
from vocab.io import read_vocabulary_text
from vocab.lexicon import FeatureSchema, FeatureSpec, FeatureValueError, Vocabulary, make_item
from vocab.restrictions import Restriction, RestrictionError, parse_restriction, satisfying_items
from vocab.schema_file import schema_from_dict

SCHEMA = FeatureSchema(
    {
        "animate": FeatureSpec("animate", type="bool"),
        "sg": FeatureSpec("sg", type="bool"),
        "institution": FeatureSpec("institution", type="bool"),
        "arg_2": FeatureSpec("arg_2", type="restriction"),
    }
)


def _vocabulary() -> Vocabulary:
    rows = {
        "dog": {"animate": "1", "sg": "1"},
        "dogs": {"animate": "1", "sg": "0"},
        "bank": {"institution": "1", "sg": "1"},
        "plate": {"animate": "0", "sg": "1"},
    }
    items = [make_item(id=w, form=w, features=f, schema=SCHEMA) for w, f in rows.items()]
    return Vocabulary(items, SCHEMA)


def test_parse_restriction_reads_alternatives_and_conjunctions() -> None:
    """`;` separates alternatives, `^` joins conditions, spaces around parts are dropped."""
    parsed = parse_restriction(" animate=1^sg=1 ; institution=1")
    assert parsed.alternatives == ((("animate", "1"), ("sg", "1")), (("institution", "1"),))
    assert parsed.text == "animate=1^sg=1 ; institution=1"
    assert parsed.features == {"animate", "sg", "institution"}


def test_parse_restriction_of_blank_text_has_no_alternatives() -> None:
    """A blank restriction restricts nothing."""
    assert parse_restriction("  ") == Restriction("", ())


@pytest.mark.parametrize("text", ["animate", "animate=1;", "=1", "a=1^^b=1", "a=1=2", ";a=1"])
def test_parse_restriction_refuses_what_is_not_dnf(text: str) -> None:
    """Every alternative must be conditions feature=value joined by ^."""
    with pytest.raises(RestrictionError):
        parse_restriction(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("animate=1", {"dog", "dogs"}),
        ("animate=1^sg=1", {"dog"}),
        ("animate=1^sg=1;institution=1", {"dog", "bank"}),
        ("animate=yes^sg=true", {"dog"}),  # compared in the vocabulary's spelling of a bool
        ("animate=0", {"plate"}),  # an item without the feature satisfies no condition on it
        ("form=bank;form=plate", {"bank", "plate"}),  # reserved columns can be named
        ("colour=red", set()),
        ("sg=1^animate=", {"bank"}),  # an empty value: the item has no value for the feature
        ("animate=maybe", set()),
    ],
)
def test_satisfying_items_are_those_meeting_one_alternative(text: str, expected: set[str]) -> None:
    """The items satisfying a restriction are those meeting every condition of an alternative."""
    vocabulary = _vocabulary()
    found = satisfying_items(parse_restriction(text), vocabulary)
    assert found is not None
    assert {vocabulary.items[i].id for i in found} == expected


def test_satisfying_items_of_a_blank_restriction_is_none() -> None:
    """A blank restriction is met by every item (None rather than a set of all)."""
    assert satisfying_items(parse_restriction(""), _vocabulary()) is None


def test_restriction_feature_keeps_the_text_and_refuses_a_malformed_one() -> None:
    """A `restriction` feature stores its trimmed text and refuses text that is not DNF."""
    spec = FeatureSpec("arg_2", type="restriction")
    assert spec.normalize(" animate=1;institution=1 ") == "animate=1;institution=1"
    with pytest.raises(FeatureValueError):
        spec.normalize("animate")


def test_schema_file_declares_a_restriction_feature() -> None:
    """`type: restriction` is a feature type of the schema file."""
    schema = schema_from_dict({"features": {"arg_1": {"type": "restriction"}}})
    spec = schema.spec("arg_1")
    assert spec is not None and spec.type == "restriction"


def test_reading_a_table_reports_a_malformed_restriction_by_line_and_column() -> None:
    """A restriction cell that is not DNF is an E_VALUE of its row and column."""
    schema = schema_from_dict({"features": {"animate": {"type": "bool"}, "arg_2": {"type": "restriction"}}})
    text = "form,animate,arg_2\ndog,1,\nate,,animate=1\nbothered,,animate^sg=1\n"
    with pytest.raises(VocabularyError) as caught:
        read_vocabulary_text(text, file_name="words.csv", schema=schema)
    assert [(e.line, e.column, e.code) for e in caught.value.errors] == [(4, "arg_2", E.E_VALUE)]


def test_vocab_check_names_the_row_and_column_of_a_malformed_restriction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`mpp vocab check` refuses a file with a restriction that is not DNF, naming where it is,
    and summarises a good restriction column."""
    (tmp_path / "verbs.schema.yaml").write_text("features:\n  arg_2: {type: restriction}\n", encoding="utf-8")
    path = tmp_path / "verbs.csv"
    path.write_text("form,arg_2\nate,edible=1\nsaw,\n", encoding="utf-8")
    assert main(["vocab", "check", str(path)]) == EXIT_OK
    assert "arg_2 (restriction): 1 distinct values; blank in 1 item" in capsys.readouterr().out
    path.write_text("form,arg_2\nate,edible=1\nsaw,animate;sg=1\n", encoding="utf-8")
    assert main(["vocab", "check", str(path)]) == EXIT_BAD_INPUT
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("verbs.csv, line 3, column 'arg_2': ")
