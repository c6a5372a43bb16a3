"""Read a JSON file of another benchmark, reporting bad bytes or syntax by line and column."""

from __future__ import annotations

import json
from typing import Any


class JsonFileError(ValueError):
    """A file that is not UTF-8 JSON; `where` names the line (and column) of the problem."""

    def __init__(self, message: str, where: str) -> None:
        super().__init__(message)
        self.where = where


def read_json(data: bytes) -> Any:
    """Return the parsed JSON in `data` (UTF-8, BOM allowed).

    Raises:
        JsonFileError: saying where the text is not UTF-8 or not JSON.
    """
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise JsonFileError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02X}); save the file as UTF-8", f"line {line}"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonFileError(f"not valid JSON ({exc.msg})", f"line {exc.lineno}, column {exc.colno}") from None
