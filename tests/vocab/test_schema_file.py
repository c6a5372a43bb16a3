"""Schema files: the `.schema.yaml` layout, its problems named by feature and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocab.errors import E_SCHEMA, VocabularyError
from vocab.io import read_schema, schema_from_dict
from vocab.lexicon import FeatureSchema, FeatureSpec
from vocab.schema_file import load_schema, schema_text_to_schema, schema_to_yaml_text

FULL = """\
language: en
multi_separator: ";"
features:
  number: {type: category, values: [sg, pl]}
  animate: {type: bool}
  classifier: {type: category, multi: true, description: compatible classifiers}
  freq: {type: float}
  answer: {values: [yes, no, on]}
  gloss: text
"""


def test_read_schema_reads_the_documented_layout(tmp_path: Path) -> None:
    """Types, values, multi, descriptions, separator and language are read."""
    path = tmp_path / "n.schema.yaml"
    path.write_text(FULL, encoding="utf-8")
    schema, language = load_schema(path)
    assert language == "en"
    assert schema == read_schema(path)
    assert schema.multi_separator == ";"
    assert schema.features["number"] == FeatureSpec("number", "category", ("sg", "pl"))
    assert schema.features["animate"].type == "bool"
    assert schema.features["classifier"] == FeatureSpec(
        "classifier", "category", None, multi=True, description="compatible classifiers"
    )
    assert schema.features["freq"].type == "float"
    assert schema.features["gloss"].type == "text"


def test_read_schema_keeps_yes_no_on_as_text_values() -> None:
    """YAML 1.1 would turn yes/no/on into booleans; category values must stay as written."""
    schema, _ = schema_text_to_schema(FULL)
    assert schema.features["answer"].values == ("yes", "no", "on")


def test_schema_round_trips_through_yaml_text() -> None:
    """schema_to_yaml_text writes what schema_text_to_schema reads back."""
    schema, language = schema_text_to_schema(FULL)
    assert schema_text_to_schema(schema_to_yaml_text(schema, language)) == (schema, language)


def test_empty_schema_file_declares_no_features() -> None:
    """An empty file is a schema without features and with the default separator."""
    assert schema_text_to_schema("") == (FeatureSchema({}, "|"), "")


@pytest.mark.parametrize(
    ("features", "needle"),
    [
        ({"number": {"type": "catgory"}}, "type 'catgory' is not one of: category, text, bool"),
        (
            {"animate": {"type": "bool", "values": ["0", "1"]}},
            "'values' can only be declared for category or text features, not bool",
        ),
        ({"pos": {"type": "category"}}, "'pos' is a built-in column"),
        ({"number": {"valeus": ["sg"]}}, "unknown entry 'valeus'"),
        ({"number": {"values": ["sg", "sg"]}}, "value 'sg' is listed twice"),
        ({"number": {"values": "sg, pl"}}, "'values' must be a list of values"),
        ({"number": {"multi": "yes"}}, "'multi' must be true or false"),
        ({"number": ["sg", "pl"]}, "the declaration must be a mapping"),
        ({"cl": {"multi": True, "values": ["a|b"]}}, "contains the multi-value separator '|'"),
    ],
)
def test_schema_from_dict_names_the_feature(features: dict[str, object], needle: str) -> None:
    """A bad declaration is reported with the name of its feature."""
    with pytest.raises(VocabularyError) as info:
        schema_from_dict({"features": features}, file="n.schema.yaml")
    (error,) = info.value.errors
    name = next(iter(features))
    assert error.code == E_SCHEMA
    assert error.message.startswith(f"feature '{name}': ")
    assert needle in error.message
    assert str(error).startswith("n.schema.yaml")


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"featurs": {}}, "unknown entry 'featurs'"),
        ({"features": ["number"]}, "'features' must map each feature name"),
        ({"multi_separator": " "}, "'multi_separator' must be a non-blank text"),
        ({"language": 5}, "'language' must be a language code"),
        (["number"], "a schema must be a mapping"),
    ],
)
def test_schema_from_dict_reports_top_level_problems(data: object, needle: str) -> None:
    """Problems outside a feature are reported without a feature name."""
    with pytest.raises(VocabularyError) as info:
        schema_from_dict(data)
    assert any(needle in e.message for e in info.value.errors), info.value.errors


def test_schema_problems_carry_yaml_line_numbers() -> None:
    """Every bad feature is reported, each with the line of its key."""
    text = "features:\n  number: {type: catgory}\n  animate: {type: bool}\n  id: {}\n"
    with pytest.raises(VocabularyError) as info:
        schema_text_to_schema(text, file="n.schema.yaml")
    assert [(e.line, e.message.split(":")[0]) for e in info.value.errors] == [
        (2, "feature 'number'"),
        (4, "feature 'id'"),
    ]
    assert str(info.value.errors[0]).startswith("n.schema.yaml, line 2: feature 'number'")


def test_schema_yaml_syntax_error_has_line() -> None:
    """Broken YAML is reported with the line where the parser stopped."""
    with pytest.raises(VocabularyError) as info:
        schema_text_to_schema("features:\n  number: {type: category\n  animate: bool\n", file="s.yaml")
    (error,) = info.value.errors
    assert error.line is not None and error.line >= 2
    assert "not valid YAML" in error.message


def test_read_schema_reports_non_utf8_file(tmp_path: Path) -> None:
    """A schema saved in another encoding is reported with its line."""
    path = tmp_path / "s.yaml"
    path.write_bytes(b"features:\n  caf\xe9: {}\n")
    with pytest.raises(VocabularyError) as info:
        read_schema(path)
    assert info.value.errors[0].line == 2


def test_deeply_nested_schema_is_a_schema_error_with_line() -> None:
    """3,000 nested lists raised RecursionError out of the YAML composer (found by tests/fuzz)."""
    text = "language: en\nfeatures:\n  number: " + "[" * 3000 + "]" * 3000 + "\n"
    with pytest.raises(VocabularyError) as info:
        schema_text_to_schema(text, file="deep.schema.yaml")
    (error,) = info.value.errors
    assert (error.file, error.line, error.code) == ("deep.schema.yaml", 3, E_SCHEMA)
    assert "nested more than 64 levels" in error.message
