"""Fuzzing the learner corpus readers: M2 (`read_m2`), parallel tables (`read_parallel`) and
metadata tables (`read_metadata`), joined with `attach_metadata`.

Property: the readers never raise for what a file contains; every problem comes back as an
ImportIssue naming the file and, when it concerns one, a line that exists in the file.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from formats.record import ImportIssue
from tests.fuzz.strategies import corrupt_lines, encode, nasty_text
from tests.fuzz.tally import FUZZ, accepted, tried
from triplets.readers import attach_metadata, read_m2, read_metadata, read_parallel

LEARNER = Path(__file__).resolve().parents[2] / "templates" / "learner"
M2 = (LEARNER / "mpp_learner_corpus.m2").read_text(encoding="utf-8").splitlines()[:40]
PARALLEL = (LEARNER / "mpp_learner_corpus.tsv").read_text(encoding="utf-8").splitlines()[:25]
META = (LEARNER / "mpp_learner_corpus.meta.tsv").read_text(encoding="utf-8").splitlines()[:12]
WORK = Path(tempfile.mkdtemp(prefix="fuzz-learner-"))
# The edit fields of an M2 `A` line, and values that break each of them.
A_FIELD_JUNK = (
    "",
    "-1 -1",
    "3",
    "a b",
    "5 2",
    "999 1000",
    "0 0",
    "|||",
    "R:NOUN",
    "-NONE-",
    "x",
    "1e3",
    "٣ ٤",
)


def _check(issues: list[ImportIssue], path: Path, data: bytes, target: str = "", items: int = 0) -> None:
    if target and items and not any(issue.skipped for issue in issues):
        accepted(target)
    max_line = max(data.count(b"\n"), data.count(b"\r")) + 2
    for issue in issues:
        assert issue.file == str(path), issue
        assert issue.line is None or 1 <= issue.line <= max_line, (issue, max_line)
        assert issue.message.strip(), issue
        assert str(issue).startswith(issue.severity), issue


@st.composite
def m2_edits(draw: st.DrawFn, lines: list[str]) -> list[str]:
    """`A` lines with a field replaced, dropped or added, or an annotator id changed."""
    lines = list(lines)
    a_lines = [i for i, line in enumerate(lines) if line.startswith("A ")]
    for _ in range(draw(st.integers(0, 3))):
        if not a_lines:
            break
        at = draw(st.sampled_from(a_lines))
        fields = lines[at][2:].split("|||")
        kind = draw(st.sampled_from(["replace", "drop", "add", "copy"]))
        if kind == "replace":
            fields[draw(st.integers(0, len(fields) - 1))] = draw(st.sampled_from(A_FIELD_JUNK) | nasty_text)
        elif kind == "drop":
            fields.pop(draw(st.integers(0, len(fields) - 1)))
        elif kind == "add":
            fields.append(draw(nasty_text))
        else:
            lines.insert(at, lines[at])  # two edits over the same span
        lines[at] = "A " + "|||".join(fields)
    return lines


def _write(name: str, data: bytes) -> Path:
    path = WORK / name
    path.write_bytes(data)
    return path


@FUZZ
@given(st.data(), st.integers(0, 2))
def test_near_valid_m2(data: st.DataObject, annotator: int) -> None:
    tried("learner m2")
    lines = data.draw(corrupt_lines(data.draw(m2_edits(M2))))
    raw = data.draw(encode(lines))
    ids = None
    if data.draw(st.booleans()):
        ids = _write("fuzz.ids", data.draw(encode(data.draw(st.lists(nasty_text, max_size=30)))))
    path = _write("fuzz.m2", raw)
    result = read_m2(path, annotator=annotator, ids=ids)
    _check([i for i in result.issues if i.file == str(path)], path, raw, "learner m2", len(result.pairs))
    for pair in result.pairs:
        assert 1 <= pair.line <= raw.count(b"\n") + raw.count(b"\r") + 2


@FUZZ
@given(st.binary(max_size=2000) | st.text(max_size=400).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_raw_m2(raw: bytes) -> None:
    tried("learner m2")
    path = _write("raw.m2", raw)
    result = read_m2(path)
    _check(result.issues, path, raw, "learner m2", len(result.pairs))


@st.composite
def tables(draw: st.DrawFn, seed: list[str]) -> tuple[str, bytes, str | None]:
    """(file name, corrupted table, delimiter asked for)."""
    lines = []
    for line in seed:
        cells = line.split("\t")
        if draw(st.integers(0, 9)) == 0:
            cells = cells[: draw(st.integers(0, len(cells)))] + draw(st.lists(nasty_text, max_size=2))
        lines.append("\t".join(cells))
    name, delimiter = draw(
        st.sampled_from([("t.tsv", None), ("t.csv", None), ("t.txt", "\t"), ("t.tab", ",")])
    )
    if name == "t.csv":
        lines = [line.replace("\t", ",") for line in lines]
    return name, draw(encode(draw(corrupt_lines(lines)))), delimiter


@FUZZ
@given(tables(PARALLEL), tables(META), st.sampled_from(["essay_id", "pair_id"]))
def test_near_valid_parallel_and_metadata(
    parallel: tuple[str, bytes, str | None], meta: tuple[str, bytes, str | None], key: str
) -> None:
    tried("learner tables")
    name, raw, delimiter = parallel
    path = _write(f"parallel-{name}", raw)
    pairs = read_parallel(path, delimiter=delimiter)
    _check(pairs.issues, path, raw, "learner tables", len(pairs.pairs))
    name, raw, delimiter = meta
    meta_path = _write(f"meta-{name}", raw)
    metadata = read_metadata(meta_path, delimiter=delimiter)
    _check(metadata.issues, meta_path, raw)
    joined = attach_metadata(pairs.pairs, metadata, key=key)
    assert len(joined.pairs) == len(pairs.pairs)


@FUZZ
@given(st.binary(max_size=2000), st.sampled_from(["raw.tsv", "raw.csv", "raw.txt"]))
def test_raw_tables(raw: bytes, name: str) -> None:
    tried("learner tables")
    path = _write(name, raw)
    _check(read_parallel(path).issues, path, raw)
    _check(read_metadata(path).issues, path, raw)
