"""Whatever the bytes, the importers answer with a result and a report, or a located refusal."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.importers.zhoblimp import SourceFile, import_zhoblimp
from generator.importers.zhoblimp_phrases import convert_phrases
from generator.importers.zhoblimp_rules import RuleSyntaxError, parse_position
from generator.importers.zhoblimp_templates import convert_template
from generator.importers.zhoblimp_vocab import import_zhoblimp_vocabulary
from tests.generator.importers.zhoblimp_files import PHRASES, VOCAB
from vocab.blimp_import import import_blimp_vocabulary
from vocab.errors import VocabularyError

# Pieces of ZhoBLiMP's rule language, so generated cells are often almost right.
PIECES = [
    "pos:NN",
    "pos:VV",
    "mPos:",
    "mmPos:",
    "mPro:",
    "mmPro:",
    "expression",
    "phrase:",
    "Person",
    "NP",
    "-1:<",
    ">",
    "|",
    " ",
    "/",
    ":",
    "1",
    "9",
    "-3",
    "把",
    "了",
    "",
    "subcat:obj",
    "<",
    "1+1",
]
cells = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)
json_values: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.one_of(cells, st.text(max_size=30)))
def test_a_rule_string_parses_or_is_refused_with_a_reason(cell: str) -> None:
    try:
        parse_position(cell)
    except RuleSyntaxError as exc:
        assert str(exc)


@SETTINGS
@given(
    good=st.lists(cells, min_size=1, max_size=6),
    bad=st.lists(cells, min_size=1, max_size=6),
    uid=st.one_of(st.text(max_size=8), st.just("t")),
    phenomenon=json_values,
    strict=json_values,
)
def test_any_template_object_converts_or_is_reported(
    good: list[str], bad: list[str], uid: str, phenomenon: Any, strict: Any
) -> None:
    obj = {"uid": uid, "phenomenon": phenomenon, "strict_MP": strict, "good_rule": good, "bad_rule": bad}
    converted, notes = convert_template(obj, file="t.json")
    assert converted is not None or any(n.level == "skipped" for n in notes)


@SETTINGS
@given(json_values)
def test_any_json_converts_or_is_reported(value: Any) -> None:
    convert_template(value, file="t.json")
    convert_phrases(value, file_name="p.json")


@SETTINGS
@given(st.lists(cells, min_size=1, max_size=5), st.binary(max_size=40))
def test_the_whole_import_never_raises(good: list[str], junk: bytes) -> None:
    template = json.dumps({"uid": "t", "phenomenon": "x", "good_rule": good, "bad_rule": good[::-1]})
    result = import_zhoblimp(
        [SourceFile("t.json", template.encode()), SourceFile("junk.json", junk)],
        vocabulary=SourceFile("vocab.tsv", VOCAB.read_bytes()),
        phrases=SourceFile("phrases.json", PHRASES.read_bytes()),
    )
    assert len(result.templates) <= 1
    assert any(n.file == "junk.json" for n in result.notes)


@SETTINGS
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_bytes_as_a_vocabulary_give_items_or_a_located_refusal(data: bytes) -> None:
    for header in (b"", b"expression,sg,adjs,arg_1\n"):
        try:
            import_blimp_vocabulary(header + data, file_name="v.csv")
        except VocabularyError as exc:
            assert exc.errors
    for header in (b"", b"expression\tpos\tnchar\tclassifier\n"):
        try:
            import_zhoblimp_vocabulary(header + data, file_name="v.tsv")
        except VocabularyError as exc:
            assert exc.errors
