"""Writing a vocabulary and reading it back gives the same vocabulary."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vocab.errors import E_WRITE, VocabularyError
from vocab.io import (
    read_vocabulary,
    read_vocabulary_text,
    vocabulary_to_csv_text,
    write_vocabulary,
)
from vocab.lexicon import FeatureSchema, FeatureSpec, LexicalItem, Vocabulary, make_item

SEPARATOR = "|"
# Any printable text, including the characters CSV must quote (",", '"', tab, newline),
# except the multi-value separator; leading/trailing spaces are not kept by design.
_chars = st.characters(
    blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters=SEPARATOR
) | st.sampled_from([",", '"', "\t", "\n", ";", "#", "=", "+", "-", "@", "'"])
TEXT = st.text(_chars, min_size=1, max_size=6).map(str.strip).filter(bool)
CATEGORY_VALUES = ("sg", "pl", "只", "条", "yes")


@st.composite
def vocabularies(draw: st.DrawFn) -> Vocabulary:
    """A schema with one feature of each kind, and items holding canonical values."""
    schema = FeatureSchema(
        {
            "number": FeatureSpec("number", "category", CATEGORY_VALUES),
            "classifier": FeatureSpec("classifier", "category", CATEGORY_VALUES, multi=True),
            "animate": FeatureSpec("animate", "bool"),
            "person": FeatureSpec("person", "int"),
            "freq": FeatureSpec("freq", "float"),
            "gloss": FeatureSpec("gloss", "text"),
            "verbs": FeatureSpec("verbs", "text", multi=True),
        },
        multi_separator=SEPARATOR,
    )
    values = {
        "number": st.sampled_from(CATEGORY_VALUES).map(lambda v: (v,)),
        "classifier": st.lists(st.sampled_from(CATEGORY_VALUES), min_size=1, max_size=3, unique=True).map(
            tuple
        ),
        "animate": st.sampled_from(("0", "1")).map(lambda v: (v,)),
        "person": st.integers(-(10**12), 10**12).map(lambda v: (str(v),)),
        "freq": st.floats(allow_nan=False, allow_infinity=False).map(lambda v: (repr(v),)),
        "gloss": TEXT.map(lambda v: (v,)),
        "verbs": st.lists(TEXT, min_size=1, max_size=3, unique=True).map(tuple),
    }
    ids = draw(st.lists(TEXT, max_size=8, unique=True))
    items = []
    for item_id in ids:
        features = {name: draw(strategy) for name, strategy in values.items() if draw(st.booleans())}
        items.append(
            LexicalItem(
                id=item_id,
                form=draw(TEXT),
                lemma=draw(TEXT),
                pos=draw(st.sampled_from(("", "NN", "VB", "量词"))),
                features=features,
            )
        )
    return Vocabulary(items, schema, name="rt", language=draw(st.sampled_from(("en", "zh"))))


def _same(a: Vocabulary, b: Vocabulary) -> None:
    assert b.items == a.items
    assert b.schema == a.schema
    assert b.version == a.version


@pytest.mark.parametrize("delimiter", [",", "\t"])
@given(vocab=vocabularies())
@settings(max_examples=60, deadline=None)
def test_vocabulary_to_csv_text_round_trips(delimiter: str, vocab: Vocabulary) -> None:
    """Exported text read back with the same schema equals the original."""
    text = vocabulary_to_csv_text(vocab, delimiter=delimiter)
    name = "rt.csv" if delimiter == "," else "rt.tsv"
    _same(vocab, read_vocabulary_text(text, file_name=name, schema=vocab.schema))


@given(vocab=vocabularies(), tsv=st.booleans())
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_write_vocabulary_round_trips_with_sidecar_schema(vocab: Vocabulary, tsv: bool) -> None:
    """A written file and its sidecar schema read back to the same vocabulary and language."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("out.tsv" if tsv else "out.csv")
        write_vocabulary(vocab, path)
        back = read_vocabulary(path)
    _same(vocab, back)
    assert back.language == vocab.language


def test_inferred_schema_round_trips(tmp_path: Path) -> None:
    """A table read without a schema, written and read again, keeps schema and items."""
    text = "form,pos,number,classifier\n书,NN,sg,本|部\n猫,NN,,只\n"
    vocab = read_vocabulary_text(text, file_name="zh.csv", language="zh")
    write_vocabulary(vocab, tmp_path / "zh.csv")
    assert (tmp_path / "zh.schema.yaml").read_text(encoding="utf-8").startswith("language: zh")
    _same(vocab, read_vocabulary(tmp_path / "zh.csv"))


def test_write_vocabulary_tsv_by_extension(tmp_path: Path) -> None:
    """A .tsv target is written tab-separated."""
    vocab = read_vocabulary_text("form,pos\ndog,NN\n", file_name="x.csv")
    write_vocabulary(vocab, tmp_path / "x.tsv", write_schema=False)
    assert (tmp_path / "x.tsv").read_text(encoding="utf-8") == "id\tform\tlemma\tpos\ndog\tdog\tdog\tNN\n"
    assert not (tmp_path / "x.schema.yaml").exists()


@pytest.mark.parametrize(
    ("item", "column"),
    [
        (make_item(id="a", form="a", features={"verbs": ["x|y"]}), "verbs"),
        (make_item(id="a", form="a", features={"gloss": ["x", "y"]}), "gloss"),
        (LexicalItem(id="a", form=" a", lemma="a", pos=""), "form"),
        (LexicalItem(id="", form="a", lemma="a", pos=""), "id"),
    ],
)
def test_vocabulary_to_csv_text_refuses_values_that_would_change(item: LexicalItem, column: str) -> None:
    """Values that cannot be read back unchanged are reported instead of written."""
    schema = FeatureSchema(
        {"verbs": FeatureSpec("verbs", "text", multi=True), "gloss": FeatureSpec("gloss", "text")}
    )
    with pytest.raises(VocabularyError) as info:
        vocabulary_to_csv_text(Vocabulary([item], schema))
    (error,) = info.value.errors
    assert (error.line, error.column, error.code) == (2, column, E_WRITE)


def test_export_declares_features_missing_from_schema() -> None:
    """Features an item has but the schema lacks are written as text features."""
    item = make_item(id="a", form="a", features={"note": "x", "tags": ["p", "q"]})
    text = vocabulary_to_csv_text(Vocabulary([item]))
    assert text.splitlines() == ["id,form,lemma,pos,note,tags", "a,a,a,,x,p|q"]
