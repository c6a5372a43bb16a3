"""Numbers as pages and dataset cards write them: shares as percentages, statistics rounded,
p-values with three significant digits, times in milliseconds; "–" for a value that is missing,
not a number or NaN."""

import math


def _number(value: object) -> float | None:
    if value is None or isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if math.isnan(value) else float(value)


def share_text(value: object, digits: int = 1) -> str:
    """Return a share as a percentage ("87.5%"), or "–"."""
    number = _number(value)
    return "–" if number is None else f"{number * 100:.{digits}f}%"


def number_text(value: object, digits: int = 2) -> str:
    """Return a statistic rounded to `digits` decimals, or "–"."""
    number = _number(value)
    return "–" if number is None else f"{number:.{digits}f}"


def p_text(value: object) -> str:
    """Return a p-value with three significant digits ("0.0312", "< 0.0001"), or "–"."""
    number = _number(value)
    if number is None:
        return "–"
    return "< 0.0001" if number < 0.0001 else f"{number:.3g}"


def ms_text(value: object) -> str:
    """Return a time in whole milliseconds ("1,234 ms"), or "–"."""
    number = _number(value)
    return "–" if number is None else f"{number:,.0f} ms"
