"""ZhoBLiMP's vocabulary TSV layout converted into our vocabulary, with each change reported."""

from __future__ import annotations

import pytest

from generator.importers.zhoblimp_vocab import import_zhoblimp_vocabulary
from tests.generator.importers.zhoblimp_files import VOCAB
from vocab.errors import E_MISSING_COLUMN, VocabularyError


@pytest.fixture(scope="module")
def converted():  # type: ignore[no-untyped-def]
    return import_zhoblimp_vocabulary(VOCAB.read_bytes(), file_name=VOCAB.name)


def test_rows_become_items_with_pos_and_multi_values(converted) -> None:  # type: ignore[no-untyped-def]
    vocab = converted.vocabulary
    assert vocab.language == "zh" and len(vocab) == 26
    novel = vocab.get("小说")
    assert novel.pos == "NN"
    assert novel.features["classifier"] == ("本", "部")
    assert novel.features["tran_verb"] == ("看", "写", "买")
    assert vocab.schema.features["classifier"].multi
    assert not vocab.schema.features["gender"].multi
    assert vocab.schema.multi_separator == "|"


def test_nchar_is_dropped_and_reported_once(converted) -> None:  # type: ignore[no-untyped-def]
    assert "nchar" not in converted.vocabulary.schema.features
    nchar = [n for n in converted.notes if "nchar" in n.where]
    assert len(nchar) == 1 and "derived" in nchar[0].message


def test_spacers_missing_expressions_duplicates_and_homographs(converted) -> None:  # type: ignore[no-untyped-def]
    by_where = {n.where: n for n in converted.notes}
    assert any(n.message == "2 blank spacer row(s) dropped" for n in converted.notes)
    assert by_where["line 30, column 'expression'"].level == "skipped"
    assert "same expression and features as line 11" in by_where["line 31"].message
    homograph = by_where["lines 15, 27"]
    assert "花#1" in homograph.message
    assert by_where["line 14, column 'animate'"].level == "changed"
    assert "animate" not in converted.vocabulary.get("衣服").features
    flower, spend = converted.vocabulary.get("花#1"), converted.vocabulary.get("花#2")
    assert (flower.pos, spend.pos) == ("NN", "VV")


def test_a_file_without_expression_or_tabs_is_refused() -> None:
    with pytest.raises(VocabularyError) as info:
        import_zhoblimp_vocabulary("expression,pos\n书,NN\n".encode(), file_name="v.tsv")
    assert info.value.errors[0].code == E_MISSING_COLUMN
    assert "tab-separated" in info.value.errors[0].message
    with pytest.raises(VocabularyError):
        import_zhoblimp_vocabulary("word\tpos\n书\tNN\n".encode(), file_name="v.tsv")


def test_undecodable_rows_are_skipped_and_reported() -> None:
    data = "expression\tpos\n书\tNN\n".encode() + "狗\tNN\n".encode("gbk") + "猫\tNN\n".encode()
    result = import_zhoblimp_vocabulary(data, file_name="v.tsv")
    assert [i.form for i in result.vocabulary.items] == ["书", "猫"]
    assert result.notes[0].where == "line 3" and result.notes[0].level == "skipped"


def _cell_notes(result, column: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Return where -> level of the notes about cells of `column`."""
    return {n.where: n.level for n in result.notes if n.where.endswith(f"column '{column}'")}


def test_issue_17_repeated_values_in_a_cell_are_kept_once_and_reported() -> None:
    """A value written twice in a cell is kept once, and each such cell is reported by line and column."""
    data = "expression\tpos\tverb\n鱼\tNN\t吃/煮/吃\n饭\tNN\t吃/煮\n琴\tNN\t弹/弹/弹/拉/拉\n".encode()
    result = import_zhoblimp_vocabulary(data, file_name="v.tsv")
    assert result.vocabulary.get("鱼").features["verb"] == ("吃", "煮")
    assert result.vocabulary.get("琴").features["verb"] == ("弹", "拉")
    assert _cell_notes(result, "verb") == {
        "line 2, column 'verb'": "changed",
        "line 4, column 'verb'": "changed",
    }
    (fish,) = [n for n in result.notes if n.where == "line 2, column 'verb'"]
    assert "'吃'" in fish.message and "'煮'" not in fish.message
    (zither,) = [n for n in result.notes if n.where == "line 4, column 'verb'"]
    assert "'弹'" in zither.message and "'拉'" in zither.message


@pytest.mark.parametrize(
    ("cell", "values"),
    [("/", None), ("//", None), (" / ", None), ("1/", ("1",)), ("0//1", ("0", "1"))],
)
def test_issue_17_empty_values_between_separators_are_reported(
    cell: str, values: tuple[str, ...] | None
) -> None:
    """A cell of separators only is left blank, an empty piece beside values left out; both are reported."""
    data = f"expression\tpos\tanimate\n狗\tNN\t1\n书\tNN\t{cell}\n".encode()
    result = import_zhoblimp_vocabulary(data, file_name="v.tsv")
    assert result.vocabulary.get("书").features.get("animate") == values
    assert _cell_notes(result, "animate") == {"line 3, column 'animate'": "changed"}


def test_a_cell_of_distinct_values_is_not_reported() -> None:
    """Distinct values separated by '/' are the ordinary multi-valued cell: nothing to report."""
    data = "expression\tpos\tclassifier\n书\tNN\t本/部\n".encode()
    result = import_zhoblimp_vocabulary(data, file_name="v.tsv")
    assert result.vocabulary.get("书").features["classifier"] == ("本", "部")
    assert result.notes == ()
