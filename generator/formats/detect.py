"""Telling a released dataset's format from its file name and first line."""

from __future__ import annotations

from pathlib import PurePath

import orjson

from generator.formats.lines import binary_reason

BLIMP_KEYS = frozenset({"field", "linguistics_term", "simple_LM_method", "pair_id", "one_prefix_method"})


def detect_format(file_name: str, head: bytes) -> tuple[str, str]:
    """Return (format, reason): "blimp", "zhoblimp" or "zorro", or "" with why it cannot be told.

    The first non-blank line decides: a JSON object with `phenomenon` is ZhoBLiMP, one with
    BLiMP's own fields (`field`, `linguistics_term`, `pair_id`, ...) is BLiMP; plain text in
    a `.txt` file is Zorro.
    """
    reason = binary_reason(head)
    if reason:
        return "", reason
    first = next((line for line in head.splitlines() if line.strip()), b"")
    if first.startswith(b"\xef\xbb\xbf"):
        first = first[3:]
    if not first:
        return "", "the file is empty"
    try:
        value = orjson.loads(first)
    except orjson.JSONDecodeError:
        value = None
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
        return "", "its first line is a JSON object without sentence_good and sentence_bad"
    suffix = PurePath(file_name).suffix.lower()
    if suffix in (".txt", ""):
        return "zorro", "it is plain text, one sentence a line"
    return "", f"a '{suffix}' file that is neither JSON lines nor plain text: choose the format"
