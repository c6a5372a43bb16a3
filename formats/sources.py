"""Reading released datasets from several files at once: folders and zip archives opened, each
file's format detected (or given), every file's issues gathered in one result."""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import IO

from formats.blimp import blimp_pairs
from formats.detect import detect_format
from formats.lines import HEAD_BYTES
from formats.record import FileRead, ImportedPair, ImportIssue, IssueList, ReadResult
from formats.zhoblimp import zhoblimp_pairs
from formats.zorro import Order, zorro_pairs

FORMATS = ("blimp", "zhoblimp", "zorro")
DATA_SUFFIXES = (".jsonl", ".json", ".txt")
MAX_UNZIPPED_BYTES = 512 * 1024 * 1024  # what a zip may unpack to, in all


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to read: its name as reported, and how to open it for reading bytes."""

    name: str
    open: Callable[[], IO[bytes]]


def is_zip(name: str, head: bytes) -> bool:
    """Return whether a file is a zip archive (by its name or its first bytes)."""
    return name.lower().endswith(".zip") or head.startswith(b"PK\x03\x04")


def zip_sources(name: str, stream: IO[bytes]) -> tuple[list[SourceFile], list[ImportIssue]]:
    """Return the data files inside a zip archive, and what was left out of it and why.

    Folders, macOS metadata (`__MACOSX/`, `._*`) and hidden files are left out with a warning;
    a zip inside the zip is not opened (an error). The archive stays open while its members
    are read.
    """
    issues: list[ImportIssue] = []
    try:
        archive = zipfile.ZipFile(stream)
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        return [], [ImportIssue(name, None, f"not a readable zip archive: {exc}")]
    total = sum(info.file_size for info in infos)
    if total > MAX_UNZIPPED_BYTES:
        return [], [
            ImportIssue(
                name,
                None,
                f"the archive unpacks to {total:,} bytes, more than the {MAX_UNZIPPED_BYTES:,} allowed",
            )
        ]
    sources: list[SourceFile] = []
    for info in sorted(infos, key=lambda i: i.filename):
        if info.is_dir():
            continue
        member = f"{name}/{info.filename}"
        base = PurePath(info.filename).name
        if info.filename.startswith("__MACOSX/") or base.startswith("."):
            issues.append(ImportIssue(member, None, "metadata or hidden file, not data; left out", "warning"))
            continue
        if base.lower().endswith(".zip"):
            issues.append(
                ImportIssue(member, None, "a zip inside the zip is not opened; upload it on its own")
            )
            continue

        def opener(info: zipfile.ZipInfo = info) -> IO[bytes]:
            return archive.open(info)

        sources.append(SourceFile(member, opener))
    if not sources:
        issues.append(ImportIssue(name, None, "the archive holds no data files"))
    return sources, issues


def path_sources(
    paths: Sequence[str | Path], *, portable_names: bool = False
) -> tuple[list[SourceFile], list[ImportIssue]]:
    """Return the files named (folders give their .jsonl/.json/.txt/.zip files, sorted), and
    an issue for each path that does not exist.

    Files are named by their paths as given, or with `portable_names` (what the pairs read from
    them record as their `source_file`, so that no output holds a local path): a file given by
    its name, a file found in a folder given by the folder's name and its path inside it
    (`/home/me/released/data/x.jsonl` given as `/home/me/released` → `released/data/x.jsonl`).
    """
    sources: list[SourceFile] = []
    issues: list[ImportIssue] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in (*DATA_SUFFIXES, ".zip")
            )
            if not found:
                issues.append(
                    ImportIssue(str(path), None, "the folder holds no .jsonl, .json, .txt or .zip files")
                )
            folder = PurePath(path.resolve().name)
            sources += [
                SourceFile(
                    (folder / p.relative_to(path)).as_posix() if portable_names else str(p), _opener(p)
                )
                for p in found
            ]
        elif path.is_file():
            sources.append(SourceFile(path.name if portable_names else str(path), _opener(path)))
        else:
            issues.append(ImportIssue(str(path), None, "no such file or folder"))
    return sources, issues


def _opener(path: Path) -> Callable[[], IO[bytes]]:
    def open_file() -> IO[bytes]:
        return path.open("rb")

    return open_file


def read_stream(name: str, stream: IO[bytes], fmt: str = "auto", order: Order = "bad-first") -> ReadResult:
    """Return what one file holds, read as `fmt` ("auto": detected from its name and first line).

    A zip archive is opened and each data file in it read. Nothing raises for bad content:
    every problem is an issue of the result.
    """
    result = ReadResult()
    result.pairs = list(stream_pairs(name, stream, fmt, order, result))
    return result


def stream_pairs(
    name: str, stream: IO[bytes], fmt: str, order: Order, report: ReadResult
) -> Iterator[ImportedPair]:
    """Yield the pairs of one file (a zip: of each data file in it) as they are read, without
    holding them: a large import passes each on to be stored or counted.

    Each file's issues and outcome are added to `report` (its `pairs` are left alone) when the
    file's last pair has been passed on. Nothing raises for bad content."""
    try:
        head = stream.read(HEAD_BYTES)
        stream.seek(0)
    except OSError as exc:
        report.extend(_unreadable(name, f"could not be read: {exc}"))
        return
    if is_zip(name, head):
        members, left_out = zip_sources(name, stream)
        report.issues.extend(left_out)
        for member in members:
            try:
                with member.open() as handle:
                    yield from stream_pairs(member.name, handle, fmt, order, report)
            except (OSError, zipfile.BadZipFile, EOFError) as exc:
                report.extend(_unreadable(member.name, f"could not be unpacked: {exc}"))
        return
    chosen = fmt
    if fmt == "auto":
        chosen, reason = detect_format(name, head)
        if not chosen:
            report.extend(_unreadable(name, f"format not recognised: {reason}"))
            return
    if chosen not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use auto or one of {', '.join(FORMATS)}")
    file_issues = IssueList(name)
    count = 0
    try:
        pairs: Iterator[ImportedPair]
        if chosen == "blimp":
            pairs = blimp_pairs(stream, name, file_issues)
        elif chosen == "zhoblimp":
            pairs = zhoblimp_pairs(stream, name, file_issues)
        else:
            pairs = zorro_pairs(stream, name, file_issues, order)
        for pair in pairs:
            count += 1
            yield pair
    except (OSError, zipfile.BadZipFile, EOFError) as exc:
        # What was read before stays read; the file's outcome says it broke off.
        file_issues.error(None, f"could not be read to the end: {exc}")
    report.extend(file_issues.close(count, chosen))


def read_sources(sources: Iterable[SourceFile], fmt: str = "auto", order: Order = "bad-first") -> ReadResult:
    """Return everything the files hold, in order, with every file's issues."""
    result = ReadResult()
    for source in sources:
        try:
            with source.open() as stream:
                result.extend(read_stream(source.name, stream, fmt, order))
        except OSError as exc:
            result.extend(_unreadable(source.name, f"could not be opened: {exc}"))
    return result


def _unreadable(name: str, message: str) -> ReadResult:
    return ReadResult([], [ImportIssue(name, None, message)], [FileRead(name, "", 0, 1, 0)])
