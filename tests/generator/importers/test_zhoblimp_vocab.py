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
    assert "holds no value" in by_where["line 14, column 'animate'"].message
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
