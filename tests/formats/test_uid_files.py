"""One file per paradigm: records grouped by UID in the order met, file names made from UIDs and
kept apart when two would be one file, files written whole."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from formats.uid_files import bytes_write, jsonl_folder_write, records_by_uid, uid_file_stem


@pytest.mark.parametrize(
    ("uid", "stem"),
    [("adjunct_island", "adjunct_island"), ("a/b c", "a_b_c"), ("..", "paradigm"), ("把字句", "把字句")],
)
def test_uid_file_stem_keeps_letters_digits_and_dot_dash_underscore(uid: str, stem: str) -> None:
    assert uid_file_stem(uid) == stem


def test_records_by_uid_groups_in_the_order_met_and_keeps_names_apart() -> None:
    records = [
        {"UID": "b", "n": 1},
        {"UID": "a/x", "n": 2},
        {"UID": "b", "n": 3},
        {"UID": "a x"},
        {"UID": "B"},
    ]
    groups = [(uid, stem, [r.get("n") for r in group]) for uid, stem, group in records_by_uid(records)]
    assert groups == [("b", "b", [1, 3]), ("a/x", "a_x", [2]), ("a x", "a_x_", [None]), ("B", "B_", [None])]


def test_jsonl_folder_write_replaces_its_own_files_only(tmp_path: Path) -> None:
    (tmp_path / "u.jsonl").write_bytes(b"old\n")
    (tmp_path / "other.txt").write_bytes(b"kept\n")
    files = jsonl_folder_write(
        [{"UID": "u", "n": 1}, {"UID": "v", "n": 2}, {"UID": "u", "n": 3}],
        tmp_path,
        lambda group: (f"{r['n']}\n".encode() for r in group),
    )
    assert [(f.uid, f.path, f.rows) for f in files] == [("u", "u.jsonl", 2), ("v", "v.jsonl", 1)]
    assert (tmp_path / "u.jsonl").read_bytes() == b"1\n3\n"
    assert (tmp_path / "other.txt").read_bytes() == b"kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.txt", "u.jsonl", "v.jsonl"]


def test_bytes_write_leaves_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_bytes(b"old\n")

    def broken() -> Iterator[bytes]:
        yield b"new\n"
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        bytes_write(broken(), target)
    assert target.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]  # no partial file left
