"""Reads for grammar templates."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

from django.db.models import Count, Max, OuterRef, QuerySet, Subquery
from django.utils.translation import get_language_info

from generator.errors import Problem, TemplateError
from generator.phrase_usage import phrase_graph, template_phrase_names
from generator.template import phrases_from_texts
from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role
from mpp_studio.accounts.users import RequestUser
from mpp_studio.paradigms.models import LibraryTemplate, Phrase, Template, TemplateVersion
from mpp_studio.paradigms.project_engine import project_phrase_texts, project_template_check


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
        return language_name(self.template.language)

    @property
    def phenomenon_name(self) -> str:
        return phenomenon_name(self.template.phenomenon)

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
    return _overview(template_latest_list())


def _overview(templates: Iterable[LibraryTemplate]) -> list[LanguageGroup]:
    """Return templates (ordered by language, phenomenon, uid) grouped by language, then phenomenon."""
    languages = []
    for code, in_language in groupby(templates, key=lambda t: t.language):
        phenomena = [
            PhenomenonGroup(name=phenomenon_name(name), templates=list(templates))
            for name, templates in groupby(in_language, key=lambda t: t.phenomenon)
        ]
        phenomena.sort(key=lambda group: not group.templates[0].phenomenon)  # "not given" last
        languages.append(LanguageGroup(code=code, name=language_name(code), phenomena=phenomena))
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


def phenomenon_name(phenomenon: str) -> str:
    """Return a phenomenon identifier as words for pages."""
    # Templates name phenomena as identifiers (subject_verb_agreement); show them as words.
    return phenomenon.replace("_", " ") if phenomenon else "Phenomenon not given"


# Django's language table knows only its own locales ("zh-hans", not "zh").
_LANGUAGE_NAMES = {"zh": "Chinese", "yue": "Cantonese"}


def language_name(code: str) -> str:
    """Return a language code as a name for pages ("en" -> "English"; unknown codes as given)."""
    if not code:
        return "Language not given"
    if code in _LANGUAGE_NAMES:
        return _LANGUAGE_NAMES[code]
    try:
        return str(get_language_info(code)["name"])
    except KeyError:
        return code


# -- Project phrases and templates (pages and API of a project) -----------------------------------


@dataclass(frozen=True, slots=True)
class TemplateRecheck:
    """A template's latest version checked again against the project as it is now."""

    template: Template
    version_number: int
    problems: list[Problem]
    capacity_text: str

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass(frozen=True, slots=True)
class PhraseRow:
    """A phrase as the phrase list shows it: its alternatives and the templates that use it."""

    phrase: Phrase
    alternative_count: int | None  # None when the stored text does not parse (an old row)
    used_by: list[Template]


def template_latest_versions(*, project: Project) -> list[TemplateVersion]:
    """Return the latest version of each template of the project, its template loaded, by uid."""
    latest = (
        TemplateVersion.objects.filter(template=OuterRef("template")).order_by("-number").values("pk")[:1]
    )
    return list(
        TemplateVersion.objects.filter(template__project=project, pk=Subquery(latest))
        .select_related("template")
        .order_by("template__uid")
    )


def template_latest_versions_attach(templates: Sequence[Template]) -> None:
    """Load the latest version of each of `templates` (with its author) in one query and set it
    as `template.prefetched_latest_version` (None for a template without versions), so a list
    of templates does not query once per template."""
    latest = (
        TemplateVersion.objects.filter(template=OuterRef("template")).order_by("-number").values("pk")[:1]
    )
    versions = TemplateVersion.objects.filter(
        template__in=[template.pk for template in templates], pk=Subquery(latest)
    ).select_related("created_by")
    by_template = {version.template_id: version for version in versions}
    for template in templates:
        template.prefetched_latest_version = by_template.get(template.pk)  # type: ignore[attr-defined]  # for the list serializer


def phrase_usage_get(*, project: Project) -> dict[str, list[Template]]:
    """Return phrase name -> the templates whose latest versions use it (directly or not), by uid."""
    graph = phrase_graph(project_phrase_texts(project))
    usage: dict[str, list[Template]] = {name: [] for name in graph}
    for version in template_latest_versions(project=project):
        for name in sorted(template_phrase_names(version.source_text, graph)):
            usage[name].append(version.template)
    return usage


def phrase_users_get(*, project: Project, names: Iterable[str]) -> list[Template]:
    """Return the templates whose latest versions use any of the named phrases, by uid.

    A name the project has no phrase for counts too: a template that names it is one that a
    phrase of that name would serve (or did, before a rename or delete).
    """
    wanted = set(names)
    texts = project_phrase_texts(project)
    graph = phrase_graph(texts)
    for name in wanted - set(graph):
        graph[name] = frozenset()
    users = []
    for version in template_latest_versions(project=project):
        if template_phrase_names(version.source_text, graph) & wanted:
            users.append(version.template)
    return users


def phrase_list_get(*, project: Project) -> list[PhraseRow]:
    """Return every phrase of the project with its alternative count and its templates, by name."""
    usage = phrase_usage_get(project=project)
    return [
        PhraseRow(phrase, phrase_alternative_count(phrase), usage.get(phrase.name, []))
        for phrase in Phrase.objects.filter(project=project).order_by("name")
    ]


def phrase_get(*, project: Project, phrase_id: int) -> Phrase | None:
    """Return the project's phrase with this id, or None (another project's phrase is None too)."""
    return Phrase.objects.filter(project=project, pk=phrase_id).first()


def phrase_alternative_count(phrase: Phrase) -> int | None:
    """Return how many alternatives a stored phrase text lists (None if it does not parse)."""
    try:
        phrases, _ = phrases_from_texts({phrase.name: phrase.text})
    except TemplateError:
        return None
    return len(phrases[phrase.name].alternatives)


def template_recheck_list(*, project: Project, templates: Iterable[Template]) -> list[TemplateRecheck]:
    """Return the check of each template's latest version against the project as it is now."""
    rechecks = []
    for template in templates:
        version = template.latest_version()
        if version is None:
            continue
        check = project_template_check(
            project=project, source_text=version.source_text, file_name=f"{template.uid}.yaml"
        )
        rechecks.append(TemplateRecheck(template, version.number, check.problems, check.capacity_text))
    return rechecks


# -- The library catalogue: filters, and the projects a user may import into ----------------------


@dataclass(frozen=True, slots=True)
class LibraryFilterChoices:
    """The languages and phenomena the library's newest template versions have, as (value, label)."""

    languages: list[tuple[str, str]]
    phenomena: list[tuple[str, str]]


def library_template_list(*, language: str = "", phenomenon: str = "") -> QuerySet[LibraryTemplate]:
    """Return the newest version of each library template file, filtered by language and phenomenon."""
    templates = template_latest_list()
    if language:
        templates = templates.filter(language=language)
    if phenomenon:
        templates = templates.filter(phenomenon=phenomenon)
    return templates


def library_overview_get(*, language: str = "", phenomenon: str = "") -> list[LanguageGroup]:
    """Return the (filtered) newest template versions grouped by language, then by phenomenon."""
    return _overview(library_template_list(language=language, phenomenon=phenomenon))


def library_filter_choices() -> LibraryFilterChoices:
    """Return the languages and phenomena to filter the library by."""
    latest = template_latest_list()
    languages = sorted({t.language for t in latest if t.language})
    phenomena = sorted({t.phenomenon for t in latest if t.phenomenon})
    return LibraryFilterChoices(
        languages=[(code, language_name(code)) for code in languages],
        phenomena=[(name, phenomenon_name(name)) for name in phenomena],
    )


def library_templates_get(*, ids: Iterable[int]) -> list[LibraryTemplate]:
    """Return the library template versions with these ids, ordered by language, phenomenon and uid."""
    return list(
        LibraryTemplate.objects.filter(pk__in=list(ids))
        .select_related("vocabulary")
        .order_by("language", "phenomenon", "uid", "pk")
    )


def projects_editable_by(*, user: RequestUser) -> QuerySet[Project]:
    """Return the projects in which the user may change content (editor or owner), by name."""
    if not user.is_authenticated:
        return Project.objects.none()
    return (
        Project.objects.filter(memberships__user=user, memberships__role__in=(Role.EDITOR, Role.OWNER))
        .order_by("name", "id")
        .distinct()
    )


# -- Project templates for the API (list, one template, its versions) -----------------------------


def project_template_list(
    *, project: Project, language: str = "", phenomenon: str = ""
) -> QuerySet[Template]:
    """Return the project's templates, filtered by language and phenomenon, with `version_count`."""
    templates = Template.objects.filter(project=project)
    if language:
        templates = templates.filter(language=language)
    if phenomenon:
        templates = templates.filter(phenomenon=phenomenon)
    return templates.annotate(version_count=Count("versions")).order_by("language", "phenomenon", "uid")


def project_template_get(*, project: Project, template_id: int) -> Template | None:
    """Return the project's template with this id, or None (another project's template is None too)."""
    return Template.objects.filter(project=project, pk=template_id).first()


def project_template_version_get(*, template: Template, number: int | None = None) -> TemplateVersion | None:
    """Return the template's version with this number (None: the latest), or None if there is none."""
    versions = template.versions.select_related("created_by", "template")
    if number is None:
        return versions.order_by("-number").first()
    return versions.filter(number=number).first()
