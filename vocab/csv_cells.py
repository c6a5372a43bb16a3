"""Spreadsheet-safe cells: the one rule every CSV/TSV export and the vocabulary reader follow.

A cell whose text begins with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a formula
by spreadsheet programs (LibreOffice Calc, Excel): a sentence, a word or a participant's answer
could then run as one when a researcher opens the export ("CSV injection"). As OWASP recommends,
such a cell is written with a leading apostrophe, which spreadsheets show as text. Numbers are
left alone (a negative log-probability is not a formula), and so is every JSONL export, which
keeps the raw text. Reading a vocabulary table takes the apostrophe off again
(`restore_cell`), so an exported vocabulary imports back unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_QUOTE = "'"


def _is_number(text: str) -> bool:
    try:
        value = float(text)
    except ValueError:
        return False
    return math.isfinite(value)


def _starts_formula(text: str) -> bool:
    # Apostrophes before a formula start are looked through, so that text which already begins
    # with "'=" gets one more and reads back as itself (see restore_cell).
    return text.lstrip(_QUOTE).startswith(FORMULA_STARTS)


def safe_cell(value: object) -> object:
    """Return `value` as a spreadsheet must receive it: text that would start a formula gets a
    leading apostrophe; numbers, numeric text and everything else are returned unchanged."""
    if isinstance(value, str) and _starts_formula(value) and not _is_number(value):
        return _QUOTE + value
    return value


def safe_row(values: Sequence[object]) -> list[object]:
    """Return the row with each cell passed through `safe_cell`."""
    return [safe_cell(value) for value in values]


def restore_cell(text: str) -> str:
    """Return the text `safe_cell` was given for a cell it wrote (one apostrophe before a formula
    start taken off); any other text unchanged."""
    if text.startswith(_QUOTE) and _starts_formula(text):
        return text[1:]
    return text
