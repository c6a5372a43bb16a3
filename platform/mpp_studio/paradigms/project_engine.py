"""The bridge from a project's templates, phrases and vocabularies to the generator engine.

A project template names its vocabulary in `vocabulary:` by the vocabulary's name (a path such
as `../vocabularies/en_child.csv` also works: its stem is the name). Its outside phrases are the
project's phrases, never files on disk: each template is given those it uses (directly or through
other phrases), so a phrase of another language or one no template names cannot spoil it.
"""

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from generator import errors as E
from generator.errors import Problem, TemplateError
from generator.generate import Generator
from generator.phrase_usage import phrase_graph, template_data_phrase_names
from generator.source import SourceError, load_yaml
from generator.template import Template as ParsedTemplate
from generator.template import template_from_data
from mpp_studio.accounts.models import Project
from mpp_studio.lexicon.engine import vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.paradigms.engine import (
    E_ENGINE,
    TemplateFields,
    engine_failure_message,
    template_data_fields,
)
from mpp_studio.paradigms.models import Phrase, TemplateVersion
from vocab.lexicon import Vocabulary as Lexicon

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ProjectTemplateCheck:
    """A template text checked in its project: problems, capacity and, if valid, its generator."""

    fields: TemplateFields
    parsed: ParsedTemplate | None
    problems: list[Problem]
    capacity_text: str
    generator: Generator | None
    vocabulary: Vocabulary | None

    @property
    def valid(self) -> bool:
        return self.generator is not None and not self.problems


@dataclass(frozen=True, slots=True)
class ProjectContent:
    """The phrases and vocabularies a template is checked against in place of those the project
    stores: an import checks its templates against what it is about to store, before it writes.

    `phrase_texts` is every phrase of the project as it will be (name -> YAML text);
    `vocabularies` the engine vocabularies by name that will be stored (or are, unchanged).
    A vocabulary the template names and this does not hold is looked up in the project.
    """

    phrase_texts: Mapping[str, str]
    vocabularies: Mapping[str, Lexicon]


def project_phrase_texts(project: Project) -> dict[str, str]:
    """Return name -> YAML text of every phrase of the project."""
    return dict(Phrase.objects.filter(project=project).values_list("name", "text"))


def template_phrase_texts(
    project: Project, source_text: str, texts: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Return name -> YAML text of the project's phrases a template text uses, directly or not
    (of `texts` in place of the stored phrases, when given)."""
    try:
        data = load_yaml(source_text)
    except SourceError:
        data = None  # not YAML: it uses no phrase
    return template_data_phrase_texts(project, data, texts)


def template_data_phrase_texts(
    project: Project, data: Any, texts: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Return `template_phrase_texts` of a template's YAML already read by `load_yaml`."""
    texts = project_phrase_texts(project) if texts is None else texts
    used = template_data_phrase_names(data, phrase_graph(texts))
    return {name: text for name, text in texts.items() if name in used}


def vocabulary_name(reference: str) -> str:
    """Return the vocabulary name a template's `vocabulary:` value means (a path's stem)."""
    reference = reference.strip()
    if "/" in reference or "." in reference:
        return PurePosixPath(reference).stem
    return reference


def project_vocabulary_for(project: Project, reference: str) -> Vocabulary | None:
    """Return the project vocabulary a template's `vocabulary:` value names, if there is one."""
    if not reference.strip():
        return None
    return Vocabulary.objects.filter(project=project, name=vocabulary_name(reference)).first()


def project_template_check(
    *,
    project: Project,
    source_text: str,
    file_name: str = "",
    content: ProjectContent | None = None,
    capacity: bool = True,
    lexicons: dict[int, Lexicon] | None = None,
) -> ProjectTemplateCheck:
    """Parse and validate a template text against the project's phrases and vocabulary (or those
    of `content`, where given); never raises.

    `capacity=False` leaves out counting how many pairs the template can make (the slowest part
    of a check; `capacity_text` is then ""). `lexicons`, shared by the checks of one request,
    keeps each project vocabulary's engine form by id, so that it is read once."""
    label = file_name or "template"
    parsed: ParsedTemplate | None = None
    vocabulary: Vocabulary | None = None
    # The text is read as YAML once; its phrases, template and fields all come from that reading.
    try:
        data = load_yaml(source_text)
    except SourceError as exc:
        problem = Problem(E.E_SYNTAX, str(exc), PurePosixPath(label).name, line=exc.line)
        return ProjectTemplateCheck(TemplateFields(readable=False), None, [problem], "", None, None)
    try:
        phrase_texts = template_data_phrase_texts(
            project, data, content.phrase_texts if content is not None else None
        )
        parsed = template_from_data(data, file=label, phrase_texts=phrase_texts)
        planned = content.vocabularies.get(vocabulary_name(parsed.vocabulary)) if content else None
        vocabulary = project_vocabulary_for(project, parsed.vocabulary) if planned is None else None
        if planned is None and vocabulary is None:
            fields = template_data_fields(data, parsed)
            if not parsed.vocabulary:
                message = "the template names no vocabulary: add `vocabulary: <name>`"
            else:
                names = ", ".join(Vocabulary.objects.filter(project=project).values_list("name", flat=True))
                message = f"this project has no vocabulary called '{vocabulary_name(parsed.vocabulary)}'" + (
                    f" (it has: {names})" if names else " (it has none yet)"
                )
            problem = Problem(E.E_VOCABULARY, message, label, line=fields.vocabulary_line, key="vocabulary")
            return ProjectTemplateCheck(fields, parsed, [problem], "", None, None)
        if planned is not None:
            lexicon = planned
        else:
            assert vocabulary is not None  # neither was answered above
            lexicon = _engine_vocabulary(vocabulary, lexicons)
        generator = Generator(parsed, lexicon)
        capacity_text = generator.capacity().describe() if capacity else ""
    except TemplateError as exc:
        return ProjectTemplateCheck(
            template_data_fields(data, parsed), parsed, list(exc.problems), "", None, vocabulary
        )
    except Exception as exc:  # the engine's own bug: show it instead of failing the request
        logger.exception("the generator failed on a template of project %s", project.pk)
        problem = Problem(E_ENGINE, engine_failure_message(exc), label)
        fields = template_data_fields(data, parsed)
        return ProjectTemplateCheck(fields, parsed, [problem], "", None, vocabulary)
    return ProjectTemplateCheck(
        template_data_fields(data, parsed), parsed, [], capacity_text, generator, vocabulary
    )


def _engine_vocabulary(vocabulary: Vocabulary, lexicons: dict[int, Lexicon] | None) -> Lexicon:
    if lexicons is None:
        return vocabulary_to_engine(vocabulary)
    if vocabulary.pk not in lexicons:
        lexicons[vocabulary.pk] = vocabulary_to_engine(vocabulary)
    return lexicons[vocabulary.pk]


def template_version_check(
    version: TemplateVersion, *, capacity: bool = True, lexicons: dict[int, Lexicon] | None = None
) -> ProjectTemplateCheck:
    """Return the check of a stored version against the project as it is now (`capacity` and
    `lexicons` as for `project_template_check`)."""
    template = version.template
    return project_template_check(
        project=template.project,
        source_text=version.source_text,
        file_name=f"{template.uid}.yaml",
        capacity=capacity,
        lexicons=lexicons,
    )
