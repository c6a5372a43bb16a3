"""ZhoBLiMP's phrase JSON converted into our phrases."""

from __future__ import annotations

from generator.importers.zhoblimp_phrases import import_zhoblimp_phrases
from tests.generator.importers.zhoblimp_files import PHRASES


def test_phrases_convert_with_positions_named_by_index() -> None:
    result = import_zhoblimp_phrases(PHRASES.read_bytes(), file_name=PHRASES.name)
    first, second = result.phrases["NP"]
    assert first[1] == {"id": "i1", "lexical": {"pos": "M"}, "matched": {"i2": ["classifier"]}}
    assert second[0] == {"id": "i0", "direct": ["这", "那"]}
    # "-1" counts from the end of the alternative, as Python indexing in ZhoBLiMP does
    assert second[1]["matched"] == {"i2": ["classifier"]}
    assert result.phrases["Person"][1] == [{"id": "i0", "lexical": {"pos": "PN"}}]


def test_unconvertible_alternatives_and_phrases_are_reported() -> None:
    result = import_zhoblimp_phrases(PHRASES.read_bytes(), file_name=PHRASES.name)
    assert "Broken" not in result.phrases
    assert len(result.phrases["HalfBroken"]) == 1
    where = {n.where: n.message for n in result.notes}
    assert "unknown rule type 'Weird'" in where["phrase 'Broken', alternative 0, rule 0"]
    assert "outside this alternative" in where["phrase 'HalfBroken', alternative 1, rule 0"]


def test_bad_json_is_reported_with_line_and_column() -> None:
    result = import_zhoblimp_phrases(b'{"NP": [[{"type": "Direct", "rule": ["a"]}]\n', file_name="p.json")
    assert result.phrases == {}
    assert result.notes[0].level == "skipped" and result.notes[0].where == "line 2, column 1"
    assert "not valid JSON" in result.notes[0].message


def test_expression_becomes_form() -> None:
    data = (
        '{"Same": [[{"type": "Lexical", "rule": {"pos": "NN"}}, {"type": "Matched", "rule": '
        '{"matchedPosition": "0", "matchedProperties": ["expression"]}}]]}'
    )
    result = import_zhoblimp_phrases(data.encode(), file_name="p.json")
    assert result.phrases["Same"][0][1] == {"id": "i1", "matched": {"i0": ["form"]}}
