"""YAML reading: hostile nesting and alias expansion come back as SourceError with a line."""

from __future__ import annotations

import time

import pytest

from generator.errors import TemplateError
from generator.source import MAX_DEPTH, SourceError, load_yaml
from generator.template import template_from_text


def _alias_bomb(levels: int) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_quickly() -> None:
    """Nine levels of ten aliases would be 10^9 values; found by tests/fuzz (it hung)."""
    started = time.perf_counter()
    with pytest.raises(SourceError, match="expands to more than") as info:
        load_yaml(_alias_bomb(9))
    assert info.value.line is not None
    assert time.perf_counter() - started < 5


def test_alias_inside_its_own_anchor_is_refused() -> None:
    """`&a [*a]` is a value containing itself; building it recursed until RecursionError."""
    with pytest.raises(SourceError, match="refers to the value that contains it") as info:
        load_yaml("good: &a [x, *a]\n")
    assert info.value.line == 1


@pytest.mark.parametrize(
    "text", ["[" * 100_000 + "]" * 100_000, "- " * 5000 + "x", "{a: " * 3000 + "1" + "}" * 3000]
)
def test_deep_nesting_is_refused(text: str) -> None:
    """100,000 nested lists crashed the process in libyaml (segmentation fault). The refusal is a
    SourceError at line 1; its words may be ours or, where libyaml stops first, libyaml's."""
    with pytest.raises(SourceError) as info:
        load_yaml(text)
    assert info.value.line == 1


def test_nesting_just_over_the_limit_is_refused_by_our_check() -> None:
    """Below any parser's own limit, our depth check is what refuses (and names the limit)."""
    with pytest.raises(SourceError, match=f"more than {MAX_DEPTH} levels deep") as info:
        load_yaml("x:\n" + "  " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n")
    assert info.value.line == 2


def test_template_reports_nesting_as_syntax_problem_with_line() -> None:
    with pytest.raises(TemplateError) as info:
        template_from_text("uid: x\ngood:\n  - " + "[" * 500 + "]" * 500 + "\n", file="deep.yaml")
    assert info.value.codes == ["E_SYNTAX"]
    assert info.value.problems[0].line == 3


def test_ordinary_nesting_and_aliases_still_load() -> None:
    data = load_yaml("base: &b {pos: NN}\nuse: *b\nnest: " + "[" * 20 + "x" + "]" * 20 + "\n")
    assert data["use"] == {"pos": "NN"}


@pytest.mark.parametrize(
    ("text", "line", "opened"),
    [
        ("uid: x\ngood:\n  - {id: a, lexical: {pos: NN}\nbad: []\n", 3, "the { opened on line 3"),
        ("uid: x\ngood:\n  - [a, b\nbad: []\n", 3, "the [ opened on line 3"),
        ("uid: x\nphenomenon: 'abc\nlanguage: en\n", 2, "the quote opened on line 2"),
    ],
)
def test_an_unclosed_bracket_or_quote_is_reported_where_it_was_opened(
    text: str, line: int, opened: str
) -> None:
    with pytest.raises(SourceError) as caught:
        load_yaml(text)
    assert caught.value.line == line and opened in str(caught.value)


def test_an_error_on_its_own_line_keeps_that_line() -> None:
    with pytest.raises(SourceError) as caught:
        load_yaml("uid: x\n  bad indent: 1\nfoo: 2\n")
    assert caught.value.line == 2 and "is not closed" not in str(caught.value)
