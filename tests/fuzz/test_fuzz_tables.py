"""Fuzzing the vocabulary import: CSV/TSV tables (`read_vocabulary_bytes`) and schema files.

Property: the reader returns a Vocabulary (a schema) or raises VocabularyError, each of whose
problems names the file and, when it concerns one, a line of it; nothing else may escape.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.strategies import corrupt_lines, encode, nasty_text, text_of
from tests.fuzz.tally import FUZZ, accepted, tried
from vocab.errors import VocabularyError
from vocab.io import read_vocabulary_bytes
from vocab.lexicon import FeatureSchema
from vocab.schema_file import read_schema, schema_text_to_schema

ROOT = Path(__file__).resolve().parents[2] / "templates" / "vocabularies"
TABLES = {
    path.name: path.read_text(encoding="utf-8").splitlines()[:25]
    for path in sorted(ROOT.iterdir())
    if path.suffix in {".csv", ".tsv"}
}
SCHEMAS: dict[str, FeatureSchema] = {
    name: read_schema(ROOT / f"{Path(name).stem}.schema.yaml") for name in TABLES
}
SCHEMA_TEXTS = [path.read_text(encoding="utf-8") for path in sorted(ROOT.glob("*.schema.yaml"))]


def _check(exc: VocabularyError, file_name: str, data: bytes) -> None:
    assert exc.errors, "a VocabularyError with no problem"
    max_line = max(data.count(b"\n"), data.count(b"\r")) + 2
    for error in exc.errors:
        assert error.file == file_name, error
        assert error.line is None or 1 <= error.line <= max_line, (error, max_line)
        assert str(error).startswith(file_name), error
    assert str(exc)


@st.composite
def cell_corruptions(draw: st.DrawFn, lines: list[str], delimiter: str) -> list[str]:
    """Rows with a cell too many or too few, an empty form, an unclosed quote, a repeated id."""
    lines = list(lines)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        cells = lines[at].split(delimiter)
        kind = draw(st.sampled_from(["more", "fewer", "blank", "quote", "repeat", "value"]))
        if kind == "more":
            cells.append(draw(nasty_text))
        elif kind == "fewer" and len(cells) > 1:
            cells.pop(draw(st.integers(0, len(cells) - 1)))
        elif kind == "blank":
            cells[draw(st.integers(0, len(cells) - 1))] = ""
        elif kind == "quote":
            cells[draw(st.integers(0, len(cells) - 1))] = '"' + draw(nasty_text)
        elif kind == "repeat" and at > 1:
            cells[0] = lines[at - 1].split(delimiter)[0]
        else:
            cells[draw(st.integers(0, len(cells) - 1))] = draw(nasty_text)
        lines[at] = delimiter.join(cells)
    return lines


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, bytes, str]:
    """(seed table's name, corrupted bytes, upload's file name)."""
    seed = draw(st.sampled_from(sorted(TABLES)))
    delimiter = "\t" if seed.endswith(".tsv") else ","
    lines = draw(cell_corruptions(TABLES[seed], delimiter))
    lines = draw(corrupt_lines(lines))
    upload = draw(st.sampled_from([seed, "upload.csv", "upload.tsv", "upload.txt", "upload"]))
    return seed, draw(encode(lines)), upload


@FUZZ
@given(tables(), st.booleans(), st.sampled_from([None, "|", ";", ""]))
def test_near_valid_tables(table: tuple[str, bytes, str], typed: bool, separator: str | None) -> None:
    tried("vocabulary table")
    seed, data, upload = table
    try:
        read_vocabulary_bytes(
            data, file_name=upload, schema=SCHEMAS[seed] if typed else None, multi_separator=separator
        )
        accepted("vocabulary table")
    except VocabularyError as exc:
        _check(exc, upload, data)


@FUZZ
@given(st.binary(max_size=3000), st.sampled_from(["raw.csv", "raw.tsv", "raw"]))
def test_raw_bytes_tables(data: bytes, upload: str) -> None:
    tried("vocabulary table")
    try:
        read_vocabulary_bytes(data, file_name=upload)
        accepted("vocabulary table")
    except VocabularyError as exc:
        _check(exc, upload, data)


@st.composite
def schema_texts(draw: st.DrawFn) -> str:
    """A shipped schema with corrupted lines, deep nesting or an alias bomb appended."""
    lines = draw(corrupt_lines(draw(st.sampled_from(SCHEMA_TEXTS)).splitlines()))
    extra = draw(st.sampled_from(["none", "none", "deep", "bomb", "self"]))
    if extra == "deep":
        depth = draw(st.integers(10, 400))
        lines.append("extra: " + "[" * depth + "]" * depth)
    elif extra == "bomb":
        lines.append("b0: &b0 [x, x, x, x, x, x, x, x, x, x]")
        lines += [f"b{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * 10) + "]" for i in range(1, 9)]
    elif extra == "self":
        lines.append("features: &f {number: *f}")
    return text_of(draw(encode(lines)))


@FUZZ
@given(schema_texts() | st.text(max_size=400))
def test_schema_files(text: str) -> None:
    tried("vocabulary schema")
    try:
        schema_text_to_schema(text, file="fuzz.schema.yaml")
        accepted("vocabulary schema")
    except VocabularyError as exc:
        _check(exc, "fuzz.schema.yaml", text.encode("utf-8", "surrogatepass"))
