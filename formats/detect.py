"""Telling a released dataset's format from its file name and first line."""

from __future__ import annotations

from pathlib import PurePath

import orjson

from formats.lines import HEAD_BYTES, binary_reason

MAX_LINES = 20  # lines looked at for the first JSON object (a bad first line does not decide)
BLIMP_KEYS = frozenset({"field", "linguistics_term", "simple_LM_method", "pair_id", "one_prefix_method"})


def detect_format(file_name: str, head: bytes) -> tuple[str, str]:
    """Return (format, reason): "blimp", "zhoblimp" or "zorro", or "" with why it cannot be told.

    The first line that is a JSON object decides (a malformed line before it does not): one
    with `phenomenon` is ZhoBLiMP, one with BLiMP's own fields (`field`, `linguistics_term`,
    `pair_id`, ...) is BLiMP; plain text in a `.txt` file is Zorro.
    """
    reason = binary_reason(head)
    if reason:
        return "", reason
    lines = head.splitlines()
    if len(head) >= HEAD_BYTES and len(lines) > 1:
        lines = lines[:-1]  # the last line may be cut off
    lines = [line.removeprefix(b"\xef\xbb\xbf") for line in lines if line.strip()]
    if not lines:
        return "", "the file is empty"
    value: object = None
    for line in lines[:MAX_LINES]:
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(value, dict):
            break
    if isinstance(value, dict):
        keys = set(value)
        if "phenomenon" in keys:
            return "zhoblimp", "its lines are JSON objects with a 'phenomenon' field"
        if keys & BLIMP_KEYS:
            return "blimp", "its lines are JSON objects with BLiMP's fields"
        if {"sentence_good", "sentence_bad"} <= keys:
            return "", (
                "its lines are JSON objects with sentence_good and sentence_bad but neither BLiMP's "
                "fields (field, linguistics_term, pair_id) nor ZhoBLiMP's 'phenomenon': choose the format"
            )
        return "", "its first JSON object has no sentence_good and sentence_bad"
    suffix = PurePath(file_name).suffix.lower()
    if suffix in (".jsonl", ".json"):
        return "", f"none of its first {min(len(lines), MAX_LINES)} lines is a JSON object"
    if suffix in (".txt", ""):
        return "zorro", "it is plain text, one sentence a line"
    return "", f"a '{suffix}' file that is neither JSON lines nor plain text: choose the format"
