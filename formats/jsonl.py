"""What the JSONL readers share: one JSON object a line, with its text fields checked."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import IO

import orjson

from formats.lines import numbered_lines
from formats.record import IssueList


def type_name(value: object) -> str:
    """Return a JSON type's name for a message ("number", "list", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def json_objects(stream: IO[bytes], issues: IssueList) -> Iterator[tuple[int, dict[str, object]]]:
    """Yield (line number, object) for each line that is a JSON object; report every other line."""
    for number, text in numbered_lines(stream, issues):
        if not text.strip():
            issues.warning(number, "blank line ignored")
            continue
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            issues.error(number, f"not JSON: {exc}")
            continue
        if not isinstance(value, dict):
            issues.error(number, f"a line must be one JSON object; this one is {type_name(value)}")
            continue
        yield number, value


def required_text(
    data: Mapping[str, object], key: str, number: int, issues: IssueList, *, allow_empty: bool = False
) -> str | None:
    """Return `data[key]` if it is text (non-blank unless allowed); report it and return None if not."""
    if key not in data:
        issues.error(number, "the line lacks this field", field=key)
        return None
    value = data[key]
    if not isinstance(value, str):
        issues.error(number, f"must be text; found {type_name(value)}", field=key)
        return None
    if not allow_empty and not value.strip():
        issues.error(number, "is empty", field=key)
        return None
    return value


def sentences(data: Mapping[str, object], number: int, issues: IssueList) -> tuple[str, str] | None:
    """Return the pair's (good, bad) sentences, or None (reported) when either is unusable.

    A pair whose sentences are equal is kept, with a warning: released data has a few.
    """
    good = required_text(data, "sentence_good", number, issues)
    bad = required_text(data, "sentence_bad", number, issues)
    if good is None or bad is None:
        return None
    if good == bad:
        issues.warning(number, "the good and the bad sentence are identical")
    return good, bad
