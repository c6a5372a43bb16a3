"""Number formats of the study analysis page, as filters over `core.number_text` (the one owner
of how a share, a time, a statistic or a p-value is written)."""

from django import template

from mpp_studio.core.number_text import ms_text, number_text, p_text, share_text

register = template.Library()


@register.filter
def pct(value: object, digits: int = 1) -> str:
    """Return a share as a percentage ("87.5%"), or "–" when there is none."""
    return share_text(value, digits)


@register.filter
def ms(value: object) -> str:
    """Return a time in whole milliseconds ("1,234 ms"), or "–"."""
    return ms_text(value)


@register.filter
def pval(value: object) -> str:
    """Return a p-value with three significant digits ("0.0312", "< 0.0001"), or "–"."""
    return p_text(value)


@register.filter
def num(value: object, digits: int = 3) -> str:
    """Return a statistic rounded to `digits` decimals, or "–" when it is undefined."""
    return number_text(value, digits)
