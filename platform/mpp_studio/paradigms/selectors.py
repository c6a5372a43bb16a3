"""Reads for grammar templates."""

from dataclasses import dataclass
from itertools import groupby

from django.db.models import Count, Max, OuterRef, QuerySet, Subquery
from django.utils.translation import get_language_info

from mpp_studio.paradigms.models import Template


@dataclass(frozen=True, slots=True)
class PhenomenonGroup:
    name: str
    templates: list[Template]


@dataclass(frozen=True, slots=True)
class LanguageGroup:
    code: str
    name: str
    phenomena: list[PhenomenonGroup]

    @property
    def template_count(self) -> int:
        return sum(len(group.templates) for group in self.phenomena)


def template_latest_list() -> QuerySet[Template]:
    """Return the newest version of each template file, annotated with `version_count`.

    Ordered by language, phenomenon and uid.
    """
    latest_ids = Template.objects.values("file_name").annotate(latest=Max("id")).values("latest")
    version_count = (
        Template.objects.filter(file_name=OuterRef("file_name"))
        .values("file_name")
        .annotate(n=Count("id"))
        .values("n")
    )
    return (
        Template.objects.filter(id__in=Subquery(latest_ids))
        .select_related("vocabulary")
        .annotate(version_count=Subquery(version_count))
        .order_by("language", "phenomenon", "uid", "file_name")
    )


def template_library_overview() -> list[LanguageGroup]:
    """Return the newest template versions grouped by language, then by phenomenon."""
    languages = []
    for code, in_language in groupby(template_latest_list(), key=lambda t: t.language):
        phenomena = [
            PhenomenonGroup(name=_phenomenon_name(name), templates=list(templates))
            for name, templates in groupby(in_language, key=lambda t: t.phenomenon)
        ]
        languages.append(LanguageGroup(code=code, name=_language_name(code), phenomena=phenomena))
    return languages


def _phenomenon_name(phenomenon: str) -> str:
    # Templates name phenomena as identifiers (subject_verb_agreement); show them as words.
    return phenomenon.replace("_", " ") if phenomenon else "Phenomenon not given"


# Django's language table knows only its own locales ("zh-hans", not "zh").
_LANGUAGE_NAMES = {"zh": "Chinese", "yue": "Cantonese"}


def _language_name(code: str) -> str:
    if not code:
        return "Language not given"
    if code in _LANGUAGE_NAMES:
        return _LANGUAGE_NAMES[code]
    try:
        return str(get_language_info(code)["name"])
    except KeyError:
        return code
