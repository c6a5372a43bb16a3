"""Reading an uploaded or local file as numbered UTF-8 lines, one at a time, reporting bad bytes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

from formats.record import IssueList

HEAD_BYTES = 8_192  # how much of a file is looked at to tell binary data from text
MAX_LINE_BYTES = 1024 * 1024  # a longer line is reported, not read (no pair is that long)
_BOMS = {b"\xff\xfe": "UTF-16 (little-endian)", b"\xfe\xff": "UTF-16 (big-endian)"}


def binary_reason(head: bytes) -> str:
    """Return why the start of a file shows it is not UTF-8 text ("" when it may be text)."""
    for bom, name in _BOMS.items():
        if head.startswith(bom):
            return f"the file is {name} text; save it as UTF-8"
    if b"\x00" in head:
        return "the file is binary data (it contains NUL bytes), not text"
    return ""


def _raw_lines(stream: IO[bytes], chunk_size: int = 1 << 16) -> Iterator[bytes | None]:
    """Yield the stream's lines split at "\n" only, read a chunk at a time; None for a line
    longer than MAX_LINE_BYTES (not kept in memory).

    Not the stream's own iteration: Django's upload files also split at a lone "\r", which
    would number lines differently from the file as an editor shows it.
    """
    pending: list[bytes] = []
    size = 0
    too_long = False
    while chunk := stream.read(chunk_size):
        parts = chunk.split(b"\n")
        for index, part in enumerate(parts):
            if not too_long:
                pending.append(part)
                size += len(part)
                if size > MAX_LINE_BYTES:
                    too_long, pending = True, []
            if index < len(parts) - 1:  # the part ends a line
                yield None if too_long else b"".join(pending)
                pending, size, too_long = [], 0, False
    if too_long or size:
        yield None if too_long else b"".join(pending)


def numbered_lines(stream: IO[bytes], issues: IssueList) -> Iterator[tuple[int, str]]:
    """Yield (line number, text) for each line of a UTF-8 file, line ends removed.

    A binary file yields nothing and is reported once; a line that is not UTF-8 is reported
    with the offending byte and skipped, and the lines after it are read as usual.
    """
    head = stream.read(HEAD_BYTES)
    reason = binary_reason(head)
    if reason:
        issues.error(None, reason)
        return
    stream.seek(0)
    for number, raw in enumerate(_raw_lines(stream), 1):
        if raw is None:
            issues.error(number, f"the line is longer than {MAX_LINE_BYTES // 1024 // 1024} MiB; not read")
            continue
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        raw = raw.removesuffix(b"\r")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            issues.error(
                number,
                f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at byte {exc.start + 1} of the line "
                "(save the file as UTF-8)",
            )
            continue
        yield number, text
