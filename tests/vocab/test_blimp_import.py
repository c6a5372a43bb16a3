"""BLiMP's vocabulary.csv converted into our vocabulary, with every change reported by line."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from vocab.blimp_import import import_blimp_vocabulary
from vocab.cli import EXIT_BAD_INPUT, EXIT_OK, add_vocab_commands
from vocab.errors import E_ENCODING, E_MISSING_COLUMN, VocabularyError
from vocab.import_report import ImportNote
from vocab.io import read_vocabulary

DATA = Path(__file__).parent / "data" / "blimp_vocabulary.csv"


@pytest.fixture(scope="module")
def converted():  # type: ignore[no-untyped-def]
    return import_blimp_vocabulary(DATA.read_bytes(), file_name=DATA.name)


def notes_at(notes: tuple[ImportNote, ...], where: str) -> list[ImportNote]:
    return [n for n in notes if n.where == where]


def test_rows_become_items_with_lemmas_and_homograph_ids(converted) -> None:  # type: ignore[no-untyped-def]
    vocab = converted.vocabulary
    forms = [item.form for item in vocab.items]
    assert forms.count("dog") == 1  # the duplicate row is dropped
    assert "" not in forms and len(vocab) == 18
    assert vocab.get("dog").lemma == "dog_N"
    assert vocab.get("bought").lemma == vocab.get("buys").lemma == "buy_(S\\NP)/NP"
    assert vocab.get("the").lemma == "the"  # no root: the form is the lemma
    assert {vocab.get("saw#1").features["category_2"], vocab.get("saw#2").features["category_2"]} == {
        ("TV",),
        ("N",),
    }


def test_feature_types_follow_the_columns(converted) -> None:  # type: ignore[no-untyped-def]
    schema = converted.vocabulary.schema
    assert schema.features["sg"].type == "bool"
    assert schema.features["gender"].values == ("m", "f", "n")
    assert schema.features["adjs"].multi and schema.features["locative_prepositions"].multi
    assert schema.features["category"].type == "category"
    assert schema.features["arg_1"].type == "text"
    vocab = converted.vocabulary
    assert vocab.get("dog").features["adjs"] == ("big", "small", "brown")
    assert vocab.get("school").features["locative_prepositions"] == ("in", "at", "near")
    assert "sg" not in vocab.get("buys").features  # blank = not applicable, not 0
    assert vocab.get("buys").features["arg_1"] == ("institution=1^sg=1;animate=1^sg=1",)


def test_selectional_restrictions_are_reported_once_per_column(converted) -> None:  # type: ignore[no-untyped-def]
    dnf = [n for n in converted.notes if "DNF" in n.message]
    assert [n.where for n in dnf] == [
        "column 'arg_1'",
        "column 'arg_2'",
        "column 'arg_clause'",
        "column 'initial_state'",
    ]
    arg_1 = dnf[0]
    assert "7 row(s)" in arg_1.message and "institution=1^sg=1;animate=1^sg=1" in arg_1.message


def test_bad_rows_and_cells_are_reported_by_line(converted) -> None:  # type: ignore[no-untyped-def]
    notes = converted.notes
    assert "no expression" in notes_at(notes, "line 15, column 'expression'")[0].message
    assert "duplicate of line 2" in notes_at(notes, "line 16")[0].message
    assert "'yes' is not 0, 1" in notes_at(notes, "line 14, column '3sg'")[0].message
    assert "'x' is not one of m/f/n" in notes_at(notes, "line 18, column 'gender'")[0].message
    assert "'small|tiny'" in notes_at(notes, "line 19, column 'adjs'")[0].message
    assert "29 cells" in notes_at(notes, "line 21")[0].message
    assert "holds no value" in notes_at(notes, "line 22, column 'adjs'")[0].message
    assert notes_at(notes, "column 'OOV_inductive_biases'")[0].message.startswith("1 item(s)")
    assert "not a documented BLiMP column" in notes_at(notes, "column 'mystery_flag'")[0].message
    assert converted.vocabulary.get("runs").features.get("3sg") is None
    assert converted.vocabulary.get("cat").features.get("adjs") is None


def test_undecodable_lines_are_skipped_and_reported() -> None:
    data = b"expression,sg\ndog,1\n" + "狗,1\n".encode("gbk") + b"cats,0\n"
    result = import_blimp_vocabulary(data, file_name="v.csv")
    assert [i.form for i in result.vocabulary.items] == ["dog", "cats"]
    assert result.notes[0].where == "line 3" and "not UTF-8" in result.notes[0].message


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"form,sg\ndog,1\n", E_MISSING_COLUMN),
        ("expression,性\n".encode("gbk") + b"dog,1\n", E_ENCODING),
        (b"", "E_EMPTY_FILE"),
        (b"expression,sg\n,1\n", "E_EMPTY_FILE"),
    ],
)
def test_unusable_files_raise_with_the_reason(data: bytes, code: str) -> None:
    with pytest.raises(VocabularyError) as info:
        import_blimp_vocabulary(data, file_name="v.csv")
    assert info.value.errors[0].code == code


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="mpp")
    add_vocab_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


def test_cli_writes_a_vocabulary_and_schema_that_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "en_blimp.csv"
    assert run(["vocab", "import-blimp", str(DATA), "--out", str(out)]) == EXIT_OK
    printed = capsys.readouterr().out
    assert "line 15, column 'expression'" in printed and "18 items" in printed
    again = read_vocabulary(out)
    original = import_blimp_vocabulary(DATA.read_bytes(), file_name=DATA.name, name="en_blimp").vocabulary
    assert again.version == original.version
    assert (tmp_path / "en_blimp.schema.yaml").exists()


def test_cli_refuses_a_file_without_expression(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "vocabulary.csv"
    bad.write_text("word,sg\ndog,1\n", encoding="utf-8")
    assert run(["vocab", "import-blimp", str(bad), "--out", str(tmp_path / "x.csv")]) == EXIT_BAD_INPUT
    assert "'expression' column" in capsys.readouterr().err
    assert not (tmp_path / "x.csv").exists()
