"""A vocabulary file copied with one more column: every other cell and the schema text kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocab.errors import VocabularyError
from vocab.io import read_vocabulary
from vocab.lexicon import FeatureSpec
from vocab.marked_copy import copy_with_column

SPEC = FeatureSpec(name="balanced", type="bool", description='1: kept; 0: dropped ("balanced")')
SCHEMA = """\
language: en
# the author's comment
features:
  number:
    type: category
    values: [sg, pl]
    description: grammatical number, as the author explained it

multi_separator: "|"
"""


def test_copy_sets_the_column_and_keeps_cells_and_schema_text(tmp_path: Path) -> None:
    source = tmp_path / "kids.csv"
    source.write_text("id,form,pos,number\nn1,dog,NN,sg\n\nn2,dogs ,NN,pl\nd1,the,DT,\n", encoding="utf-8")
    (tmp_path / "kids.schema.yaml").write_text(SCHEMA, encoding="utf-8")
    out = tmp_path / "out" / "kids.csv"
    schema = copy_with_column(source, out, "balanced", {"n1": "1", "n2": "0"}, SPEC)
    assert out.read_text(encoding="utf-8") == (
        "id,form,pos,number,balanced\nn1,dog,NN,sg,1\n\nn2,dogs ,NN,pl,0\nd1,the,DT,,\n"
    )
    assert schema == tmp_path / "out" / "kids.schema.yaml"
    text = schema.read_text(encoding="utf-8")
    assert text.startswith(SCHEMA.split("\n\nmulti")[0])  # comment and description kept
    assert "  balanced:\n    type: bool\n    description: \"1: kept; 0: dropped ('balanced')\"\n" in text
    assert text.rstrip().endswith('multi_separator: "|"')
    marked = read_vocabulary(out)
    assert [i.features.get("balanced") for i in marked.items] == [("1",), ("0",), None]
    # Marking again replaces the column and leaves a schema that declares it as it is.
    again = copy_with_column(out, out, "balanced", {"n1": "0"}, SPEC)
    assert out.read_text(encoding="utf-8").splitlines()[1] == "n1,dog,NN,sg,0"
    assert again is not None and again.read_text(encoding="utf-8").count("  balanced:") == 1


def test_copy_of_a_tsv_without_schema_and_a_table_without_ids(tmp_path: Path) -> None:
    source = tmp_path / "zh.tsv"
    source.write_text("id\tform\tpos\nn1\t书\tNN\n", encoding="utf-8")
    assert copy_with_column(source, tmp_path / "m.tsv", "balanced", {"n1": "1"}, SPEC) is None
    assert (tmp_path / "m.tsv").read_text(encoding="utf-8") == "id\tform\tpos\tbalanced\nn1\t书\tNN\t1\n"
    no_ids = tmp_path / "plain.csv"
    no_ids.write_text("form,pos\ndog,NN\n", encoding="utf-8")
    with pytest.raises(VocabularyError, match="needs an 'id' column"):
        copy_with_column(no_ids, tmp_path / "x.csv", "balanced", {}, SPEC)
