"""Checks of the plain fields of vocabularies and items, with messages that name what is wrong."""

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.db import models

from mpp_studio.lexicon.models import Vocabulary, VocabularyItem

# A BCP 47 tag in its common shapes (en, zh, zh-Hans, pt-BR, yue-Hant-HK); blank means "not given".
LANGUAGE_PATTERN = r"^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$"
_LANGUAGE = re.compile(LANGUAGE_PATTERN)
# What `text_problem` takes, as patterns for the API's schema: one line of text, no character of
# Unicode category Cc (U+0000-U+001F, U+007F-U+009F); with something besides spaces; and a
# vocabulary name, which has no '/' either (`vocabulary_name_check`).
_CC = r"\x00-\x1f\x7f-\x9f"
ONE_LINE_PATTERN = rf"^[^{_CC}]*$"
ONE_LINE_NON_BLANK_PATTERN = rf"^[^{_CC}]*[^{_CC}\s][^{_CC}]*$"
VOCABULARY_NAME_PATTERN = rf"^[^{_CC}/]*[^{_CC}/\s][^{_CC}/]*$"


def field_limit(model: type[Vocabulary] | type[VocabularyItem], field: str) -> int:
    """Return the max_length of a model's character field."""
    model_field = model._meta.get_field(field)
    assert isinstance(model_field, models.Field)  # a column, not a relation
    limit = model_field.max_length
    assert limit is not None
    return limit


def text_problem(value: str, *, label: str, limit: int, required: bool = True) -> str | None:
    """Return why a one-line text cannot be stored (blank, too long, control characters), or None."""
    if not value:
        return f"the {label} is required" if required else None
    if len(value) > limit:
        return f"the {label} is {len(value)} characters long; the limit is {limit}"
    bad = next((ch for ch in value if unicodedata.category(ch) == "Cc"), None)
    if bad is not None:
        shown = {"\n": "a line break", "\r": "a line break", "\t": "a tab", "\x00": "a NUL byte"}
        return f"the {label} holds {shown.get(bad, 'a control character')}; keep it on one line"
    return None


def vocabulary_name_check(name: str) -> str:
    """Return the name stripped.

    Raises:
        ValidationError: {"name": ...} if the name is blank, too long or holds a slash.
    """
    name = name.strip()
    problem = text_problem(name, label="name", limit=field_limit(Vocabulary, "name"))
    if problem is None and "/" in name:
        problem = "a vocabulary name cannot contain '/' (templates name vocabularies by name or file stem)"
    if problem is not None:
        raise ValidationError({"name": problem})
    return name


def language_check(language: str) -> str:
    """Return the language code stripped ("" when not given).

    Raises:
        ValidationError: {"language": ...} if it is not a language code such as en, zh or zh-Hans.
    """
    language = language.strip()
    if language and (len(language) > field_limit(Vocabulary, "language") or not _LANGUAGE.match(language)):
        raise ValidationError(
            {"language": f"'{language}' is not a language code; use a code such as en, zh or zh-Hans"}
        )
    return language
