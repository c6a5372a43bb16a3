"""Every kind of problem in a vocabulary table is reported with its file, line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocab import errors as E
from vocab.errors import RowError, VocabularyError
from vocab.io import read_vocabulary, read_vocabulary_bytes, read_vocabulary_text
from vocab.schema_file import schema_from_dict

SCHEMA = schema_from_dict(
    {
        "features": {
            "number": {"type": "category", "values": ["sg", "pl"]},
            "animate": {"type": "bool"},
            "person": {"type": "int"},
            "freq": {"type": "float"},
            "classifier": {"type": "category", "multi": True},
        }
    }
)
HEADER = "form,pos,number,animate,person,freq,classifier\n"


def _only_error(text: str, *, file_name: str = "nouns.csv", schema: object = SCHEMA) -> RowError:
    with pytest.raises(VocabularyError) as info:
        read_vocabulary_text(text, file_name=file_name, schema=schema)  # type: ignore[arg-type]
    assert len(info.value.errors) == 1, info.value.errors
    return info.value.errors[0]


@pytest.mark.parametrize(
    ("row", "column", "message"),
    [
        ("dog,NN,plurl,1,3,1.5,", "number", "'plurl' is not one of the declared values (sg, pl)"),
        (
            "dog,NN,sg,maybe,3,1.5,",
            "animate",
            "'maybe' is not a yes/no value (use 1/0, yes/no or true/false)",
        ),
        ("dog,NN,sg,1,third,1.5,", "person", "'third' is not a whole number"),
        ("dog,NN,sg,1,3,often,", "freq", "'often' is not a number"),
        (
            "dog,NN,sg|pl,1,3,1.5,",
            "number",
            "'sg|pl' holds several values but 'number' takes one value (declare it with multi: "
            "true to allow several)",
        ),
        (
            ",NN,sg,1,3,1.5,",
            "form",
            "the form is empty; every row needs a form (leave the whole row blank to skip it)",
        ),
    ],
)
def test_read_vocabulary_reports_bad_cell(row: str, column: str, message: str) -> None:
    """A bad cell is reported with its line, column and a plain-words reason."""
    error = _only_error(HEADER + "cat,NN,sg,1,3,2.0,只\n" + row + "\n")
    assert (error.file, error.line, error.column, error.message) == ("nouns.csv", 3, column, message)
    assert str(error) == f"nouns.csv, line 3, column '{column}': {message}"


def test_read_vocabulary_example_message_matches_house_wording() -> None:
    """The canonical example reads exactly as documented for linguists."""
    text = HEADER + "\n".join(["a,NN,sg,,,,"] * 5 + ["dogs,NN,plurl,,,,"]) + "\n"
    assert str(_only_error(text)) == (
        "nouns.csv, line 7, column 'number': 'plurl' is not one of the declared values (sg, pl)"
    )


@pytest.mark.parametrize(
    ("text", "line", "column", "code", "needle"),
    [
        ("id,form\nx,dog\nx,cat\n", 3, "id", E.E_DUPLICATE_ID, "the id 'x' is already used on line 2"),
        ("id,form\ndog,dog\n,dog\n", 3, "form", E.E_DUPLICATE_ID, "made from its form"),
        ("form,pos\ndog\n", 2, None, E.E_CELL_COUNT, "this row has 1 cells but the header has 2"),
        ("form,pos\ndog,NN,x\n", 2, None, E.E_CELL_COUNT, "must be put in double quotes"),
        ("word,pos\ndog,NN\n", 1, "form", E.E_MISSING_COLUMN, "rename the column 'word'"),
        ("form,pos,pos\ndog,NN,NN\n", 1, "pos", E.E_HEADER, "appears twice (columns 2 and 3)"),
        ("form,,pos\ndog,,NN\n", 1, None, E.E_HEADER, "column 2 of the header has no name"),
        ("", None, None, E.E_EMPTY_FILE, "the file is empty"),
        ("\n  \n", None, None, E.E_EMPTY_FILE, "the file is empty"),
        ('form,pos\n"dog,NN\n', 2, None, E.E_CELL_COUNT, "this row has 1 cells"),
    ],
)
def test_read_vocabulary_reports_table_problem(
    text: str, line: int | None, column: str | None, code: str, needle: str
) -> None:
    """Structural problems name the line (and column) and say what to do."""
    error = _only_error(text, file_name="n.csv", schema=None)
    assert (error.line, error.column, error.code) == (line, column, code)
    assert needle in error.message
    assert str(error).startswith("n.csv")


def test_read_vocabulary_hints_at_wrong_delimiter() -> None:
    """A header read as one column suggests the delimiter the file seems to use."""
    with pytest.raises(VocabularyError) as info:
        read_vocabulary_text("form;pos\ndog;NN\n", file_name="n.csv", delimiter="\t")
    (error,) = info.value.errors
    assert error.column == "form"
    assert "is the file separated by ';'" in error.message


def test_read_vocabulary_reports_column_missing_from_header() -> None:
    """A feature declared in the schema but absent from the header is an error naming it."""
    error = _only_error("form,pos,number,animate,person,classifier\ndog,NN,sg,1,3,\n")
    assert (error.line, error.column, error.code) == (1, "freq", E.E_MISSING_COLUMN)
    assert "declares this feature but the file has no such column" in error.message


def test_read_vocabulary_reports_undeclared_column(tmp_path: Path) -> None:
    """A header column the schema does not declare is an error naming column and schema file."""
    (tmp_path / "n.schema.yaml").write_text("features:\n  number: {values: [sg, pl]}\n", encoding="utf-8")
    path = tmp_path / "n.csv"
    path.write_text("form,number,colour\ndog,sg,brown\n", encoding="utf-8")
    with pytest.raises(VocabularyError) as info:
        read_vocabulary(path)
    (error,) = info.value.errors
    assert (error.file, error.line, error.column, error.code) == ("n.csv", 1, "colour", E.E_UNDECLARED_COLUMN)
    assert "not declared in the schema (n.schema.yaml)" in error.message


def test_read_vocabulary_reports_undecodable_lines(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 are reported by line; other lines are still checked."""
    data = b"form,number\ndog,sg\n" + "café,sg\n".encode("latin-1") + b"cat,plurl\n"
    path = tmp_path / "n.csv"
    path.write_bytes(data)
    with pytest.raises(VocabularyError) as info:
        read_vocabulary(path, schema_path=_schema_file(tmp_path))
    first, second = info.value.errors
    assert (first.line, first.code) == (3, E.E_ENCODING)
    assert "not UTF-8" in first.message and "0xE9" in first.message
    assert (second.line, second.column, second.code) == (4, "number", E.E_VALUE)
    with pytest.raises(VocabularyError) as upload:
        read_vocabulary_bytes(data, file_name="upload.csv")
    assert upload.value.errors[0].file == "upload.csv"


def _schema_file(tmp_path: Path) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text("features:\n  number: {values: [sg, pl]}\n", encoding="utf-8")
    return path


def test_read_vocabulary_collects_all_problems_at_once() -> None:
    """One error lists every problem in line order; nothing is returned."""
    text = (
        HEADER
        + "dog,NN,plurl,1,3,1.5,\n"
        + "cat,NN,sg,maybe,x,1.5,\n"
        + ",NN,sg,1,3,1.5,\n"
        + "cow,NN\n"
        + "dog,NN,sg,1,3,1.5,\n"
        + "dog,NN,sg,1,3,1.5,\n"
    )
    with pytest.raises(VocabularyError) as info:
        read_vocabulary_text(text, file_name="nouns.csv", schema=SCHEMA)
    found = [(e.line, e.column, e.code) for e in info.value.errors]
    assert found == [
        (2, "number", E.E_VALUE),
        (3, "animate", E.E_VALUE),
        (3, "person", E.E_VALUE),
        (4, "form", E.E_MISSING_FORM),
        (5, None, E.E_CELL_COUNT),
    ]
    assert len(str(info.value).splitlines()) == 5


def test_read_vocabulary_duplicate_explicit_ids_all_reported() -> None:
    """Each repeated id is reported on the line where it repeats."""
    with pytest.raises(VocabularyError) as info:
        read_vocabulary_text("id,form\na,x\nb,y\na,z\nb,w\n", file_name="d.csv")
    assert [(e.line, e.message) for e in info.value.errors] == [
        (4, "the id 'a' is already used on line 2"),
        (5, "the id 'b' is already used on line 3"),
    ]
