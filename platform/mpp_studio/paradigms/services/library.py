"""The import of a grammar-library folder: its vocabulary and template files become stored versions."""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from django.core.exceptions import ValidationError

from generator import errors as E
from generator.errors import Problem
from generator.library import is_template_file
from mpp_studio.lexicon.engine import SCHEMA_SUFFIX
from mpp_studio.lexicon.models import LibraryVocabulary
from mpp_studio.lexicon.services import vocabulary_import
from mpp_studio.paradigms.engine import template_fields
from mpp_studio.paradigms.models import LibraryTemplate
from mpp_studio.paradigms.services.templates import template_import
from vocab.errors import VocabularyError
from vocab.io import read_vocabulary_bytes, sidecar_schema_path

VOCABULARY_FOLDER = "vocabularies"
VOCABULARY_SUFFIXES = (".csv", ".tsv")

Outcome = Literal["created", "unchanged", "skipped"]


@dataclass(frozen=True, slots=True)
class LibraryFileResult:
    """What the import did with one file.

    `message` says why a file was skipped; `details` lists its problems, one per line: the row
    errors of a rejected vocabulary, or the problems stored with a template.
    """

    file_name: str
    outcome: Outcome
    message: str = ""
    details: tuple[str, ...] = ()


@dataclass(slots=True)
class LibraryImportReport:
    """The outcome of each vocabulary and template file, in the order they were read."""

    results: list[LibraryFileResult] = field(default_factory=list)

    def count(self, outcome: Outcome) -> int:
        """Return how many files had this outcome."""
        return sum(1 for result in self.results if result.outcome == outcome)

    def with_problems(self) -> list[LibraryFileResult]:
        """Return the templates that were stored (now or before) with problems."""
        return [r for r in self.results if r.outcome != "skipped" and r.details]


class LibraryFileError(Exception):
    """A library file that cannot be stored; the message is meant for the file's author."""

    def __init__(self, message: str, details: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.details = details


def library_import(*, library_dir: Path) -> LibraryImportReport:
    """Import every vocabulary and template file of a grammar library, one version per content.

    Vocabularies are `vocabularies/*.csv` and `*.tsv`, each with an optional sidecar
    `<stem>.schema.yaml`; the vocabulary engine reads each, and one it rejects is skipped with
    its row errors (nothing of it is stored). Templates are the `*.yaml` files at any depth with
    a top-level `uid:`; their `vocabulary:` and `phrase_files:` are paths relative to the
    template file. Every template is stored, with the problems the engine finds (see
    `template_import`), unless it is not UTF-8 text. A missing folder imports nothing.
    """
    report = LibraryImportReport()
    if not library_dir.is_dir():
        return report
    root = library_dir.resolve()

    vocabularies: dict[str, LibraryVocabulary] = {}
    for path in _vocabulary_files(root):
        file_name = path.relative_to(root).as_posix()
        try:
            vocabulary, created = _import_vocabulary_file(path, file_name)
        except LibraryFileError as exc:
            report.results.append(LibraryFileResult(file_name, "skipped", str(exc), exc.details))
            continue
        vocabularies[file_name] = vocabulary
        report.results.append(LibraryFileResult(file_name, "created" if created else "unchanged"))

    for path in _template_files(root):
        file_name = path.relative_to(root).as_posix()
        try:
            template, created = _import_template_file(path, file_name, root, vocabularies)
        except LibraryFileError as exc:
            report.results.append(LibraryFileResult(file_name, "skipped", str(exc), exc.details))
            continue
        problems = tuple(str(Problem(**problem)) for problem in template.problems)
        report.results.append(
            LibraryFileResult(file_name, "created" if created else "unchanged", details=problems)
        )
    return report


def _vocabulary_files(root: Path) -> list[Path]:
    folder = root / VOCABULARY_FOLDER
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in VOCABULARY_SUFFIXES)


def _template_files(root: Path) -> list[Path]:
    return sorted(
        p
        for p in root.rglob("*.yaml")
        if p.is_file()
        and not p.name.endswith(SCHEMA_SUFFIX)
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
        and is_template_file(p)
    )


def _import_vocabulary_file(path: Path, file_name: str) -> tuple[LibraryVocabulary, bool]:
    try:
        items_text = _read_text(path)
    except LibraryFileError:
        try:  # let the engine name every line that is not UTF-8
            read_vocabulary_bytes(_read_bytes(path), file_name=path.name)
        except VocabularyError as exc:
            raise _rejected(exc) from None
        raise
    schema_path = sidecar_schema_path(path)
    schema_text = _read_text(schema_path) if schema_path.is_file() else ""
    try:
        return vocabulary_import(file_name=file_name, items_text=items_text, schema_text=schema_text)
    except VocabularyError as exc:
        raise _rejected(exc) from None
    except ValidationError as exc:
        raise LibraryFileError(_validation_message(exc)) from exc


def _rejected(exc: VocabularyError) -> LibraryFileError:
    """Return the skip of a vocabulary the engine rejected, listing every row error."""
    count = len(exc.errors)
    return LibraryFileError(
        f"the vocabulary has {count} problem{'s' if count != 1 else ''}; nothing of it was stored",
        tuple(str(error) for error in exc.errors),
    )


def _import_template_file(
    path: Path, file_name: str, root: Path, vocabularies: dict[str, LibraryVocabulary]
) -> tuple[LibraryTemplate, bool]:
    source_text = _read_text(path)
    fields = template_fields(source_text)
    phrase_texts, phrase_problems = _read_phrase_files(path, fields.phrase_files)
    vocabulary, vocabulary_problem = _linked_vocabulary(fields.vocabulary, path, root, vocabularies)
    try:
        return template_import(
            file_name=file_name,
            source_text=source_text,
            phrase_texts=phrase_texts,
            vocabulary=vocabulary,
            vocabulary_problem=vocabulary_problem,
            file_problems=phrase_problems,
        )
    except ValidationError as exc:
        raise LibraryFileError(_validation_message(exc)) from exc


def _read_phrase_files(path: Path, names: tuple[str, ...]) -> tuple[dict[str, str], list[Problem]]:
    """Return the text of each phrase file the template names (by the path as written).

    A file that does not exist is left out: the engine then reports it by name and line.
    """
    texts: dict[str, str] = {}
    problems: list[Problem] = []
    for name in names:
        target = path.parent / name
        if Path(name).is_absolute() or not target.is_file():
            continue
        try:
            texts[name] = _read_text(target)
        except LibraryFileError as exc:
            problems.append(Problem(E.E_SYNTAX, f"phrase file '{name}': {exc}", path.name))
    return texts, problems


def _linked_vocabulary(
    ref: str, path: Path, root: Path, vocabularies: dict[str, LibraryVocabulary]
) -> tuple[LibraryVocabulary | None, str]:
    """Return the vocabulary version a template's `vocabulary:` names, or None and why not."""
    if not ref:
        return None, ""
    target = (path.parent / ref).resolve()
    if not target.is_file():
        return None, f"vocabulary file '{ref}' does not exist"
    try:
        vocabulary_name = target.relative_to(root).as_posix()
    except ValueError:
        return None, f"vocabulary file '{ref}' is outside the library folder"
    vocabulary = vocabularies.get(vocabulary_name)
    if vocabulary is not None:
        return vocabulary, ""
    if target.parent == root / VOCABULARY_FOLDER and target.suffix in VOCABULARY_SUFFIXES:
        return (
            None,
            f"vocabulary {vocabulary_name} has problems, so it was not imported (load_demo lists them)",
        )
    return None, f"vocabulary file '{ref}' is not a .csv or .tsv file in {VOCABULARY_FOLDER}/"


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise LibraryFileError(f"cannot read {path.name}: {exc.strerror}") from None


def _read_text(path: Path) -> str:
    try:
        # utf-8-sig drops the byte-order mark that spreadsheet programs put in CSV exports.
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LibraryFileError(
            f"{path.name} is not UTF-8 text (byte {exc.start}): save it as UTF-8"
        ) from None
    except OSError as exc:
        raise LibraryFileError(f"cannot read {path.name}: {exc.strerror}") from None


def _validation_message(exc: ValidationError) -> str:
    if hasattr(exc, "message_dict"):
        return "; ".join(f"{name}: {' '.join(messages)}" for name, messages in exc.message_dict.items())
    return " ".join(exc.messages)
