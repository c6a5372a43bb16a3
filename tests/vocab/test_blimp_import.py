"""BLiMP's vocabulary.csv converted into our vocabulary, with every change reported by line."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from generator.generate import Generator
from generator.template import template_from_text
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
    assert schema.features["arg_1"].type == "restriction"
    vocab = converted.vocabulary
    assert vocab.get("dog").features["adjs"] == ("big", "small", "brown")
    assert vocab.get("school").features["locative_prepositions"] == ("in", "at", "near")
    assert "sg" not in vocab.get("buys").features  # blank = not applicable, not 0
    assert vocab.get("buys").features["arg_1"] == ("institution=1^sg=1;animate=1^sg=1",)


def test_selectional_restrictions_are_reported_in_one_line(converted) -> None:  # type: ignore[no-untyped-def]
    """One info line names the restriction columns, and others the columns they name that the
    file lacks and the `expression=` conditions rewritten as `form=`."""
    notes = [n for n in converted.notes if "restriction" in n.message]
    assert [(n.level, n.where) for n in notes] == [("info", ""), ("info", ""), ("changed", "")]
    assert notes[0].message.startswith("arg_1, arg_2, arg_clause, initial_state:")
    assert "12 cell(s)" in notes[0].message
    assert "'broken' (line 13)" in notes[1].message
    assert notes[2].message.startswith("1 restriction cell(s)")
    assert converted.vocabulary.get("thinks").features["arg_clause"] == ("form=that",)


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


# A BLiMP-shaped table of our own: pronouns with person, verbs with restrictions, nouns.
SELECTION_CSV = b"""expression,verb,noun,animate,edible,sg,person,arg_1,arg_2,root
I,0,0,1,,1,1,,,I
you,0,0,1,,1,2,,,you
she,0,0,1,,1,3,,,she
ate,1,0,,,,,animate=1,edible=1,eat
bothered,1,0,,,,,,animate=1^sg=1;expression=you,bother
dog,0,1,1,0,1,,,,dog
apple,0,1,0,1,1,,,,apple
plate,0,1,0,0,1,,,,plate
saw,1,0,,,,,animate=1,,see
saw,0,1,0,0,1,,,,saw
"""


def test_person_keeps_its_three_values() -> None:
    """`person` is a category 1/2/3, not a yes/no flag that would blank 2 and 3."""
    vocabulary = import_blimp_vocabulary(SELECTION_CSV).vocabulary
    spec = vocabulary.schema.features["person"]
    assert (spec.type, spec.values) == ("category", ("1", "2", "3"))
    assert [vocabulary.get(w).features["person"] for w in ("I", "you", "she")] == [("1",), ("2",), ("3",)]


def test_arg_columns_become_restriction_features_with_expression_as_form() -> None:
    """arg_1 and arg_2 are restriction features; `expression=` in them names our `form`."""
    vocabulary = import_blimp_vocabulary(SELECTION_CSV).vocabulary
    assert {vocabulary.schema.features[c].type for c in ("arg_1", "arg_2")} == {"restriction"}
    assert vocabulary.get("bothered").features["arg_2"] == ("animate=1^sg=1;form=you",)
    assert "arg_1" not in vocabulary.get("dog").features  # blank: no restriction


def test_homographs_are_reported_once_with_examples() -> None:
    """Rows sharing an expression get numbered ids, and one info line says so."""
    result = import_blimp_vocabulary(SELECTION_CSV)
    assert {"saw#1", "saw#2"} <= {item.id for item in result.vocabulary.items}
    [note] = [n for n in result.notes if "homograph" in n.message]
    assert (note.level, note.where) == ("info", "column 'expression'")
    assert note.message.startswith("2 item(s)") and "saw#1" in note.message


def test_a_restriction_that_cannot_be_read_skips_its_row_with_line_and_column() -> None:
    """A malformed restriction is not left blank (that would allow every word): the row is
    skipped and the note names its line and column."""
    data = SELECTION_CSV.replace(b"animate=1,edible=1,eat", b"animate=1,edible,eat")
    result = import_blimp_vocabulary(data)
    assert "ate" not in {item.id for item in result.vocabulary.items}
    [note] = [n for n in result.notes if n.level == "skipped"]
    assert note.where == "line 5, column 'arg_2'"


def test_imported_restrictions_are_enforced_by_a_template() -> None:
    """With `satisfies:`, the objects made for each imported verb are those its arg_2 allows."""
    vocabulary = import_blimp_vocabulary(SELECTION_CSV).vocabulary
    template = template_from_text(
        "uid: t\nphenomenon: selection\nlanguage: en\n"
        "good:\n"
        '  - {id: subj, lexical: {person: "3"}, satisfies: {verb: arg_1}}\n'
        '  - {id: verb, lexical: {verb: "1"}}\n'
        '  - {id: obj, lexical: {noun: "1"}, satisfies: {verb: arg_2}}\n'
        "bad:\n  - {move: obj}\n  - {same: verb}\n  - {move: subj}\n"
    )
    generator = Generator(template, vocabulary)
    made = {tuple(p.good.split()[1:]) for p in generator.pairs(generator.capacity().count, 1)}
    assert made == {
        ("ate", "apple"),
        ("bothered", "dog"),
        ("saw", "dog"),
        ("saw", "apple"),
        ("saw", "plate"),
        ("saw", "saw"),
    }
