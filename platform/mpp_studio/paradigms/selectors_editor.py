"""Reads for the template editor and the project template pages: lists, versions, field choices."""

import re
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from generator.document import DocumentError, document_from_text, plain
from generator.inflection import OVERRIDE_PREFIX, TAGS
from generator.source import SourceError, load_yaml
from mpp_studio.accounts.models import Project
from mpp_studio.lexicon.engine import vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.paradigms.engine import template_fields
from mpp_studio.paradigms.forms.editor import GRAMMARS, LEXICAL_TYPES, EditorState
from mpp_studio.paradigms.models import Phrase, Template, TemplateDraft, TemplateVersion
from mpp_studio.paradigms.project_engine import project_vocabulary_for, vocabulary_name
from mpp_studio.paradigms.selectors import language_name, phenomenon_name

# Value lists longer than this are not offered (a lemma column of a big vocabulary).
MAX_OFFERED_VALUES = 300
RESERVED_FEATURES = ("pos", "lemma", "form", "id")
LANGUAGES = (("en", "English"), ("zh", "Chinese"))
# What each inflection tag (generator.inflection.TAGS, Penn Treebank) makes of a lemma.
TAG_NAMES = {
    "NN": "noun, singular",
    "NNS": "noun, plural",
    "VB": "verb, base form",
    "VBD": "verb, past tense",
    "VBG": "verb, -ing form",
    "VBN": "verb, past participle",
    "VBP": "verb, present, not 3rd person singular",
    "VBZ": "verb, present, 3rd person singular",
    "JJ": "adjective",
    "JJR": "adjective, comparative",
    "JJS": "adjective, superlative",
    "RB": "adverb",
    "RBR": "adverb, comparative",
    "RBS": "adverb, superlative",
}


# -- the template list ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TemplateEntry:
    """A template and its latest version, as the template list shows them."""

    template: Template
    latest: TemplateVersion | None
    version_count: int
    example_good: str = ""
    example_bad: str = ""

    @property
    def problem_count(self) -> int:
        return len(self.latest.problems) if self.latest is not None else 0


@dataclass(frozen=True, slots=True)
class TemplateGroup:
    """The templates of one language and phenomenon."""

    language: str
    language_name: str
    phenomenon_name: str
    entries: list[TemplateEntry]


def project_template_groups(*, project: Project) -> list[TemplateGroup]:
    """Return the project's templates with their latest versions, by language and phenomenon."""
    templates = list(Template.objects.filter(project=project).order_by("language", "phenomenon", "uid"))
    versions: dict[int, list[TemplateVersion]] = {}
    for version in (
        TemplateVersion.objects.filter(template__project=project)
        .select_related("created_by")
        .defer("source_text")
        .order_by("template_id", "-number")
    ):
        versions.setdefault(version.template_id, []).append(version)
    latest_texts = dict(
        TemplateVersion.objects.filter(pk__in=[v[0].pk for v in versions.values()]).values_list(
            "pk", "source_text"
        )
    )
    entries = []
    for template in templates:
        own = versions.get(template.pk, [])
        latest = own[0] if own else None
        fields = template_fields(latest_texts.get(latest.pk, "")) if latest is not None else None
        entries.append(
            TemplateEntry(
                template,
                latest,
                len(own),
                fields.example_good if fields else "",
                fields.example_bad if fields else "",
            )
        )
    groups = []
    for (language, phenomenon), members in groupby(
        entries, key=lambda e: (e.template.language, e.template.phenomenon)
    ):
        groups.append(
            TemplateGroup(language, language_name(language), phenomenon_name(phenomenon), list(members))
        )
    # Templates without a language or phenomenon come last.
    groups.sort(key=lambda g: (not g.language, g.language, not g.entries[0].template.phenomenon))
    return groups


# -- one template and its versions ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TemplatePage:
    """A template, the version being looked at and every version, newest first."""

    template: Template
    version: TemplateVersion
    versions: list[TemplateVersion]

    @property
    def is_latest(self) -> bool:
        return self.version.number == self.versions[0].number

    @property
    def language_name(self) -> str:
        return language_name(self.template.language)

    @property
    def phenomenon_name(self) -> str:
        return phenomenon_name(self.template.phenomenon)


def template_get(*, project: Project, template_id: int) -> Template | None:
    """Return the project's template with this id, or None (another project's is never found)."""
    return Template.objects.filter(project=project, pk=template_id).first()


def template_versions(template: Template) -> QuerySet[TemplateVersion]:
    return template.versions.select_related("created_by").order_by("-number")


def template_page_get(
    *, project: Project, template_id: int, number: int | None = None
) -> TemplatePage | None:
    """Return a template of the project with one version (the latest if `number` is None), or None."""
    template = template_get(project=project, template_id=template_id)
    if template is None:
        return None
    versions = list(template_versions(template))
    if not versions:
        return None
    chosen = versions[0] if number is None else next((v for v in versions if v.number == number), None)
    if chosen is None:
        return None
    return TemplatePage(template, chosen, versions)


def vocabulary_first(*, project: Project) -> Vocabulary | None:
    """Return the vocabulary a new template starts with: the project's first by name."""
    return Vocabulary.objects.filter(project=project).order_by("name").first()


# -- what the editor's fields offer ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FeatureChoice:
    """A feature of the chosen vocabulary and the values it offers (a datalist)."""

    name: str
    list_id: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PhraseChoice:
    """A phrase the template may use: the project's or one defined in the template itself."""

    name: str
    description: str
    inner: tuple[str, ...]  # ids every alternative has: what `where` and `X.inner` may name
    in_template: bool = False


@dataclass
class EditorChoices:
    """The options of the editor's selects and value lists, for one state of the form."""

    vocabularies: list[tuple[str, str]]  # (value, label)
    vocabulary: Vocabulary | None
    features: list[FeatureChoice] = field(default_factory=list)
    forms: list[tuple[str, str]] = field(default_factory=list)  # (tag, label)
    phrases: list[PhraseChoice] = field(default_factory=list)
    good_targets: list[tuple[str, str]] = field(default_factory=list)  # (value, label)
    good_inner_targets: list[tuple[str, str]] = field(default_factory=list)  # subj.head
    bad_targets: list[tuple[str, str]] = field(default_factory=list)  # bad.x
    languages: tuple[tuple[str, str], ...] = LANGUAGES

    @property
    def feature_names(self) -> list[str]:
        return [f.name for f in self.features]

    @property
    def phrase_names(self) -> list[str]:
        return [p.name for p in self.phrases]

    @property
    def vocabulary_values(self) -> list[str]:
        return [value for value, _ in self.vocabularies]

    def list_id(self, feature: str) -> str:
        return next((f.list_id for f in self.features if f.name == feature), "")

    def inner_of(self, phrase: str) -> tuple[str, ...]:
        return next((p.inner for p in self.phrases if p.name == phrase), ())


def editor_choices(*, project: Project, state: EditorState) -> EditorChoices:
    """Return what the editor offers for this state: vocabularies, features and values, phrases,
    inflection tags and the positions a row can refer to. Also sets each feature field's value list.
    """
    names = list(Vocabulary.objects.filter(project=project).order_by("name").values_list("name", flat=True))
    current = state.meta.get("vocabulary", "")
    vocabularies = [(name, name) for name in names]
    if current and current not in names:
        stem = vocabulary_name(current)
        label = f"{stem} ({current})" if stem in names else f"{current} (not in this project)"
        vocabularies.insert(0, (current, label))
    vocabulary = project_vocabulary_for(project, current) if current else None
    choices = EditorChoices(vocabularies=vocabularies, vocabulary=vocabulary)
    overrides: set[str] = set()
    if vocabulary is not None:
        choices.features, overrides = _features(vocabulary)
    choices.forms = [
        (
            tag,
            f"{tag} — {TAG_NAMES[tag]}"
            if tag in TAG_NAMES
            else f"{tag} — the vocabulary's form_{tag} column",
        )
        for tag in sorted(TAGS | overrides)
    ]
    choices.phrases = _phrases(project, state.extra)
    _targets(choices, state)
    for grammar in GRAMMARS:
        for row in state.rows(grammar):
            for pair in (*row.features, *row.exclusions):
                pair.list_id = choices.list_id(pair.name)
            for constraint in row.where:
                constraint.list_id = choices.list_id(constraint.name)
    return choices


def _features(vocabulary: Vocabulary) -> tuple[list[FeatureChoice], set[str]]:
    lexicon = vocabulary_to_engine(vocabulary)
    schema = lexicon.schema
    observed: dict[str, None] = {}
    for item in lexicon.items:
        observed.update(dict.fromkeys(item.features))
    overrides = {name[len(OVERRIDE_PREFIX) :] for name in observed if name.startswith(OVERRIDE_PREFIX)}
    order = [
        "pos",
        *schema.features,
        *(n for n in observed if not n.startswith(OVERRIDE_PREFIX)),
        "lemma",
        "form",
        "id",
    ]
    features = []
    for index, name in enumerate(dict.fromkeys(order)):
        spec = schema.features.get(name)
        if spec is not None and spec.values is not None:
            values: tuple[str, ...] = spec.values
        elif spec is not None and spec.type == "bool":
            values = ("1", "0")
        else:
            values = lexicon.observed_values(name)
        if len(values) > MAX_OFFERED_VALUES:
            values = ()
        slug = re.sub(r"[^A-Za-z0-9_-]", "", name)[:30]
        features.append(FeatureChoice(name, f"values-{index}-{slug}", values))
    return features, overrides


def _phrases(project: Project, extra: str) -> list[PhraseChoice]:
    choices = [
        PhraseChoice(phrase.name, phrase.description, _inner_ids(_load(phrase.text)))
        for phrase in Phrase.objects.filter(project=project).order_by("name")
    ]
    try:
        own = document_from_text(extra).get("phrases") if extra.strip() else None
    except DocumentError:
        own = None
    if isinstance(own, dict):
        taken = {c.name for c in choices}
        choices += [
            PhraseChoice(name, "defined in this template", _inner_ids(alternatives), in_template=True)
            for name, alternatives in own.items()
            if name not in taken
        ]
    return choices


def _load(text: str) -> Any:
    try:
        return plain(load_yaml(text))
    except SourceError:
        return None


def _inner_ids(alternatives: Any) -> tuple[str, ...]:
    """Return the position ids that every alternative of a phrase has, in first-alternative order."""
    if not isinstance(alternatives, list) or not alternatives:
        return ()
    id_lists = [
        [p["id"] for p in alt if isinstance(p, dict) and isinstance(p.get("id"), str)]
        if isinstance(alt, list)
        else []
        for alt in alternatives
    ]
    common = set(id_lists[0]).intersection(*map(set, id_lists[1:]))
    return tuple(i for i in id_lists[0] if i in common)


def _targets(choices: EditorChoices, state: EditorState) -> None:
    for number, row in enumerate(state.good, start=1):
        name = row.id or str(number)
        kind = f"Phrase {row.phrase}" if row.type == "phrase" and row.phrase else row.type.capitalize()
        if row.type == "direct" and row.words.strip():
            kind = f"“{row.words.strip()}”"
        label = f"{number} · {row.id} — {kind}" if row.id else f"{number} — {kind}"
        choices.good_targets.append((name, label))
        if row.type == "phrase":
            for inner in choices.inner_of(row.phrase):
                choices.good_inner_targets.append(
                    (f"{name}.{inner}", f"{name}.{inner} — the {inner} inside position {number}")
                )
    for number, row in enumerate(state.bad, start=1):
        if row.id and row.type in (*LEXICAL_TYPES, "direct", "phrase"):
            choices.bad_targets.append((f"bad.{row.id}", f"bad.{row.id} — bad position {number}"))


def draft_get(
    *, project: Project, template: Template | None, user: User
) -> TemplateDraft | None:
    """Return the user's draft of `template` (None: of a new template in `project`), if any."""
    return TemplateDraft.objects.filter(project=project, template=template, user=user).first()
