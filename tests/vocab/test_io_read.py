"""Reading vocabulary tables: types, ids, delimiters, encodings and inference."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocab.errors import VocabularyError
from vocab.io import read_vocabulary, read_vocabulary_bytes, read_vocabulary_text
from vocab.lexicon import FeatureSchema, FeatureSpec

SCHEMA_YAML = """\
language: en
multi_separator: "|"
features:
  number: {type: category, values: [sg, pl]}
  animate: {type: bool}
  classifier: {type: category, multi: true}
  freq: {type: float}
"""

NOUNS_CSV = """\
form,lemma,pos,number,animate,classifier,freq
dog,,NN,sg,yes,只,12.5
dogs,dog,NN,pl,No,只| 条 |只,3
bank,,NN,sg,TRUE,,
bank,,NN,sg,0,,
"""


def _write(tmp_path: Path, name: str, text: str, schema: str | None = None) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if schema is not None:
        (tmp_path / f"{path.stem}.schema.yaml").write_text(schema, encoding="utf-8")
    return path


def test_read_vocabulary_uses_sidecar_schema_and_normalises_values(tmp_path: Path) -> None:
    """Bools become 1/0, floats canonical, multi cells split, stripped and de-duplicated."""
    vocab = read_vocabulary(_write(tmp_path, "nouns.csv", NOUNS_CSV, SCHEMA_YAML))
    assert vocab.name == "nouns"
    assert vocab.language == "en"
    assert list(vocab.schema.features) == ["number", "animate", "classifier", "freq"]
    dogs = vocab.get("dogs")
    assert dogs.lemma == "dog"
    assert dogs.features == {
        "number": ("pl",),
        "animate": ("0",),
        "classifier": ("只", "条"),
        "freq": ("3.0",),
    }
    dog = vocab.get("dog")
    assert dog.lemma == "dog"
    assert dog.features["animate"] == ("1",)
    assert dog.features["freq"] == ("12.5",)


def test_read_vocabulary_blank_cell_means_not_applicable(tmp_path: Path) -> None:
    """A blank cell leaves the feature out of the item."""
    vocab = read_vocabulary(_write(tmp_path, "nouns.csv", NOUNS_CSV, SCHEMA_YAML))
    assert "classifier" not in vocab.get("bank#1").features
    assert "freq" not in vocab.get("bank#2").features


def test_read_vocabulary_ids_are_id_column_else_form_else_numbered_form(tmp_path: Path) -> None:
    """Unique forms are their own ids; homographs get form#1, form#2 in file order."""
    vocab = read_vocabulary(_write(tmp_path, "nouns.csv", NOUNS_CSV, SCHEMA_YAML))
    assert [item.id for item in vocab] == ["dog", "dogs", "bank#1", "bank#2"]
    assert vocab.get("bank#2").features["animate"] == ("0",)
    with_ids = read_vocabulary_text("id,form\nn1,dog\n,dog\n,cat\n", file_name="x.csv")
    assert [item.id for item in with_ids] == ["n1", "dog", "cat"]


def test_read_vocabulary_int_feature_is_canonical() -> None:
    """Whole numbers are stored without padding or sign noise."""
    schema = FeatureSchema({"person": FeatureSpec("person", "int")})
    vocab = read_vocabulary_text("form,person\nI, 01\nyou,+2\n", file_name="p.csv", schema=schema)
    assert [item.features["person"] for item in vocab] == [("1",), ("2",)]


def test_read_vocabulary_only_form_column_is_enough() -> None:
    """lemma defaults to the form and pos to blank."""
    vocab = read_vocabulary_text("form\ndog\n", file_name="x.csv")
    (item,) = vocab.items
    assert (item.id, item.form, item.lemma, item.pos, dict(item.features)) == ("dog", "dog", "dog", "", {})


def test_read_vocabulary_language_argument_overrides_schema(tmp_path: Path) -> None:
    """An explicit language wins over the schema's; name can be given too."""
    path = _write(tmp_path, "nouns.csv", NOUNS_CSV, SCHEMA_YAML)
    vocab = read_vocabulary(path, language="en-GB", name="mine")
    assert (vocab.language, vocab.name) == ("en-GB", "mine")


def test_read_vocabulary_explicit_schema_path(tmp_path: Path) -> None:
    """schema_path is used instead of (and without) a sidecar."""
    schema = tmp_path / "shared.yaml"
    schema.write_text(SCHEMA_YAML, encoding="utf-8")
    vocab = read_vocabulary(_write(tmp_path, "n.csv", NOUNS_CSV), schema_path=schema)
    assert vocab.schema.features["animate"].type == "bool"


def test_read_vocabulary_accepts_schema_yml_extension(tmp_path: Path) -> None:
    """A sidecar spelt <stem>.schema.yml is found too."""
    path = _write(tmp_path, "n.csv", NOUNS_CSV)
    (tmp_path / "n.schema.yml").write_text(SCHEMA_YAML, encoding="utf-8")
    assert read_vocabulary(path).schema.features["freq"].type == "float"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("n.tsv", "form\tpos\tnumber\ndog\tNN\tsg\n"),
        ("n.txt", "form\tpos\tnumber\ndog\tNN\tsg\n"),
        ("n.txt", "form,pos,number\ndog,NN,sg\n"),
        ("n.csv", "form;pos;number\ndog;NN;sg\n"),
        ("n", "form,pos,number\ndog,NN,sg\n"),
    ],
)
def test_read_vocabulary_picks_delimiter_by_extension_or_header(name: str, text: str) -> None:
    """.csv/.tsv decide; otherwise (or when the header disagrees) the header is sniffed."""
    vocab = read_vocabulary_text(text, file_name=name)
    assert vocab.get("dog").pos == "NN"
    assert vocab.get("dog").features == {"number": ("sg",)}


def test_read_vocabulary_tolerates_utf8_bom(tmp_path: Path) -> None:
    """A byte-order mark (Excel's 'CSV UTF-8') does not end up in the first column name."""
    path = tmp_path / "bom.csv"
    path.write_bytes("form,pos\ndog,NN\n".encode("utf-8-sig"))
    assert read_vocabulary(path).get("dog").pos == "NN"
    assert read_vocabulary_text("\ufeffform\ndog\n", file_name="u.csv").get("dog").form == "dog"
    data = "form\ndog\n".encode("utf-8-sig")
    assert len(read_vocabulary_bytes(data, file_name="u.csv")) == 1


def test_read_vocabulary_skips_blank_rows_and_keeps_line_numbers() -> None:
    """Blank spacer rows are dropped; quoted multi-line cells do not shift later lines."""
    text = 'form,note\n\ndog,"two\nlines"\n,\ncat,x\n,\n'
    schema = FeatureSchema({"note": FeatureSpec("note", "text")})
    vocab = read_vocabulary_text(text, file_name="x.csv", schema=schema)
    assert [item.form for item in vocab] == ["dog", "cat"]
    assert vocab.get("dog").features["note"] == ("two\nlines",)
    bad = text.replace("cat,x", "cat,x,y")
    with pytest.raises(VocabularyError) as info:
        read_vocabulary_text(bad, file_name="x.csv", schema=schema)
    assert info.value.errors[0].line == 6


def test_read_vocabulary_ignores_trailing_empty_cells_and_columns() -> None:
    """Spreadsheets' empty trailing columns and cells are harmless."""
    vocab = read_vocabulary_text(
        "form,pos,,\ndog,NN,,\ncat,NN\n".replace("cat,NN", "cat,NN,,"), file_name="x.csv"
    )
    assert [item.pos for item in vocab] == ["NN", "NN"]
    assert read_vocabulary_text("form,pos\ndog,NN,,\n", file_name="x.csv").get("dog").pos == "NN"


def test_read_vocabulary_text_chinese_tsv_with_schema() -> None:
    """Chinese forms and multi-valued classifiers read as written."""
    text = "form\tpos\tclassifier\tanimate\n小说\tNN\t部|本\t0\n猫\tNN\t只\t1\n本\tM\t本\t\n"
    schema = FeatureSchema(
        {
            "classifier": FeatureSpec("classifier", "category", multi=True),
            "animate": FeatureSpec("animate", "bool"),
        }
    )
    vocab = read_vocabulary_text(text, file_name="zh.tsv", schema=schema, language="zh")
    assert vocab.language == "zh"
    assert vocab.get("小说").features["classifier"] == ("部", "本")
    assert vocab.index("classifier")["本"] == (0, 2)
    assert "animate" not in vocab.get("本").features


def test_read_vocabulary_infers_categories_of_observed_values() -> None:
    """Without a schema, each feature is a category of its sorted observed values."""
    text = "form,pos,number,classifier,animate\ndog,NN,sg,只|条,1\ndogs,NN,pl,只,0\ncat,NN,sg,,\n"
    vocab = read_vocabulary_text(text, file_name="x.csv")
    assert vocab.schema.features == {
        "number": FeatureSpec("number", "category", ("pl", "sg"), multi=False),
        "classifier": FeatureSpec("classifier", "category", ("只", "条"), multi=True),
        "animate": FeatureSpec("animate", "category", ("0", "1"), multi=False),
    }
    assert vocab.get("dog").features["classifier"] == ("只", "条")


def test_read_vocabulary_inference_uses_given_separator() -> None:
    """ZhoBLiMP-style '/' lists are split when that separator is given."""
    vocab = read_vocabulary_text("form,tran_verb\n书,看/写\n", file_name="zh.csv", multi_separator="/")
    assert vocab.schema.multi_separator == "/"
    assert vocab.get("书").features["tran_verb"] == ("看", "写")
