"""Writes for a project's phrases: create, edit, delete (refused while used) and phrase-file imports.

A phrase is stored as the YAML text of its alternatives. The engine reads every text before it
is stored, so a saved phrase always parses; whether it also works in a template (its features
exist in the vocabulary, its recursion stops) is checked when a template uses it, and an edit
re-checks the templates that use it.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import yaml
from django.core.exceptions import ValidationError
from django.db import transaction

from generator.errors import Problem, TemplateError
from generator.source import SourceError, load_yaml
from generator.template import phrases_from_texts
from mpp_studio.accounts.models import Project
from mpp_studio.paradigms.models import Phrase, Template
from mpp_studio.paradigms.selectors import TemplateRecheck, phrase_users_get, template_recheck_list

NAME_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
NAME_RULE = "letters, digits and _, not starting with a digit (for example NP or AnimateNP)"
# A phrase text is a few lines to a few hundred; this only stops a paste of a whole file.
MAX_TEXT_CHARS = 100_000


class PhraseTextError(ValidationError):
    """A phrase text the engine rejects; `problems` are the engine's, each with its line."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__({"text": [phrase_problem_text(p) for p in self.problems]})


class PhraseInUseError(ValidationError):
    """A phrase that templates use cannot be deleted; `templates` are those templates."""

    def __init__(self, phrase: Phrase, templates: Sequence[Template]) -> None:
        self.templates = list(templates)
        uids = ", ".join(t.uid for t in self.templates)
        super().__init__(
            f"Phrase '{phrase.name}' is used by the latest version of {len(self.templates)} "
            f"template{'s' if len(self.templates) != 1 else ''} ({uids}); change them first, "
            "then delete it."
        )


class PhraseConflictError(Exception):
    """A phrase file holds a phrase whose name the project already uses for different alternatives."""


class PhraseFileError(Exception):
    """A phrase file that cannot be imported; the message names the file and, where known, the line."""


@dataclass(frozen=True, slots=True)
class PhraseChange:
    """A saved phrase and the re-check of every template whose latest version uses it (or did)."""

    phrase: Phrase
    rechecks: list[TemplateRecheck]

    @property
    def broken(self) -> list[TemplateRecheck]:
        return [r for r in self.rechecks if not r.valid]


PhraseOutcome = Literal["created", "reused"]


@dataclass(frozen=True, slots=True)
class PhraseImport:
    """What an import did with one phrase of a phrase file."""

    name: str
    outcome: PhraseOutcome


def phrase_problem_text(problem: Problem) -> str:
    """Return a problem of a phrase text in words: 'Line 3, alternative 2, position 1 (head): ...'."""
    parts = []
    if problem.line is not None:
        parts.append(f"line {problem.line}")
    grammar = problem.grammar
    if grammar.startswith("phrase "):
        # "phrase NP, alternative 2" -> "alternative 2": the page is about this phrase already.
        _, _, grammar = grammar.partition(", ")
    if grammar:
        parts.append(grammar)
    if problem.position:
        parts.append(f"position {problem.position}")
    where = ", ".join(parts)
    text = f"{where}: {problem.message}" if where else problem.message
    return text[:1].upper() + text[1:]


def phrase_text_problems(*, name: str, text: str) -> list[Problem]:
    """Return the engine's problems with a phrase text (a YAML list of alternatives); [] if none."""
    try:
        phrases_from_texts({name: text})
    except TemplateError as exc:
        return list(exc.problems)
    return []


def phrase_text_dump(alternatives: Any) -> str:
    """Return the YAML text that stores a phrase's alternatives (plain data from `load_yaml`)."""
    return yaml.safe_dump(_plain(alternatives), allow_unicode=True, sort_keys=False)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _same_alternatives(text: str, alternatives: Any) -> bool:
    """Return whether a stored phrase text holds exactly these alternatives (layout aside)."""
    try:
        return bool(_plain(load_yaml(text)) == _plain(alternatives))
    except SourceError:
        return False


def _name_clean(*, project: Project, name: str, exclude: Phrase | None = None) -> str:
    name = name.strip()
    limit = Phrase._meta.get_field("name").max_length or 100
    if not name:
        raise ValidationError({"name": "The phrase needs a name."})
    if len(name) > limit:
        raise ValidationError({"name": f"The name is {len(name)} characters long; the limit is {limit}."})
    if not NAME_PATTERN.match(name):
        raise ValidationError({"name": f"'{name}' cannot name a phrase: use {NAME_RULE}."})
    taken = Phrase.objects.filter(project=project, name=name)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise ValidationError({"name": f"This project already has a phrase called '{name}'."})
    return name


def _text_clean(*, name: str, text: str) -> str:
    text = text.replace("\r\n", "\n")
    if not text.strip():
        raise ValidationError(
            {"text": "Write the alternatives: a YAML list, each alternative a list of positions."}
        )
    if len(text) > MAX_TEXT_CHARS:
        raise ValidationError(
            {"text": f"The text is {len(text):,} characters long; the limit is {MAX_TEXT_CHARS:,}."}
        )
    problems = phrase_text_problems(name=name or "phrase", text=text)
    if problems:
        raise PhraseTextError(problems)
    return text if text.endswith("\n") else text + "\n"


def phrase_create(*, project: Project, name: str, text: str, description: str = "") -> PhraseChange:
    """Create a phrase after the engine has read its alternatives.

    Returns the phrase and the re-check of the templates that already name it (a template saved
    before the phrase existed had an unknown-phrase problem).

    Raises:
        ValidationError: {"name": ...} for a missing, malformed or taken name.
        PhraseTextError: every problem the engine finds in the text, with its line.
    """
    with transaction.atomic(durable=True):
        name = _name_clean(project=project, name=name)
        phrase = Phrase(
            project=project, name=name, text=_text_clean(name=name, text=text), description=description
        )
        phrase.full_clean()
        phrase.save()
    # The engine re-checks the templates after the transaction: it holds no lock meanwhile.
    users = phrase_users_get(project=project, names=[name])
    return PhraseChange(phrase, template_recheck_list(project=project, templates=users))


def phrase_update(*, phrase: Phrase, name: str, text: str, description: str = "") -> PhraseChange:
    """Store a phrase's new name, alternatives and description, then re-check its templates.

    The re-check covers every template whose latest version used the phrase before the edit or
    uses it after (a renamed phrase leaves its old users with an unknown phrase).

    Raises:
        ValidationError: {"name": ...} for a missing, malformed or taken name.
        PhraseTextError: every problem the engine finds in the text, with its line.
    """
    project = phrase.project
    before = phrase_users_get(project=project, names=[phrase.name])
    with transaction.atomic(durable=True):
        phrase.name = _name_clean(project=project, name=name, exclude=phrase)
        phrase.text = _text_clean(name=phrase.name, text=text)
        phrase.description = description
        phrase.full_clean()
        phrase.save()
    # The engine re-checks the templates after the transaction: it holds no lock meanwhile.
    after = phrase_users_get(project=project, names=[phrase.name])
    templates = {t.pk: t for t in [*before, *after]}
    ordered = sorted(templates.values(), key=lambda t: t.uid)
    return PhraseChange(phrase, template_recheck_list(project=project, templates=ordered))


@transaction.atomic(durable=True)
def phrase_delete(*, phrase: Phrase) -> None:
    """Delete a phrase that no template's latest version uses.

    Raises:
        PhraseInUseError: naming the templates whose latest versions use it.
    """
    users = phrase_users_get(project=phrase.project, names=[phrase.name])
    if users:
        raise PhraseInUseError(phrase, users)
    phrase.delete()


def phrase_file_import(
    *, project: Project, file_name: str, text: str, description: str = ""
) -> list[PhraseImport]:
    """Store each phrase of a phrase file (a YAML mapping: name -> alternatives) in the project.

    A phrase the project already has with the same alternatives is reused. The caller holds the
    transaction: on an error nothing of the file may stay. New phrases get `description` (by default
    "Imported from <file_name>.").

    Raises:
        PhraseFileError: the file is not YAML, not a mapping of phrases, or a phrase is malformed
            (the message names the file, the phrase and the line).
        PhraseConflictError: the project has a phrase of the same name with other alternatives.
    """
    try:
        data = load_yaml(text)
    except SourceError as exc:
        where = f", line {exc.line}" if exc.line is not None else ""
        raise PhraseFileError(f"{file_name}{where}: {exc}") from None
    if not isinstance(data, dict) or not data:
        raise PhraseFileError(
            f"{file_name} is not a phrase file: it must map phrase names to lists of alternatives"
        )
    results = []
    for name, alternatives in data.items():
        line = data.line_of(name) if hasattr(data, "line_of") else None
        where = f"{file_name}, line {line}" if line is not None else file_name
        if not NAME_PATTERN.match(name):
            raise PhraseFileError(f"{where}: '{name}' cannot name a phrase: use {NAME_RULE}")
        stored = phrase_text_dump(alternatives)
        problems = phrase_text_problems(name=name, text=stored)
        if problems:
            details = "; ".join(
                f"{p.grammar.partition(', ')[2] or 'the phrase'}"
                + (f", position {p.position}" if p.position else "")
                + f": {p.message}"
                for p in problems
            )
            raise PhraseFileError(f"{where}: phrase {name}: {details}")
        existing = Phrase.objects.filter(project=project, name=name).first()
        if existing is not None:
            if not _same_alternatives(existing.text, alternatives):
                raise PhraseConflictError(
                    f"the project already has a phrase called '{name}' whose alternatives differ from "
                    f"those of '{name}' in {where}; the project's phrase was left unchanged"
                )
            results.append(PhraseImport(name, "reused"))
            continue
        phrase = Phrase(
            project=project, name=name, text=stored, description=description or f"Imported from {file_name}."
        )
        phrase.full_clean()
        phrase.save()
        results.append(PhraseImport(name, "created"))
    return results
