"""A preview of freshly generated pairs of a stored template version, with the critical region marked."""

import logging
from dataclasses import dataclass, field

from generator.errors import GenerationError, TemplateError
from generator.generate import Pair
from mpp_studio.paradigms.engine import engine_failure_message, template_generator
from mpp_studio.paradigms.highlight import Segment, segments
from mpp_studio.paradigms.models import LibraryTemplate

logger = logging.getLogger(__name__)

PREVIEW_PAIRS = 10


@dataclass(frozen=True, slots=True)
class PreviewPair:
    """One generated pair, each sentence cut into segments with its critical region marked."""

    number: int  # 1-based, in generation order
    good: str
    bad: str
    good_segments: list[Segment]
    bad_segments: list[Segment]
    edits: tuple[str, ...]  # the edit type of each part of the critical region


@dataclass(frozen=True, slots=True)
class Preview:
    """Pairs generated for a seed; `message` (and `details`) say why there are fewer or none."""

    seed: int
    pairs: list[PreviewPair] = field(default_factory=list)
    message: str = ""
    details: tuple[str, ...] = ()


def template_preview(*, template: LibraryTemplate, seed: int, count: int = PREVIEW_PAIRS) -> Preview:
    """Generate up to `count` pairs of a stored template version for `seed`; store nothing.

    The template is read from its stored YAML, phrase files and vocabulary version, so the pairs
    are those a generation job would make. Never raises: a template with problems, or any error
    of the engine, comes back as a `message` for the page.
    """
    if template.problems:
        return Preview(
            seed, message="This paradigm has problems (listed above), so it cannot make pairs yet."
        )
    pairs: list[PreviewPair] = []
    try:
        generator = template_generator(template)
        capacity = generator.capacity()
        wanted = min(count, capacity.count) if capacity.complete else count
        message = (
            f"This paradigm can make only {capacity.count:,} different pairs; all of them are shown."
            if wanted < count
            else ""
        )
        for pair in generator.pairs(wanted, seed):
            pairs.append(preview_pair(pair))
    except TemplateError as exc:
        return Preview(
            seed,
            message="The generator found problems in this paradigm:",
            details=tuple(str(problem) for problem in exc.problems),
        )
    except GenerationError as exc:
        return Preview(seed, pairs, message=f"The generator stopped early: {exc.problem.message}.")
    except Exception as exc:  # the engine's own bug: show it on the page, never a server error
        logger.exception("preview of template %s failed", template.pk)
        return Preview(seed, pairs, message=_sentence(engine_failure_message(exc)))
    return Preview(seed, pairs, message=message)


def preview_pair(pair: Pair) -> PreviewPair:
    """Return a generated pair with its critical-region spans ready to mark on a page."""
    good_spans: list[tuple[int, int, str]] = []
    bad_spans: list[tuple[int, int, str]] = []
    for edit, good, bad, source in pair.critical_region:
        good_spans.append((*good.chars, edit.type))
        bad_spans.append((*bad.chars, edit.type))
        if source is not None and source.chars != good.chars:
            good_spans.append((*source.chars, f"{edit.type} source"))
    return PreviewPair(
        number=pair.index + 1,
        good=pair.good,
        bad=pair.bad,
        good_segments=segments(pair.good, good_spans),
        bad_segments=segments(pair.bad, bad_spans),
        edits=tuple(pair.edit_types()),
    )


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."
