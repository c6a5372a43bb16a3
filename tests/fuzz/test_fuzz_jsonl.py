"""Fuzzing the released-format readers (BLiMP and ZhoBLiMP JSONL, Zorro text) and the scoring
reader `scoring.data.read_items` (MPP Studio JSONL, BLiSS triplets, folders of them, zip files).

Property: none of them raises for what a file contains; every problem is an ImportIssue naming
the file and, when it concerns one, a line that exists in the file.
"""

from __future__ import annotations

import io
import json
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import orjson
from hypothesis import given
from hypothesis import strategies as st

from formats.blimp import read_blimp
from formats.record import ImportIssue
from formats.zhoblimp import read_zhoblimp
from formats.zorro import read_zorro
from scoring.data import read_items
from tests.fuzz.strategies import corrupt_lines, encode, nasty_text
from tests.fuzz.tally import FUZZ, accepted, tried

DATA = Path(__file__).resolve().parents[1] / "formats" / "data"
BLIMP = [json.loads(line) for line in (DATA / "blimp_ok.jsonl").read_text(encoding="utf-8").splitlines()[:8]]
ZHOBLIMP = [
    json.loads(line) for line in (DATA / "zhoblimp_ok.jsonl").read_text(encoding="utf-8").splitlines()[:8]
]
ZORRO = (DATA / "filler-gap-wh_question_object.txt").read_text(encoding="utf-8").splitlines()[:16]
MPP = {
    "sentence_good": "Will the happy tigers play?",
    "sentence_bad": "Will the happy tigers will play?",
    "UID": "aux_doubling",
    "phenomenon": "subject_aux_inversion",
    "pairID": "0",
    "item_id": "aa0ca4efbf10dcf7",
    "language": "en",
    "words_good": ["Will", "the", "happy", "tigers", "play", "?"],
    "words_bad": ["Will", "the", "happy", "tigers", "will", "play", "?"],
    "critical_region": [],
}
BLISS = {
    "learnerID": "8421",
    "L1": "Vietnamese",
    "cefr": "C1",
    "corrected": "There are a lot of benefits when we play sports .",
    "learner_error": "There are a lot of benefits when we play the sports .",
    "artificial_error": "There are a lot of benefits when the we play sports .",
    "errant_edits": [{"type": "U:DET", "o_str": "the", "c_str": ""}],
    "all_error_types": ["U:DET"],
    "learner_error_position": [9, 9],
}
RECORDS = {"blimp": BLIMP, "zhoblimp": ZHOBLIMP, "mpp": [MPP], "bliss": [BLISS]}
WORK = Path(tempfile.mkdtemp(prefix="fuzz-jsonl-"))

json_value = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | nasty_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(nasty_text, inner, max_size=3),
    max_leaves=6,
)


@st.composite
def records(draw: st.DrawFn, kind: str) -> dict[str, Any]:
    """A seed record with fields replaced by values of any JSON type, dropped, or added."""
    record = dict(draw(st.sampled_from(RECORDS[kind])))
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(sorted(record)) | nasty_text)
        action = draw(st.sampled_from(["set", "drop", "huge"]))
        if action == "drop":
            record.pop(key, None)
        elif action == "huge":
            record[key] = draw(st.sampled_from(["x ", "中", "\u0301"])) * draw(
                st.sampled_from([1000, 50_000])
            )
        else:
            record[key] = draw(json_value)
    return record


def _dumps(record: dict[str, Any]) -> str:
    try:
        return orjson.dumps(record).decode()
    except TypeError:  # integers beyond 64 bits: the standard library writes them
        return json.dumps(record, ensure_ascii=False)


@st.composite
def jsonl_files(draw: st.DrawFn, kind: str) -> bytes:
    """JSONL of mutated records, with raw-line corruptions, deep nesting and encodings."""
    lines = [_dumps(r) for r in draw(st.lists(records(kind), min_size=1, max_size=6))]
    if draw(st.integers(0, 5)) == 0:
        depth = draw(st.integers(100, 5000))
        lines.append('{"sentence_good": ' + "[" * depth + "]" * depth + "}")
    return draw(encode(draw(corrupt_lines(lines))))


def _check(issues: list[ImportIssue], name: str, data: bytes, target: str = "", items: int = 0) -> None:
    if target and items and not any(issue.skipped for issue in issues):
        accepted(target)
    max_line = max(data.count(b"\n"), data.count(b"\r")) + 2
    for issue in issues:
        assert issue.file and name in issue.file, (issue, name)
        assert issue.line is None or 1 <= issue.line <= max_line, (issue, max_line)
        assert issue.message.strip(), issue


@FUZZ
@given(st.data())
def test_near_valid_released_formats(data: st.DataObject) -> None:
    tried("released formats")
    kind = data.draw(st.sampled_from(["blimp", "zhoblimp", "zorro"]))
    if kind == "zorro":
        raw = data.draw(encode(data.draw(corrupt_lines(ZORRO))))
        name = data.draw(st.sampled_from(["filler-gap-wh_question_object.txt", "foo-bar-baz.txt", "x.txt"]))
        result = read_zorro(
            io.BytesIO(raw), name, order=data.draw(st.sampled_from(["bad-first", "good-first"]))
        )
    else:
        raw = data.draw(jsonl_files(kind))
        name = f"{kind}.jsonl"
        reader = read_blimp if kind == "blimp" else read_zhoblimp
        result = reader(io.BytesIO(raw), name)
    _check(result.issues, name, raw, "released formats", len(result.pairs))


@FUZZ
@given(st.binary(max_size=2000), st.sampled_from(["blimp", "zhoblimp", "zorro"]))
def test_raw_bytes_released_formats(raw: bytes, kind: str) -> None:
    tried("released formats")
    if kind == "zorro":
        name = "island-effects-adjunct_island.txt"
        result = read_zorro(io.BytesIO(raw), name)
    else:
        name = f"{kind}.jsonl"
        result = (read_blimp if kind == "blimp" else read_zhoblimp)(io.BytesIO(raw), name)
    _check(result.issues, name, raw)


@FUZZ
@given(st.data())
def test_near_valid_scoring_files(data: st.DataObject) -> None:
    tried("scoring read_items")
    kind = data.draw(st.sampled_from(sorted(RECORDS)))
    raw = data.draw(jsonl_files(kind))
    fmt = data.draw(st.sampled_from(["auto", "auto", kind, "mpp", "bliss", "blimp", "zhoblimp", "zorro"]))
    path = WORK / f"{kind}.jsonl"
    path.write_bytes(raw)
    if data.draw(st.integers(0, 4)) == 0:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr(f"inner/{kind}.jsonl", raw)
            archive.writestr("../escape.jsonl", raw)
        packed = buffer.getvalue()
        packed = packed[: data.draw(st.integers(len(packed) // 2, len(packed)))]
        path = WORK / f"{kind}.zip"
        path.write_bytes(packed)
    result = read_items([path], fmt=fmt)
    _check(result.issues, kind, raw, "scoring read_items", len(result.pairs) + len(result.triplets))
    ids = [p.item_id for p in result.pairs] + [t.item_id for t in result.triplets]
    assert all(ids) and len(set(ids)) == len(ids)  # ids stay unique, whatever the file repeats


@FUZZ
@given(st.binary(max_size=2000), st.sampled_from(["raw.jsonl", "raw.txt", "raw.zip", "raw"]))
def test_raw_bytes_scoring_files(raw: bytes, name: str) -> None:
    tried("scoring read_items")
    path = WORK / name
    path.write_bytes(raw)
    _check(read_items([path]).issues, "raw", raw)
