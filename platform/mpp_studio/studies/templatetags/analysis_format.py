"""Number formats of the study analysis page: shares as percentages, times in ms, p-values."""

import math

from django import template

register = template.Library()


def _number(value: object) -> float | None:
    if value is None or isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if math.isnan(value) else float(value)


@register.filter
def pct(value: object, digits: int = 1) -> str:
    """Return a share as a percentage ("87.5%"), or "–" when there is none."""
    number = _number(value)
    return "–" if number is None else f"{number * 100:.{digits}f}%"


@register.filter
def ms(value: object) -> str:
    """Return a time in whole milliseconds ("1,234 ms"), or "–"."""
    number = _number(value)
    return "–" if number is None else f"{number:,.0f} ms"


@register.filter
def pval(value: object) -> str:
    """Return a p-value with three significant digits ("0.0312", "< 0.0001"), or "–"."""
    number = _number(value)
    if number is None:
        return "–"
    return "< 0.0001" if number < 0.0001 else f"{number:.3g}"


@register.filter
def num(value: object, digits: int = 3) -> str:
    """Return a statistic rounded to `digits` decimals, or "–" when it is undefined."""
    number = _number(value)
    return "–" if number is None else f"{number:.{digits}f}"
