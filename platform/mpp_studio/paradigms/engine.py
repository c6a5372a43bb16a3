"""The bridge to the generator engine: a stored template version becomes a checked Generator.

A version is always parsed from its stored YAML and stored phrase files and bound to its stored
vocabulary version, never to files on disk, so the problems, capacity and pairs the platform
shows are those of what it stores.
"""

import logging
import os
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from generator import errors as E
from generator.errors import Problem, TemplateError
from generator.generate import Generator
from generator.source import LocatedDict, SourceError, load_yaml
from generator.template import Template as ParsedTemplate
from generator.template import template_from_text
from mpp_studio.lexicon.engine import vocabulary_lexicon
from mpp_studio.lexicon.models import LibraryVocabulary
from mpp_studio.paradigms.models import LibraryTemplate
from vocab.errors import VocabularyError

logger = logging.getLogger(__name__)

# Not an engine code: the engine raised something other than its own errors (a bug in it). The
# platform still stores the template and shows the failure instead of failing the request.
E_ENGINE = "E_ENGINE"


@dataclass(frozen=True, slots=True)
class TemplateFields:
    """A template's metadata: the engine's when it parsed, else what the YAML says (if readable)."""

    readable: bool  # the text is YAML
    uid: str = ""
    phenomenon: str = ""
    language: str = ""
    description: str = ""
    source: str = ""
    vocabulary: str = ""  # the path as written in the file
    vocabulary_line: int | None = None
    example_good: str = ""
    example_bad: str = ""
    phrase_files: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TemplateCheck:
    """The outcome of checking a template version against its vocabulary version."""

    fields: TemplateFields
    parsed: ParsedTemplate | None  # None when the engine could not parse the text
    problems: list[Problem]
    capacity_text: str  # "" unless the template is valid


def template_fields(source_text: str, parsed: ParsedTemplate | None = None) -> TemplateFields:
    """Return the metadata of a template's YAML text, leniently: fields of the wrong kind are ""."""
    try:
        data = load_yaml(source_text)
    except SourceError:
        return TemplateFields(readable=False)
    return template_data_fields(data, parsed)


def template_data_fields(data: Any, parsed: ParsedTemplate | None = None) -> TemplateFields:
    """Return `template_fields` of a template's YAML already read by `load_yaml`."""
    if not isinstance(data, LocatedDict):
        return TemplateFields(readable=True)
    raw_files = data.get("phrase_files")
    raw_files = [raw_files] if isinstance(raw_files, str) else raw_files
    phrase_files = tuple(f for f in raw_files if isinstance(f, str)) if isinstance(raw_files, list) else ()
    example = data.get("example")
    example = example if isinstance(example, dict) else {}
    if parsed is not None:
        return TemplateFields(
            readable=True,
            uid=parsed.uid,
            phenomenon=parsed.phenomenon,
            language=parsed.language,
            description=parsed.description,
            source=parsed.source,
            vocabulary=parsed.vocabulary,
            vocabulary_line=data.line_of("vocabulary"),
            example_good=parsed.example.get("good", ""),
            example_bad=parsed.example.get("bad", ""),
            phrase_files=phrase_files,
        )
    return TemplateFields(
        readable=True,
        uid=_text(data.get("uid")),
        phenomenon=_text(data.get("phenomenon")),
        language=_text(data.get("language")),
        description=_text(data.get("description")),
        source=_text(data.get("source")),
        vocabulary=_text(data.get("vocabulary")),
        vocabulary_line=data.line_of("vocabulary"),
        example_good=_text(example.get("good")),
        example_bad=_text(example.get("bad")),
        phrase_files=phrase_files,
    )


def template_parse(*, source_text: str, file_name: str, phrase_texts: Mapping[str, str]) -> ParsedTemplate:
    """Return the engine's template for stored YAML text and its stored phrase files.

    Raises:
        TemplateError: with every problem found (E_SYNTAX for text that is not YAML).
    """
    with _phrase_folder(phrase_texts) as folder:
        return template_from_text(source_text, file=str(folder / Path(file_name).name), base_dir=folder)


def generator_build(
    parsed: ParsedTemplate, vocabulary: LibraryVocabulary | None, *, vocabulary_problem: str = ""
) -> Generator:
    """Return a Generator for a parsed template and its stored vocabulary version.

    Raises:
        TemplateError: with every validation problem, or E_VOCABULARY / E_FIELD when there is no
            usable vocabulary (`vocabulary_problem` says why, where the caller knows).
    """
    name = Path(parsed.file).name
    if vocabulary is None:
        if not parsed.vocabulary:
            raise TemplateError([Problem(E.E_FIELD, "the template names no 'vocabulary' file", name)])
        message = vocabulary_problem or f"vocabulary '{parsed.vocabulary}' is not stored"
        raise TemplateError([Problem(E.E_VOCABULARY, message, name)])
    try:
        lexicon = vocabulary_lexicon(vocabulary)
    except VocabularyError as exc:
        raise TemplateError(
            [
                Problem(E.E_VOCABULARY, f"vocabulary {vocabulary.file_name}: {error}", name)
                for error in exc.errors
            ]
        ) from None
    return Generator(parsed, lexicon)


def template_check(
    *,
    source_text: str,
    file_name: str,
    phrase_texts: Mapping[str, str],
    vocabulary: LibraryVocabulary | None,
    vocabulary_problem: str = "",
) -> TemplateCheck:
    """Parse a template version, build its generator and count its capacity; never raises.

    Every problem the engine reports is returned, each with its line, grammar and position.
    """
    parsed: ParsedTemplate | None = None
    try:
        parsed = template_parse(source_text=source_text, file_name=file_name, phrase_texts=phrase_texts)
        generator = generator_build(parsed, vocabulary, vocabulary_problem=vocabulary_problem)
        capacity_text = generator.capacity().describe()
    except TemplateError as exc:
        fields = template_fields(source_text, parsed)
        problems = list(exc.problems)
        if parsed is None and fields.vocabulary and vocabulary is None and vocabulary_problem:
            # The template is broken, and so is its vocabulary link: report both at once.
            problems.append(
                Problem(E.E_VOCABULARY, vocabulary_problem, Path(file_name).name, line=fields.vocabulary_line)
            )
        return TemplateCheck(fields, parsed, _with_vocabulary_line(problems, fields), "")
    except Exception as exc:  # the engine's own bug: report it on the page rather than fail
        logger.exception("the generator failed on %s", file_name)
        problem = Problem(E_ENGINE, engine_failure_message(exc), Path(file_name).name)
        return TemplateCheck(template_fields(source_text, parsed), parsed, [problem], "")
    return TemplateCheck(template_fields(source_text, parsed), parsed, [], capacity_text)


def template_generator(template: LibraryTemplate) -> Generator:
    """Return a Generator for a stored template version, from its stored texts only.

    Raises:
        TemplateError: if the version is not valid (its problems are also stored on the row).
    """
    parsed = template_parse(
        source_text=template.source_text, file_name=template.file_name, phrase_texts=template.phrase_texts
    )
    return generator_build(parsed, template.vocabulary)


def engine_failure_message(exc: Exception) -> str:
    """Return the words shown when the engine raised something other than its own errors."""
    return f"the generator failed unexpectedly ({type(exc).__name__}: {exc}); please report this template"


def _with_vocabulary_line(problems: list[Problem], fields: TemplateFields) -> list[Problem]:
    """Point vocabulary problems without a line at the template's `vocabulary:` line."""
    return [
        Problem(p.code, p.message, p.template, p.grammar, p.position, fields.vocabulary_line)
        if p.code == E.E_VOCABULARY and p.line is None and fields.vocabulary_line is not None
        else p
        for p in problems
    ]


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


@contextmanager
def _phrase_folder(phrase_texts: Mapping[str, str]) -> Iterator[Path]:
    """Yield a folder to parse a template in, with each stored phrase file at its relative path.

    The engine reads phrase files relative to the template's folder; the stored copies are laid
    out in a fresh temporary folder deep enough for paths such as `../phrases/x.yaml`. A path
    that would leave it (an absolute path) is not written, so the engine reports it missing.
    """
    with tempfile.TemporaryDirectory(prefix="mpp-template-") as tmp:
        root = Path(tmp)
        depth = max((_levels_up(rel) for rel in phrase_texts), default=0)
        folder = root.joinpath(*["t"] * depth)
        folder.mkdir(parents=True, exist_ok=True)
        for rel, text in phrase_texts.items():
            target = Path(os.path.normpath(folder / rel))
            if not target.is_relative_to(root) or target.is_dir():
                continue
            try:
                # Make each folder the path walks through, as the operating system follows
                # `a/../x` through `a`; none lies above `root`, which is deep enough.
                current = folder
                for part in PurePosixPath(rel).parts[:-1]:
                    current = current / part
                    if part not in ("..", "."):
                        current.mkdir(exist_ok=True)
                target.write_text(text, encoding="utf-8")
            except OSError:  # a path that clashes with another (a file where a folder must be)
                continue
        yield folder


def _levels_up(rel: str) -> int:
    """Return how many folders above its start a relative path climbs at most."""
    level = lowest = 0
    for part in PurePosixPath(rel).parts:
        if part == "..":
            level -= 1
        elif part not in (".", "/"):
            level += 1
        lowest = min(lowest, level)
    return -lowest
