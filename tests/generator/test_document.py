"""Template documents: YAML in, plain data, canonical YAML out, read back by the engine unchanged."""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from generator.document import (
    DocumentError,
    document_from_text,
    document_to_text,
    position_from_text,
    position_to_text,
    text_with_uid,
)
from generator.template import OPTION_KEYS, POSITION_KEYS, TOP_KEYS, template_from_text

LIBRARY = Path(__file__).resolve().parents[2] / "templates"  # the shipped grammar library

# Text a YAML reader misreads or cannot hold bare: each must come back as the same string.
TRICKY = [
    "",
    " ",
    "~",
    "null",
    "Null",
    "NULL",
    "no",
    "No",
    "on",
    "off",
    "yes",
    "true",
    "False",
    "1",
    "0",
    "007",
    "1.5",
    "1e3",
    ".inf",
    ".nan",
    "0x1F",
    "2001-01-01",
    ".",
    "?",
    "-",
    "- a",
    "a: b",
    "a:b",
    "#x",
    "a #b",
    "[x",
    "{y",
    "x]",
    "y}",
    "a, b",
    "'q",
    '"q',
    "|",
    ">",
    "&a",
    "*a",
    "!t",
    "%p",
    "@",
    "`",
    "<<",
    "=",
    "a\nb",
    "a\n",
    "\n",
    "a\n\nb\n\n",
    " lead",
    "trail ",
    "\ttab",
    "a\r\nb",
    "\x85",
    "a\u2028b",
    "\ufeff",
    "一本书",
    "。",
    "，",
    "量词与名词搭配。\n",
    "x" * 200,
]
TEXT = st.one_of(
    st.sampled_from(TRICKY),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=20),
    st.text(alphabet="ab :#-?,[]{}'\"\n|>~!&*一", max_size=8),
)
KEYS = st.one_of(st.sampled_from(TOP_KEYS + POSITION_KEYS + OPTION_KEYS), TEXT)
VALUES = st.recursive(
    st.one_of(st.none(), TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=12,
)
POSITIONS = st.one_of(st.dictionaries(KEYS, VALUES, max_size=5), VALUES)
DOCUMENTS = st.fixed_dictionaries(
    {},
    optional={
        key: (
            st.lists(POSITIONS, max_size=4)
            if key in ("good", "bad")
            else st.dictionaries(TEXT, st.lists(st.lists(POSITIONS, max_size=3), max_size=3), max_size=2)
            if key == "phrases"
            else st.dictionaries(st.sampled_from(OPTION_KEYS), st.one_of(st.none(), TEXT), max_size=3)
            if key == "options"
            else VALUES
        )
        for key in TOP_KEYS
    },
).flatmap(lambda document: st.dictionaries(KEYS, VALUES, max_size=2).map(lambda extra: {**extra, **document}))


@hypothesis_settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(DOCUMENTS)
def test_document_to_text_reads_back_as_the_same_document(document: dict[str, Any]) -> None:
    """Any plain document, whatever its strings and however malformed as a template, survives."""
    assert document_from_text(document_to_text(document)) == document


# What a person types in a YAML file: printable characters and line breaks.
TYPED = st.one_of(
    st.sampled_from([t for t in TRICKY if t.replace("\n", "").isprintable()]),
    st.text(st.characters(exclude_categories=("Cc", "Cs", "Cn", "Co", "Cf", "Zl", "Zp")), max_size=20),
)
ID = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)
WORDS = st.one_of(TYPED.filter(lambda t: t.strip() != ""), st.lists(TYPED, min_size=1, max_size=3))
VALID_TEMPLATES = st.fixed_dictionaries(
    {
        "uid": ID,
        "phenomenon": TYPED.filter(lambda t: t.strip() != ""),
        "language": st.sampled_from(["en", "zh"]),
        "good": st.lists(
            st.fixed_dictionaries({"id": ID, "direct": WORDS}),
            min_size=1,
            max_size=4,
            unique_by=lambda p: p["id"],
        ),
    },
    optional={
        "description": TYPED,
        "source": TYPED,
        "version": TYPED,
        "example": st.fixed_dictionaries({"good": TYPED, "bad": TYPED}),
        "options": st.fixed_dictionaries(
            {},
            optional={
                "max_depth": st.sampled_from(["2", "5"]),
                "capitalize": st.sampled_from(["no", "yes", "true"]),
            },
        ),
    },
).map(lambda t: {**t, "bad": [*({"same": p["id"]} for p in t["good"][:-1]), {"direct": "x"}]})


@hypothesis_settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(VALID_TEMPLATES)
def test_canonical_text_keeps_the_engines_content_hash(document: dict[str, Any]) -> None:
    """A template written by hand (here as JSON, which is YAML) and rewritten keeps its content hash."""
    authored = json.dumps(document, ensure_ascii=False)
    original = template_from_text(authored)
    rewritten = template_from_text(document_to_text(document_from_text(authored)))
    assert rewritten.content_hash == original.content_hash


SHIPPED = sorted(path for path in LIBRARY.rglob("*.yaml") if "uid:" in path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_templates_keep_their_content_hash(path: Path) -> None:
    """Every template of the shipped library, rewritten canonically, is the same template to the engine."""
    text = path.read_text(encoding="utf-8")
    rewritten = document_to_text(document_from_text(text))
    assert (
        template_from_text(rewritten, file=str(path)).content_hash
        == template_from_text(text, file=str(path)).content_hash
    )
    assert document_from_text(rewritten) == document_from_text(text)


def test_shipped_library_has_templates() -> None:
    assert len(SHIPPED) >= 7


def test_document_to_text_writes_the_documented_layout() -> None:
    """Metadata as a block, each position on one flow line, quotes only where YAML would misread."""
    document = {
        "good": [{"lexical": {"pos": "VB", "transitive": "0"}, "form": "VBP", "id": "verb"}, {"direct": "."}],
        "uid": "sv",
        "version": "1",
        "phenomenon": "subject_verb_agreement",
        "language": "en",
        "example": {"bad": "The dogs runs.", "good": "The dogs run."},
        "options": {"max_item_reuse": "40", "distinct_words": "true"},
        "phrases": {"NP": [[{"direct": "the"}, {"id": "head", "lexical": {"pos": "NN"}}]]},
        "bad": [{"same": "verb", "form": "VBZ"}, {"same": "2"}, {"direct": ["no", "on"]}],
    }
    assert document_to_text(document) == (
        "uid: sv\n"
        'version: "1"\n'
        "phenomenon: subject_verb_agreement\n"
        "language: en\n"
        "example: {good: The dogs run., bad: The dogs runs.}\n"
        "options:\n"
        "  max_item_reuse: 40\n"
        "  distinct_words: true\n"
        "phrases:\n"
        "  NP:\n"
        "    - [{direct: the}, {id: head, lexical: {pos: NN}}]\n"
        "good:\n"
        '  - {id: verb, lexical: {pos: VB, transitive: "0"}, form: VBP}\n'
        "  - {direct: .}\n"
        "bad:\n"
        "  - {same: verb, form: VBZ}\n"
        '  - {same: "2"}\n'
        '  - {direct: ["no", "on"]}\n'
    )


def test_document_from_text_keeps_literals_as_written() -> None:
    """`no`, `on` and numbers stay text (yaml.safe_load would make booleans and integers)."""
    document = document_from_text("uid: x\ngood:\n  - {direct: [no, on, 1]}\n  - {id: n, lexical: {}}\n")
    assert document["good"] == [{"direct": ["no", "on", "1"]}, {"id": "n", "lexical": {}}]
    assert type(document) is dict and type(document["good"]) is list


def test_document_from_text_reports_the_line_of_broken_yaml() -> None:
    with pytest.raises(DocumentError) as caught:
        document_from_text("uid: x\ngood:\n  - {direct: [the\nbad: []\n")
    assert caught.value.line is not None and caught.value.line >= 3
    assert "not valid YAML" in caught.value.message


def test_document_from_text_refuses_a_list() -> None:
    with pytest.raises(DocumentError, match="must be a mapping"):
        document_from_text("- {direct: the}\n")


def test_empty_text_is_an_empty_document() -> None:
    assert document_from_text("") == {}
    assert document_from_text("# only a comment\n") == {}


@pytest.mark.parametrize(
    ("position", "text"),
    [
        ({"direct": "."}, "{direct: .}"),
        ({"same": "1", "form": "VBZ"}, '{same: "1", form: VBZ}'),
        (
            {"uncapped": "true", "id": "cl", "lexical": {"pos": "M"}},
            "{id: cl, lexical: {pos: M}, uncapped: true}",
        ),
        ({"where": {"head": {"number": "pl"}}, "phrase": "NP"}, "{phrase: NP, where: {head: {number: pl}}}"),
        (
            {"satisfies": {"verb": "arg_2", "subj": "arg_1"}, "lexical": {"noun": "1"}, "id": "obj"},
            '{id: obj, lexical: {noun: "1"}, satisfies: {verb: arg_2, subj: arg_1}}',
        ),
        ("bare", "bare"),
        (None, "null"),
    ],
)
def test_position_to_text_is_one_line_that_reads_back(position: Any, text: str) -> None:
    assert position_to_text(position) == text
    assert position_from_text(text) == position


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("uid: det\nphenomenon: x\n", "uid: det_copy\nphenomenon: x\n"),
        (
            "# my paradigm\nuid: det   # named after BLiMP\ngood: []\n",
            "# my paradigm\nuid: det_copy   # named after BLiMP\ngood: []\n",
        ),
        ("uid: 'det'\r\nbad: []\r\n", "uid: det_copy\r\nbad: []\r\n"),
        ("phenomenon: x\nuid: det", "phenomenon: x\nuid: det_copy"),
    ],
)
def test_text_with_uid_rewrites_only_the_uid_line(text: str, expected: str) -> None:
    assert text_with_uid(text, "det_copy") == expected


def test_text_with_uid_writes_a_text_without_its_own_uid_line_anew() -> None:
    assert text_with_uid("{uid: det, phenomenon: x}\n", "det_copy") == "uid: det_copy\nphenomenon: x\n"
    assert text_with_uid("phenomenon: x\n", "det_copy") == "uid: det_copy\nphenomenon: x\n"
    assert document_from_text(text_with_uid("uid: a\n", "007"))["uid"] == "007"  # quoted, stays text


def test_text_with_uid_refuses_what_is_not_a_template() -> None:
    with pytest.raises(DocumentError):
        text_with_uid("- a\n- b\n", "det_copy")


def test_a_template_with_satisfies_reads_back_with_the_same_content_hash() -> None:
    """`satisfies:` is written in its canonical place and the engine reads the same template."""
    text = (
        "uid: sel\nphenomenon: selection\nlanguage: en\n"
        "good:\n"
        '  - {satisfies: {verb: arg_2}, id: obj, lexical: {noun: "1"}}\n'
        '  - {id: verb, lexical: {verb: "1"}}\n'
        "bad:\n  - {same: obj}\n  - {direct: x}\n"
    )
    rewritten = document_to_text(document_from_text(text))
    assert '  - {id: obj, lexical: {noun: "1"}, satisfies: {verb: arg_2}}\n' in rewritten
    assert template_from_text(rewritten).content_hash == template_from_text(text).content_hash
    assert document_from_text(rewritten) == document_from_text(text)


@pytest.mark.parametrize("mode", ["characters", "words", "false"])
def test_document_round_trip_keeps_equal_length(mode: str) -> None:
    """`options.equal_length` is written in the options block, in the documented order, and read
    back as written (issue 17)."""
    text = (
        "uid: eq\n"
        "phenomenon: test\n"
        "language: zh\n"
        "options:\n"
        "  unique: pair\n"
        f"  equal_length: {mode}\n"
        "good:\n"
        "  - {direct: 我}\n"
        "bad:\n"
        "  - {direct: 你}\n"
    )
    document = document_from_text(text)
    assert document["options"] == {"unique": "pair", "equal_length": mode}
    rewritten = document_to_text({**document, "options": {"equal_length": mode, "unique": "pair"}})
    assert rewritten == text
    parsed = template_from_text(rewritten)
    assert parsed.options.equal_length == (None if mode == "false" else mode)
    assert parsed.content_hash == template_from_text(text).content_hash
