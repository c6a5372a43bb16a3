"""Spreadsheet-safe cells (vocab.csv_cells): formula starts neutralised, numbers kept, and the
vocabulary reader takes the apostrophe off again."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from formats.table import csv_text_lines
from vocab.csv_cells import restore_cell, safe_cell, safe_row
from vocab.io import read_vocabulary_text, vocabulary_to_csv_text
from vocab.lexicon import FeatureSchema, FeatureSpec, LexicalItem, Vocabulary


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
        ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("'=1", "''=1"),
        ("the cat sleeps .", "the cat sleeps ."),
        ("'tis", "'tis"),
        ("", ""),
        ("-12.5", "-12.5"),
        ("+3", "+3"),
        ("-inf", "'-inf"),
        (-3.25, -3.25),
        (7, 7),
        (None, None),
    ],
)
def test_safe_cell(value: object, written: object) -> None:
    assert safe_cell(value) == written


@given(st.text())
def test_restore_undoes_safe_cell(text: str) -> None:
    written = safe_cell(text)
    assert isinstance(written, str)
    assert restore_cell(written) == text


def test_safe_row_keeps_the_row_shape() -> None:
    assert safe_row(["=a", 1, None, "b"]) == ["'=a", 1, None, "b"]


def test_dataset_csv_export_neutralises_a_formula_sentence() -> None:
    record = {"UID": "u", "sentence_good": "=1+1", "sentence_bad": "@cmd", "critical_region": []}
    header, line = csv_text_lines([record])
    row = next(csv.DictReader(io.StringIO(header + line)))
    assert row["sentence_good"] == "'=1+1" and row["sentence_bad"] == "'@cmd"


def test_an_exported_vocabulary_with_formula_words_imports_back_unchanged() -> None:
    schema = FeatureSchema({"gloss": FeatureSpec("gloss", "text")}, multi_separator="|")
    items = [
        LexicalItem(id="w1", form="=cmd", lemma="-x", pos="NN", features={"gloss": ("@a",)}),
        LexicalItem(id="w2", form="'=q", lemma="'tis", pos="NN", features={"gloss": ("+1",)}),
    ]
    vocab = Vocabulary(items, schema, name="v", language="en")
    text = vocabulary_to_csv_text(vocab)
    assert "\nw1,'=cmd,'-x,NN,'@a\n" in text
    back = read_vocabulary_text(text, file_name="v.csv", schema=schema)
    assert back.items == vocab.items
