"""Reads for grammar templates."""

from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

from django.db.models import Count, Max, OuterRef, QuerySet, Subquery
from django.utils.translation import get_language_info

from generator.errors import Problem
from mpp_studio.paradigms.models import LibraryTemplate


@dataclass(frozen=True, slots=True)
class PhenomenonGroup:
    name: str
    templates: list[LibraryTemplate]


@dataclass(frozen=True, slots=True)
class LanguageGroup:
    code: str
    name: str
    phenomena: list[PhenomenonGroup]

    @property
    def template_count(self) -> int:
        return sum(len(group.templates) for group in self.phenomena)


@dataclass(frozen=True, slots=True)
class ProblemView:
    """A stored problem as the page shows it."""

    code: str
    message: str
    where: str  # "sv.yaml, line 12, bad grammar, position 3 (verb)": the engine's words
    line: int | None
    in_template: bool  # the line is a line of the template's own YAML (not of a phrase file)


@dataclass(frozen=True, slots=True)
class SourceLine:
    number: int
    text: str
    has_problem: bool


@dataclass(frozen=True, slots=True)
class TemplateDetail:
    """Everything the paradigm page shows about one stored template version."""

    template: LibraryTemplate
    versions: list[LibraryTemplate]  # every version of its file, newest first
    problems: list[ProblemView]
    source_lines: list[SourceLine]
    phrase_files: list[tuple[str, str]]  # (path as written, text)

    @property
    def language_name(self) -> str:
        return _language_name(self.template.language)

    @property
    def phenomenon_name(self) -> str:
        return _phenomenon_name(self.template.phenomenon)

    @property
    def version_number(self) -> int:
        """Return this version's place among the versions of its file, the oldest being 1."""
        return len(self.versions) - [v.pk for v in self.versions].index(self.template.pk)


def template_latest_list() -> QuerySet[LibraryTemplate]:
    """Return the newest version of each template file, annotated with `version_count`.

    Ordered by language, phenomenon and uid.
    """
    latest_ids = LibraryTemplate.objects.values("file_name").annotate(latest=Max("id")).values("latest")
    version_count = (
        LibraryTemplate.objects.filter(file_name=OuterRef("file_name"))
        .values("file_name")
        .annotate(n=Count("id"))
        .values("n")
    )
    return (
        LibraryTemplate.objects.filter(id__in=Subquery(latest_ids))
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
        phenomena.sort(key=lambda group: not group.templates[0].phenomenon)  # "not given" last
        languages.append(LanguageGroup(code=code, name=_language_name(code), phenomena=phenomena))
    languages.sort(key=lambda group: not group.code)  # "Language not given" last
    return languages


def template_detail_get(*, template_id: int) -> TemplateDetail | None:
    """Return the paradigm page's view of a stored template version, or None if there is none."""
    template = LibraryTemplate.objects.select_related("vocabulary").filter(pk=template_id).first()
    if template is None:
        return None
    versions = list(LibraryTemplate.objects.filter(file_name=template.file_name).order_by("-id"))
    problems = template_problem_list(template)
    problem_lines = {p.line for p in problems if p.in_template and p.line is not None}
    source_lines = [
        SourceLine(number, text, number in problem_lines)
        for number, text in enumerate(template.source_text.splitlines(), start=1)
    ]
    return TemplateDetail(
        template=template,
        versions=versions,
        problems=problems,
        source_lines=source_lines,
        phrase_files=sorted(template.phrase_texts.items()),
    )


def template_problem_list(template: LibraryTemplate) -> list[ProblemView]:
    """Return the stored problems of a template version, located in words."""
    own_name = Path(template.file_name).name
    views = []
    for raw in template.problems:
        problem = Problem(
            code=str(raw.get("code", "")),
            message=str(raw.get("message", "")),
            template=str(raw.get("template") or ""),
            grammar=str(raw.get("grammar") or ""),
            position=str(raw.get("position") or ""),
            line=raw.get("line") if isinstance(raw.get("line"), int) else None,
        )
        views.append(
            ProblemView(
                code=problem.code,
                message=problem.message,
                where=problem.location(),
                line=problem.line,
                in_template=problem.template in ("", own_name),
            )
        )
    return views


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
