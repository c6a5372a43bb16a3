"""Template filters for showing paradigm identifiers and file names."""

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def breakable(text: object) -> SafeString:
    """Return `text` escaped, with line-break opportunities after `_` and `/`.

    Long uids (determiner_noun_agreement_demonstrative) and paths then wrap at their joints in
    narrow table columns instead of in the middle of a word.
    """
    escaped = str(escape(str(text)))
    return mark_safe(escaped.replace("_", "_<wbr>").replace("/", "/<wbr>"))  # escaped above
