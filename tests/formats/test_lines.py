"""Numbered lines of an uploaded file: split at "\\n" only, across read chunks, long lines refused."""

from __future__ import annotations

import io

from formats.lines import MAX_LINE_BYTES, numbered_lines
from formats.record import IssueList


def lines_of(data: bytes) -> tuple[list[tuple[int, str]], list[str]]:
    issues = IssueList("f.txt")
    out = list(numbered_lines(io.BytesIO(data), issues))
    return out, [str(i) for i in issues.kept]


def test_crlf_bom_and_a_lone_carriage_return() -> None:
    assert lines_of(b"\xef\xbb\xbfa\r\nb\rc\nd") == ([(1, "a"), (2, "b\rc"), (3, "d")], [])


def test_numbering_holds_across_read_chunks() -> None:
    data = b"".join(f"sentence number {i} .\n".encode() for i in range(20_000))  # ~470 KB
    out, issues = lines_of(data)
    assert issues == [] and len(out) == 20_000
    assert out[12_345] == (12_346, "sentence number 12345 .")


def test_a_line_too_long_is_reported_and_the_next_read() -> None:
    out, issues = lines_of(b"x" * (MAX_LINE_BYTES + 10) + b"\nok\n")
    assert out == [(2, "ok")]
    assert issues == ["error: f.txt, line 1: the line is longer than 1 MiB; not read (skipped)"]
