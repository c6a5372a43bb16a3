"""Every problem of a template text names the top-level key it concerns (`Problem.key`), from
the parser where it knows, else from the key whose value holds its line: the editor places
problems by it and never reads a message."""

import pytest

from generator import errors as E
from generator.errors import Problem, TemplateError
from generator.template import key_at, problems_keyed, template_from_text

TEXT = """\
uid: x
phenomenon: p
language: en
vocabulary: animals
options:
  unique: pair
notes: a note
good:
  - {direct: a}
bad:
  - {direct: b}
"""


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (("phenomenon: p\n", ""), "phenomenon"),
        (("uid: x", "uid: x y"), "uid"),
        (("  unique: pair", "  unique: words"), "options"),
        (("  unique: pair", "  speed: 3"), "options"),
        (("notes: a note", "colour: red"), "colour"),
        (("language: en", "language: [en]"), "language"),  # not text, so also missing
    ],
)
def test_the_parser_names_the_key_of_each_problem(change: tuple[str, str], key: str) -> None:
    with pytest.raises(TemplateError) as raised:
        template_from_text(TEXT.replace(*change), file="t.yaml")
    assert {p.key for p in raised.value.problems} == {key}


def test_a_parsed_template_knows_the_line_of_each_key() -> None:
    parsed = template_from_text(TEXT, file="t.yaml")
    assert dict(parsed.key_lines) == {
        "uid": 1,
        "phenomenon": 2,
        "language": 3,
        "vocabulary": 4,
        "options": 5,
        "notes": 7,
        "good": 8,
        "bad": 10,
    }


def test_a_problem_without_a_key_gets_the_key_whose_value_holds_its_line() -> None:
    lines = {"uid": 1, "options": 5, "good": 8}
    assert [key_at(n, lines) for n in (None, 1, 4, 6, 8, 30)] == ["", "uid", "uid", "options", "good", "good"]
    problems = [
        Problem(E.E_FIELD, "m", line=6),
        Problem(E.E_FIELD, "m", line=6, key="uid"),  # the parser's word stands
        Problem(E.E_RULE, "m", grammar="good", position="1", line=9),  # a position's: no key
    ]
    assert [p.key for p in problems_keyed(problems, lines)] == ["options", "uid", ""]
