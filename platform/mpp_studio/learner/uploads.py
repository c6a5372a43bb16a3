"""Uploaded learner-corpus files: the size limits, the UTF-8 check, and the header row.

The upload request checks each file's bytes before keeping it for the job that reads it: a file
over the size limit, binary data or text that is not UTF-8 is refused with a message naming the
file (and the line of the first bad byte). The check reads the stream a chunk at a time and
stops at the first problem, so what it costs does not grow with the file.
"""

import codecs
from dataclasses import dataclass
from pathlib import PurePath
from typing import IO

from django.conf import settings

from formats.lines import HEAD_BYTES, MAX_LINE_BYTES, binary_reason
from mpp_studio.core.uploads import size_text

DEFAULT_MAX_BYTES = 50 * 1024 * 1024
CHECK_CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class Upload:
    """A file to read: its name as the user gave it and a binary stream of its bytes."""

    name: str
    stream: IO[bytes]
    size: int | None = None


class UploadError(Exception):
    """The file cannot be read at all (too big, binary, not UTF-8); the message names it."""


DEFAULT_MAX_PAIRS = 500_000


def max_pairs() -> int:
    """Return the most pairs one corpus may hold (setting MPP_LEARNER_MAX_PAIRS), and the most
    rows its metadata table may have: the job that reads a corpus stops at the first pair (or
    row) over it, and every triplet run over the corpus works through all its pairs."""
    return int(getattr(settings, "MPP_LEARNER_MAX_PAIRS", DEFAULT_MAX_PAIRS))


def max_upload_bytes() -> int:
    """Return the largest file a learner upload takes (setting MPP_LEARNER_UPLOAD_MAX_BYTES)."""
    return int(getattr(settings, "MPP_LEARNER_UPLOAD_MAX_BYTES", DEFAULT_MAX_BYTES))


def display_name(name: str) -> str:
    """Return the file's own name, without any folder a browser may send."""
    return PurePath(name.replace("\\", "/")).name or "upload"


def upload_check(upload: Upload) -> int:
    """Check an upload's bytes, a chunk at a time, and rewind it; return its size in bytes.

    Raises:
        UploadError: the file is larger than the limit (counted as it is read when its size is
            not given), binary, UTF-16, empty, or not UTF-8 (naming the line and byte of the
            first bad byte).
    """
    name = display_name(upload.name)
    limit = max_upload_bytes()
    if upload.size is not None and upload.size > limit:
        raise UploadError(
            f"{name} is {size_text(upload.size)}; files up to {size_text(limit)} can be uploaded. "
            "Split the corpus into smaller files and upload them as separate corpora."
        )
    decoder = codecs.getincrementaldecoder("utf-8")()
    read = 0
    line = 1
    first = True
    while chunk := upload.stream.read(CHECK_CHUNK):
        if first:
            reason = binary_reason(chunk[:HEAD_BYTES])
            if reason:
                raise UploadError(f"{name}: {reason}. Upload a UTF-8 text file (.m2, .tsv or .csv).")
            first = False
        read += len(chunk)
        if read > limit:
            raise UploadError(
                f"{name} is larger than {size_text(limit)}, the most a learner upload takes. "
                "Split the corpus into smaller files and upload them as separate corpora."
            )
        try:
            decoder.decode(chunk)
        except UnicodeDecodeError as exc:
            bad_line = line + chunk[: exc.start].count(b"\n")
            raise UploadError(
                f"{name} is not UTF-8 text: byte 0x{chunk[exc.start]:02x} on line {bad_line} "
                "cannot be read (the file may be Latin-1 or Windows-1252). Save it as UTF-8 "
                "and upload it again."
            ) from None
        line += chunk.count(b"\n")
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise UploadError(
            f"{name} is not UTF-8 text: it ends in the middle of a character (line {line}). "
            "Save it as UTF-8 and upload it again."
        ) from None
    if read == 0:
        raise UploadError(f"{name} is empty.")
    upload.stream.seek(0)
    return read


def _first_line(stream: IO[bytes]) -> str:
    """Return the stream's first non-blank line (a BOM dropped), and rewind it."""
    stream.seek(0)
    try:
        while raw := stream.readline(MAX_LINE_BYTES):
            text = raw.decode("utf-8", "replace").removeprefix("\ufeff")
            if text.strip():
                return text.rstrip("\r\n")
        return ""
    finally:
        stream.seek(0)


def sniff_delimiter(stream: IO[bytes]) -> str:
    """Return tab when the stream's first non-blank line has a tab, else comma (rewound)."""
    return "\t" if "\t" in _first_line(stream) else ","


def header_row(stream: IO[bytes], delimiter: str) -> list[str]:
    """Return the cells of the stream's first non-blank line (a BOM dropped), stripped (rewound)."""
    text = _first_line(stream)
    return [cell.strip().strip('"') for cell in text.split(delimiter)] if text else []
