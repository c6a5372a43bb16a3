"""Writes for grammar templates, and the import of a grammar-library folder."""

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml
from django.core.exceptions import ValidationError
from django.db import transaction

from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.lexicon.services import vocabulary_import
from mpp_studio.paradigms.models import Template

VOCABULARY_FOLDER = "vocabularies"
VOCABULARY_SUFFIXES = (".csv", ".tsv")
SCHEMA_SUFFIX = ".schema.yaml"

Outcome = Literal["created", "unchanged", "skipped"]


@dataclass(frozen=True, slots=True)
class LibraryFileResult:
    """What the import did with one file; `message` says why a file was skipped."""

    file_name: str
    outcome: Outcome
    message: str = ""


@dataclass(slots=True)
class LibraryImportReport:
    """The outcome of each vocabulary and template file, in the order they were read."""

    results: list[LibraryFileResult] = field(default_factory=list)

    def count(self, outcome: Outcome) -> int:
        """Return how many files had this outcome."""
        return sum(1 for result in self.results if result.outcome == outcome)


class LibraryFileError(Exception):
    """A library file that cannot be imported; the message is meant for the file's author."""


@transaction.atomic
def template_import(
    *,
    file_name: str,
    source_text: str,
    uid: str,
    phenomenon: str = "",
    language: str = "",
    description: str = "",
    vocabulary: Vocabulary | None = None,
) -> tuple[Template, bool]:
    """Store this version of a template file unless it is stored already.

    Returns:
        The row for (file_name, content hash) and whether it was created now.

    Raises:
        ValidationError: if a field does not fit (for example a uid longer than 200 characters).
    """
    content_hash = hashlib.sha256(source_text.encode()).hexdigest()
    existing = Template.objects.filter(file_name=file_name, content_hash=content_hash).first()
    if existing is not None:
        return existing, False
    template = Template(
        file_name=file_name,
        content_hash=content_hash,
        source_text=source_text,
        uid=uid,
        phenomenon=phenomenon,
        language=language,
        description=description,
        vocabulary=vocabulary,
    )
    template.full_clean()
    template.save()
    return template, True


def library_import(*, library_dir: Path) -> LibraryImportReport:
    """Import every vocabulary and template file of a grammar library, one version per content.

    Vocabularies are `vocabularies/*.csv` and `*.tsv`, each with an optional sidecar
    `<stem>.schema.yaml`. Templates are the other `*.yaml` files at any depth whose top-level
    mapping has a `uid`; their `vocabulary:` is a path relative to the template file. A file that
    cannot be read is skipped with a message and does not stop the others. A missing folder
    imports nothing.
    """
    report = LibraryImportReport()
    if not library_dir.is_dir():
        return report
    root = library_dir.resolve()

    vocabularies: dict[str, Vocabulary] = {}
    for path in _vocabulary_files(root):
        file_name = path.relative_to(root).as_posix()
        try:
            vocabulary, created = _import_vocabulary_file(path, file_name)
        except LibraryFileError as exc:
            report.results.append(LibraryFileResult(file_name, "skipped", str(exc)))
            continue
        vocabularies[file_name] = vocabulary
        report.results.append(LibraryFileResult(file_name, "created" if created else "unchanged"))

    for path in _template_candidates(root):
        file_name = path.relative_to(root).as_posix()
        try:
            imported = _import_template_file(path, file_name, root, vocabularies)
        except LibraryFileError as exc:
            report.results.append(LibraryFileResult(file_name, "skipped", str(exc)))
            continue
        if imported is not None:
            outcome: Outcome = "created" if imported[1] else "unchanged"
            report.results.append(LibraryFileResult(file_name, outcome))
    return report


def _vocabulary_files(root: Path) -> list[Path]:
    folder = root / VOCABULARY_FOLDER
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in VOCABULARY_SUFFIXES)


def _template_candidates(root: Path) -> list[Path]:
    return sorted(
        p
        for p in root.rglob("*.yaml")
        if p.is_file()
        and not p.name.endswith(SCHEMA_SUFFIX)
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )


def _import_vocabulary_file(path: Path, file_name: str) -> tuple[Vocabulary, bool]:
    items_text = _read_text(path)
    if not items_text.strip():
        raise LibraryFileError("the file is empty")
    schema_path = path.with_name(path.stem + SCHEMA_SUFFIX)
    schema_text = _read_text(schema_path) if schema_path.is_file() else ""
    schema: object = None
    if schema_text:
        schema = _load_yaml(schema_text, f"schema {schema_path.name}")
        if schema is not None and not isinstance(schema, dict):
            raise LibraryFileError(f"schema {schema_path.name} must be a mapping of settings")
    declared = schema if isinstance(schema, dict) else {}
    try:
        return vocabulary_import(
            file_name=file_name,
            name=_text_field(declared, "name") or path.stem,
            language=_text_field(declared, "language"),
            items_text=items_text,
            schema_text=schema_text,
        )
    except ValidationError as exc:
        raise LibraryFileError(_validation_message(exc)) from exc


def _import_template_file(
    path: Path, file_name: str, root: Path, vocabularies: dict[str, Vocabulary]
) -> tuple[Template, bool] | None:
    """Import one YAML file; return None when it is not a template (no top-level `uid`)."""
    source_text = _read_text(path)
    data = _load_yaml(source_text, "YAML")
    if not isinstance(data, dict) or "uid" not in data:
        return None
    uid = _text_field(data, "uid")
    if not uid:
        raise LibraryFileError("'uid' must be a non-empty text value")
    vocabulary = _linked_vocabulary(data.get("vocabulary"), path, root, vocabularies)
    try:
        return template_import(
            file_name=file_name,
            source_text=source_text,
            uid=uid,
            phenomenon=_text_field(data, "phenomenon"),
            language=_text_field(data, "language"),
            description=_text_field(data, "description"),
            vocabulary=vocabulary,
        )
    except ValidationError as exc:
        raise LibraryFileError(_validation_message(exc)) from exc


def _linked_vocabulary(
    ref: object, path: Path, root: Path, vocabularies: dict[str, Vocabulary]
) -> Vocabulary | None:
    if ref is None:
        return None
    if not isinstance(ref, str) or not ref.strip():
        raise LibraryFileError("'vocabulary' must be a path to a vocabulary file")
    target = (path.parent / ref).resolve()
    if not target.is_file():
        raise LibraryFileError(f"vocabulary file '{ref}' does not exist")
    try:
        vocabulary_name = target.relative_to(root).as_posix()
    except ValueError:
        raise LibraryFileError(f"vocabulary file '{ref}' is outside the library folder") from None
    vocabulary = vocabularies.get(vocabulary_name)
    if vocabulary is None:
        if target.parent == root / VOCABULARY_FOLDER and target.suffix in VOCABULARY_SUFFIXES:
            raise LibraryFileError(f"its vocabulary {vocabulary_name} was skipped (see above)")
        raise LibraryFileError(f"vocabulary file '{ref}' is not a .csv or .tsv file in {VOCABULARY_FOLDER}/")
    return vocabulary


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


def _load_yaml(text: str, what: str) -> object:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        if mark is not None:
            where = f"line {mark.line + 1}, column {mark.column + 1}"
            raise LibraryFileError(f"invalid {what} at {where}: {problem}") from None
        raise LibraryFileError(f"invalid {what}: {problem}") from None


def _text_field(data: dict[object, object], key: str) -> str:
    value = data.get(key)
    if value is None:
        return ""
    if isinstance(value, dict | list):
        raise LibraryFileError(f"'{key}' must be a single text value")
    return str(value).strip()


def _validation_message(exc: ValidationError) -> str:
    if hasattr(exc, "message_dict"):
        return "; ".join(f"{name}: {' '.join(messages)}" for name, messages in exc.message_dict.items())
    return " ".join(exc.messages)
