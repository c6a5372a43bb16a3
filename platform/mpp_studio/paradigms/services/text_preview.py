"""Generate a few pairs from an unsaved template text in a project, as the engine's JSONL records.

Nothing is stored: the text is checked against the project's vocabulary and phrases as they are
now, and a valid one makes up to `n` pairs for `seed`, each the record a generation job writes
(sentences, words, critical region with token and character spans, provenance).
"""

import logging
from dataclasses import dataclass, field

from generator.errors import GenerationError, Problem, TemplateError
from mpp_studio.accounts.models import Project
from mpp_studio.paradigms.engine import E_ENGINE, engine_failure_message
from mpp_studio.paradigms.project_engine import project_template_check

logger = logging.getLogger(__name__)

MAX_PREVIEW_PAIRS = 50


@dataclass(frozen=True, slots=True)
class TextPreview:
    """The check of a template text and the pairs it made; `message` says why there are fewer."""

    problems: list[Problem]
    capacity_text: str
    records: list[dict[str, object]] = field(default_factory=list)
    message: str = ""

    @property
    def valid(self) -> bool:
        return not self.problems


def template_text_preview(*, project: Project, source_text: str, n: int, seed: int) -> TextPreview:
    """Check a template text in the project and generate up to `n` pairs for `seed`; store nothing.

    Never raises for anything the engine finds: problems come back in `problems`, a paradigm
    that can make fewer than `n` pairs gives all it can with a `message`.
    """
    check = project_template_check(project=project, source_text=source_text, file_name="template.yaml")
    if not check.valid or check.generator is None:
        return TextPreview(check.problems, "")
    generator = check.generator
    records: list[dict[str, object]] = []
    try:
        capacity = generator.capacity()
        wanted = min(n, capacity.count) if capacity.complete else n
        message = (
            f"This paradigm can make only {capacity.count:,} different pairs; all of them are here."
            if wanted < n
            else ""
        )
        for pair in generator.pairs(wanted, seed):
            records.append(generator.record(pair, seed))
    except TemplateError as exc:
        return TextPreview(list(exc.problems), "")
    except GenerationError as exc:
        return TextPreview(
            [], check.capacity_text, records, f"The generator stopped early: {exc.problem.message}."
        )
    except Exception as exc:  # the engine's own bug: report it rather than fail the request
        logger.exception("preview of a template text in project %s failed", project.pk)
        return TextPreview([Problem(E_ENGINE, engine_failure_message(exc), "template.yaml")], "", records)
    return TextPreview([], check.capacity_text, records, message)
