"""The template editor's preview of unsaved text, where each problem belongs, and restoring a version."""

import logging
import re
from dataclasses import dataclass, field

from django.contrib.auth.models import User

from generator.errors import GenerationError, Problem
from mpp_studio.accounts.models import Project
from mpp_studio.paradigms.engine import engine_failure_message
from mpp_studio.paradigms.models import TemplateVersion
from mpp_studio.paradigms.project_engine import project_template_check
from mpp_studio.paradigms.services.preview import PREVIEW_PAIRS, PreviewPair, preview_pair
from mpp_studio.paradigms.services.project_templates import template_save

logger = logging.getLogger(__name__)

# The name the engine gives the text being edited in its problems; the page leaves it out.
EDITED_FILE = "template.yaml"

# Top-level fields that have a place of their own in the editor's table.
_FIELD_KEYS = frozenset(
    ("uid", "version", "phenomenon", "language", "description", "source", "vocabulary", "example", "options")
)


# How the page names the place of a problem that belongs to a field rather than a position.
FIELD_LABELS = {
    "uid": "Identifier (uid)",
    "version": "Version label",
    "phenomenon": "Phenomenon",
    "language": "Language",
    "description": "Description",
    "source": "Source",
    "vocabulary": "Vocabulary",
    "example": "Example",
    "options": "Generation options",
    "extra": "Other fields",
    "good": "Good grammar",
    "bad": "Bad grammar",
    "yaml_text": "YAML",
}


@dataclass(frozen=True, slots=True)
class ShownProblem:
    """A problem as the editor shows it, with the place in the form it concerns.

    `grammar` and `row` (1-based) point at a position's row; `grammar` alone at a grammar;
    `field` at a metadata field ("uid", "options", ...; "extra" for the other fields). A problem
    of a phrase names the phrase in `where`.
    """

    code: str
    message: str
    where: str  # "good grammar, position 2 (subj)", "phrase NP, alternative 1, position 2 (head)"
    line: int | None = None  # a line of the edited text, where that text is shown
    grammar: str = ""
    row: int | None = None
    field: str = ""

    @property
    def place(self) -> str:
        """Return where the problem is, in words ("" when its message says so itself)."""
        if self.where:
            return self.where
        if self.field:
            return FIELD_LABELS.get(self.field, self.field)
        if self.grammar and self.row is None:
            return FIELD_LABELS[self.grammar]
        return ""


@dataclass(frozen=True, slots=True)
class EditorPreview:
    """Pairs made from the edited text for a seed, its capacity and its problems."""

    seed: int
    pairs: list[PreviewPair] = field(default_factory=list)
    problems: list[ShownProblem] = field(default_factory=list)
    capacity_text: str = ""
    message: str = ""  # why there are fewer pairs than asked for, or none

    def problems_at(self, grammar: str, row: int | None = None) -> list[ShownProblem]:
        """Return the problems of one row (or, with row None, of the grammar as a whole)."""
        return [p for p in self.problems if p.grammar == grammar and p.row == row]

    def problems_of_field(self, name: str) -> list[ShownProblem]:
        return [p for p in self.problems if p.field == name]

    @property
    def general_problems(self) -> list[ShownProblem]:
        """Return the problems that belong to no row: the template's own or a phrase's."""
        return [p for p in self.problems if p.row is None]


def editor_preview(
    *, project: Project, source_text: str, seed: int, table: bool, count: int = PREVIEW_PAIRS
) -> EditorPreview:
    """Check unsaved template text in its project and generate up to `count` pairs; store nothing.

    `table` says the text was written from the editor's table, whose lines the author does not
    see: problems then carry no line numbers. Never raises: an engine failure is a message.
    """
    try:
        check = project_template_check(project=project, source_text=source_text, file_name=EDITED_FILE)
        problems = shown_problems(check.problems, table=table)
        generator = check.generator
        if generator is None:
            return EditorPreview(
                seed,
                problems=problems,
                message="Pairs appear here once the problems listed are fixed.",
            )
    except Exception as exc:  # the engine's own bug: a message on the page, never a server error
        logger.exception("checking an edited template of project %s failed", project.pk)
        return EditorPreview(seed, message=_sentence(engine_failure_message(exc)))
    pairs: list[PreviewPair] = []
    message = ""
    try:
        capacity = generator.capacity()
        wanted = min(count, capacity.count) if capacity.complete else count
        if wanted < count:
            message = (
                f"This paradigm can make only {capacity.count:,} different pairs; all of them are shown."
            )
        for pair in generator.pairs(wanted, seed):
            pairs.append(preview_pair(pair))
    except GenerationError as exc:
        message = f"The generator stopped early: {exc.problem.message}."
    except Exception as exc:
        logger.exception("previewing an edited template of project %s failed", project.pk)
        message = _sentence(engine_failure_message(exc))
    return EditorPreview(seed, pairs, problems, check.capacity_text, message)


def shown_problems(problems: list[Problem], *, table: bool) -> list[ShownProblem]:
    """Return the engine's problems with the row or field of the editor each one concerns: a
    position's row from its grammar and number, a field from the top-level key the engine says
    it concerns (`Problem.key`; "extra" for keys without a place of their own)."""
    shown = []
    for problem in problems:
        ours = problem.template in ("", EDITED_FILE)
        grammar, row, place = "", None, ""
        if ours and problem.grammar in ("good", "bad"):
            grammar = problem.grammar
            number = re.match(r"\d+", problem.position or "")
            row = int(number.group()) if number else None
        elif ours and not problem.grammar:
            place = _editor_field(problem.key)
            if place in ("good", "bad"):
                grammar, place = place, ""
        line = problem.line if ours and not table else None
        where = Problem(
            problem.code,
            problem.message,
            "" if ours else problem.template,
            problem.grammar,
            problem.position,
            line if ours else problem.line,
        ).location()
        shown.append(ShownProblem(problem.code, problem.message, where, line, grammar, row, place))
    return shown


def _editor_field(key: str) -> str:
    """Return the editor's place for a top-level key: its own field, a grammar, or "extra"."""
    if key in _FIELD_KEYS or key in ("good", "bad"):
        return key
    return "extra" if key else ""


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def template_version_restore(*, version: TemplateVersion, user: User | None) -> TemplateVersion:
    """Save an old version's text as the template's newest version; no version is changed.

    Raises:
        ValidationError: if the old text's uid is now another template's (message says so).
    """
    template = version.template
    return template_save(
        project=template.project,
        source_text=version.source_text,
        user=user,
        template=template,
        note=f"Restored version {version.number}",
    )
