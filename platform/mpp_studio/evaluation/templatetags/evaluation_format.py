"""Template filters of the scoring pages: accuracies as percentages, differences in points,
scores and p-values, each "—" when missing."""

import math

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

register = template.Library()
MISSING = "—"


def _number(value: object) -> float | None:
    if value is None or value == "":
        return None
    try:
        number = float(value)  # type: ignore[arg-type]  # anything: what float refuses is caught
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


@register.filter
def pct(value: object, digits: int = 1) -> str:
    """Return a fraction as a percentage: 0.8125 -> "81.2%" ("—" when missing)."""
    number = _number(value)
    return MISSING if number is None else f"{100 * number:.{int(digits)}f}%"


@register.filter
def points(value: object) -> str:
    """Return a difference of fractions in percentage points, signed: 0.05 -> "+5.0 pts"."""
    number = _number(value)
    return MISSING if number is None else f"{100 * number:+.1f} pts".replace("-", "−")


@register.filter
def score(value: object, digits: int = 3) -> str:
    """Return a score with `digits` decimals (−∞ and ∞ as such; "—" when missing)."""
    number = _number(value)
    if number is None:
        return MISSING
    if math.isinf(number):
        return "−∞" if number < 0 else "∞"
    return f"{number:.{int(digits)}f}".replace("-", "−")


@register.filter
def pvalue(value: object) -> str:
    """Return a p-value: "< 0.001" below a thousandth, else three decimals."""
    number = _number(value)
    if number is None:
        return MISSING
    return "< 0.001" if number < 0.001 else f"{number:.3f}"


@register.filter
def get_item(mapping: object, key: object) -> object:
    """Return mapping[key] (None when absent): for per-phenomenon cells keyed by name."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def breakable(value: object) -> str:
    """Return the text, escaped, with a line-break chance after each underscore, so a narrow
    column header such as subject_verb_agreement breaks between words, not inside them."""
    return mark_safe(escape(str(value)).replace("_", "_<wbr>"))  # escaped just before
