"""One file per paradigm: records grouped by UID, each group's file named after its UID, and
files written whole or not at all (BLiMP's and ZhoBLiMP's `<UID>.jsonl`, the Parquet files of a
Hugging Face folder)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from formats.record import record_text

Records = list[Mapping[str, object]]


@dataclass(frozen=True, slots=True)
class UidFile:
    """One paradigm's file in an output folder and how many pairs it holds."""

    uid: str
    path: str  # relative to the folder
    rows: int


def uid_file_stem(uid: str) -> str:
    """Return a paradigm's file name without its suffix: its UID with anything but letters,
    digits and `._-` replaced by `_`."""
    return re.sub(r"[^\w.-]+", "_", uid).strip(".") or "paradigm"


def unique_file_stem(uid: str, used: set[str]) -> str:
    """Return `uid_file_stem(uid)`, with `_` added while it is in `used` (compared without case:
    stems that differ only in case are one file on a case-insensitive disk); add it to `used`."""
    stem = uid_file_stem(uid)
    while stem.lower() in used:
        stem += "_"
    used.add(stem.lower())
    return stem


def records_by_uid(records: Iterable[Mapping[str, object]]) -> Iterator[tuple[str, str, Records]]:
    """Yield (UID, file stem, records) per UID, in the order the UIDs are met, each group in its
    records' order; two UIDs that give one stem are kept apart (`unique_file_stem`)."""
    groups: dict[str, Records] = {}
    for record in records:
        groups.setdefault(record_text(record, "UID"), []).append(record)
    used: set[str] = set()
    for uid, group in groups.items():
        yield uid, unique_file_stem(uid, used), group


def bytes_write(chunks: Iterable[bytes], target: Path) -> None:
    """Write the chunks to `target` through `<target>.partial`, so that `target` is either the
    whole new file or as it was, and no partial file stays (raises OSError as the disk does)."""
    partial = target.with_name(target.name + ".partial")
    try:
        with partial.open("wb") as handle:
            for chunk in chunks:
                handle.write(chunk)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def jsonl_folder_write(
    records: Iterable[Mapping[str, object]],
    folder: Path,
    lines: Callable[[Records], Iterable[bytes]],
) -> list[UidFile]:
    """Write one `<UID>.jsonl` per paradigm into `folder` (made if missing), each holding
    `lines` of the paradigm's records; return the files in the order the UIDs are met.

    A file of that name already in the folder is replaced; other files are left alone.

    Raises:
        OSError: when the folder cannot be made or a file written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    files: list[UidFile] = []
    for uid, stem, group in records_by_uid(records):
        path = f"{stem}.jsonl"
        bytes_write(lines(group), folder / path)
        files.append(UidFile(uid, path, len(group)))
    return files
