"""Fuzzing the grammar template parser (`template_from_text`, `load_template`, phrase texts).

Property: the parser returns a Template or raises TemplateError whose every problem names the
file and a place in it (line, grammar or position); nothing else may escape.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st

from generator.errors import TemplateError
from generator.template import load_template, template_from_text
from tests.fuzz.strategies import corrupt_lines, encode, nasty_text, text_of
from tests.fuzz.tally import FUZZ, accepted, tried

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "templates").rglob("*.yaml"))
TEMPLATES = [
    p.read_text(encoding="utf-8") for p in SEEDS if "schema" not in p.name and "phrases" not in p.parts
]
PHRASES = [p.read_text(encoding="utf-8") for p in SEEDS if "phrases" in p.parts]
DATA = [yaml.safe_load(t) for t in TEMPLATES]
PHRASE_LISTS = [
    yaml.safe_dump(alternatives, allow_unicode=True)
    for text in PHRASES
    for alternatives in (yaml.safe_load(text) or {}).values()
]
WORK = Path(tempfile.mkdtemp(prefix="fuzz-template-"))
# A phrase_files entry in a fuzzed template is resolved here, never against the checkout.
(WORK / "np.yaml").write_text(PHRASES[0] if PHRASES else "NP: [[{lexical: {pos: NN}}]]\n", encoding="utf-8")


def _bomb(levels: int, width: int) -> str:
    lines = ["b0: &b0 [" + ", ".join(["x"] * width) + "]"]
    lines += [f"b{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * width) + "]" for i in range(1, levels + 1)]
    return "\n".join(lines)


junk_value = st.recursive(
    st.none() | st.integers() | st.booleans() | nasty_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(nasty_text, inner, max_size=3),
    max_leaves=8,
)


def _mutate(data: Any, path: list[int], junk: Any) -> Any:
    """Return `data` with the value found by following `path` (indices into keys/items) replaced."""
    if not path or not isinstance(data, dict | list) or not data:
        return junk
    step, rest = path[0], path[1:]
    if isinstance(data, dict):
        key = list(data)[step % len(data)]
        return {**data, key: _mutate(data[key], rest, junk)}
    i = step % len(data)
    return [*data[:i], _mutate(data[i], rest, junk), *data[i + 1 :]]


@st.composite
def template_texts(draw: st.DrawFn) -> str:
    """A shipped template with structural and textual corruptions, YAML bombs and deep nesting."""
    index = draw(st.integers(0, len(TEMPLATES) - 1))
    text = TEMPLATES[index]
    if draw(st.booleans()):
        data = DATA[index]
        for _ in range(draw(st.integers(1, 3))):
            data = _mutate(data, draw(st.lists(st.integers(0, 50), max_size=5)), draw(junk_value))
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    lines = draw(corrupt_lines(text.splitlines()))
    extra = draw(st.sampled_from(["none", "bomb", "deep", "self", "anchor"]))
    if extra == "bomb":
        lines.append(_bomb(draw(st.integers(1, 9)), draw(st.integers(2, 12))))
    elif extra == "deep":
        depth = draw(st.integers(10, 3000))
        lines.append("good: " + "[" * depth + "x" + "]" * depth)
    elif extra == "self":
        lines.append("bad: &s [{same: x}, *s]")
    elif extra == "anchor":
        lines.insert(0, "defaults: &d {lexical: {pos: NN}}")
        lines.append("  - *d")
    return text_of(draw(encode(lines)))


def _lines(*texts: str) -> int:
    return max(len(t.splitlines()) for t in texts) + 1 if texts else 1


def _check(exc: TemplateError, max_line: int) -> None:
    """Every problem names its file (or phrase); a line, when given, is a line of the text."""
    assert exc.problems, "a TemplateError with no problem"
    for problem in exc.problems:
        assert problem.template, problem
        assert problem.line is None or 1 <= problem.line <= max_line, (problem, max_line)
        assert str(problem).startswith(problem.template), problem


def _parse(text: str, phrase_texts: dict[str, str] | None = None) -> None:
    tried("template")
    try:
        template_from_text(text, file="fuzz.yaml", base_dir=WORK, phrase_texts=phrase_texts)
        accepted("template")
    except TemplateError as exc:
        limit = _lines(text, *(phrase_texts or {}).values(), PHRASES[0] if PHRASES else "")
        _check(exc, limit)


@FUZZ
@given(template_texts())
def test_near_valid_templates(text: str) -> None:
    _parse(text)


@st.composite
def phrase_texts(draw: st.DrawFn) -> str:
    """One phrase's YAML list of alternatives, as the platform stores it, corrupted."""
    lines = draw(corrupt_lines(draw(st.sampled_from(PHRASE_LISTS)).splitlines()))
    if draw(st.integers(0, 5)) == 0:
        lines.append("- &p [" + ", ".join(["*p"] * draw(st.integers(1, 3))) + "]")
    return text_of(draw(encode(lines)))


@FUZZ
@given(
    st.sampled_from(TEMPLATES),
    st.dictionaries(st.sampled_from(["NP", "VP", "PP", "Det"]), phrase_texts(), max_size=2),
)
def test_phrase_texts_as_the_platform_stores_them(text: str, phrases: dict[str, str]) -> None:
    _parse(text, phrase_texts=phrases)


@FUZZ
@given(st.binary(max_size=2000) | st.text(max_size=500).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_raw_bytes_from_a_file(data: bytes) -> None:
    tried("template")
    path = WORK / "raw.yaml"
    path.write_bytes(data)
    try:
        load_template(path)
        accepted("template")
    except TemplateError as exc:
        _check(exc, _lines(text_of(data), data.decode("latin-1")))
