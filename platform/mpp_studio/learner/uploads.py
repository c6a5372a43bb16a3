"""Uploaded learner-corpus files on disk: the size limit, the UTF-8 check, and the header row.

The engine's readers read paths, so each upload is copied into a temporary folder under its own
name (the readers name pairs after the file's stem). While copying, the bytes are checked: a file
over the size limit, binary data or text that is not UTF-8 is refused with a message naming the
file (and the line of the first bad byte), before anything is read.
"""

import codecs
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import IO

from django.conf import settings

from generator.formats.lines import HEAD_BYTES, binary_reason
from mpp_studio.core.uploads import size_text

DEFAULT_MAX_BYTES = 50 * 1024 * 1024
COPY_CHUNK = 1 << 16


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
    """Return the most pairs one corpus may hold (setting MPP_LEARNER_MAX_PAIRS): storing them is
    part of the upload request (~26 s for 300,000 pairs on SQLite), so the limit keeps it well
    inside the server's request timeout."""
    return int(getattr(settings, "MPP_LEARNER_MAX_PAIRS", DEFAULT_MAX_PAIRS))


def max_upload_bytes() -> int:
    """Return the largest file a learner upload takes (setting MPP_LEARNER_UPLOAD_MAX_BYTES)."""
    return int(getattr(settings, "MPP_LEARNER_UPLOAD_MAX_BYTES", DEFAULT_MAX_BYTES))


def display_name(name: str) -> str:
    """Return the file's own name, without any folder a browser may send."""
    return PurePath(name.replace("\\", "/")).name or "upload"


def save_checked(upload: Upload, folder: Path) -> Path:
    """Copy the upload into `folder` under its own name; return the path.

    Raises:
        UploadError: the file is larger than the limit, binary, UTF-16, or not UTF-8 (naming
            the line and byte of the first bad byte).
    """
    name = display_name(upload.name)
    limit = max_upload_bytes()
    if upload.size is not None and upload.size > limit:
        raise UploadError(
            f"{name} is {size_text(upload.size)}; files up to {size_text(limit)} can be uploaded. "
            "Split the corpus into smaller files and upload them as separate corpora."
        )
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    decoder = codecs.getincrementaldecoder("utf-8")()
    written = 0
    line = 1
    first = True
    with path.open("wb") as out:
        while chunk := upload.stream.read(COPY_CHUNK):
            if first:
                reason = binary_reason(chunk[:HEAD_BYTES])
                if reason:
                    raise UploadError(f"{name}: {reason}. Upload a UTF-8 text file (.m2, .tsv or .csv).")
                first = False
            written += len(chunk)
            if written > limit:
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
            out.write(chunk)
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise UploadError(
                f"{name} is not UTF-8 text: it ends in the middle of a character (line {line}). "
                "Save it as UTF-8 and upload it again."
            ) from None
    if written == 0:
        raise UploadError(f"{name} is empty.")
    return path


def sniff_delimiter(path: Path) -> str:
    """Return tab when the file's first non-blank line has a tab, else comma."""
    with path.open(encoding="utf-8-sig", newline="") as stream:
        for text in stream:
            if text.strip():
                return "\t" if "\t" in text else ","
    return ","


def header_row(path: Path, delimiter: str) -> list[str]:
    """Return the cells of the file's first non-blank line (a BOM dropped), stripped."""
    with path.open(encoding="utf-8-sig", newline="") as stream:
        for text in stream:
            if text.strip():
                return [cell.strip().strip('"') for cell in text.rstrip("\r\n").split(delimiter)]
    return []
