"""Import paradigms of the shipped library into a project: vocabulary, phrases and template.

Each library template comes with what it needs, in this order: its vocabulary (a project
vocabulary named by the stem of the template's `vocabulary:` path), the phrases of its phrase
files, and the template itself as version 1 of a new project template. What the project already
has with the same content is reused. What it has under the same name with other content is never
overwritten: that paradigm is skipped with a message naming both, and nothing of it is stored
(one template's import is one transaction).
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Literal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from mpp_studio.accounts.models import Project
from mpp_studio.lexicon.engine import vocabulary_parse, vocabulary_to_engine
from mpp_studio.lexicon.models import LibraryVocabulary, Vocabulary
from mpp_studio.lexicon.services.vocabularies import vocabulary_create_from_lexicon
from mpp_studio.paradigms.engine import template_fields
from mpp_studio.paradigms.models import LibraryTemplate, Template, TemplateVersion
from mpp_studio.paradigms.project_engine import vocabulary_name
from mpp_studio.paradigms.services.phrases import (
    PhraseConflictError,
    PhraseFileError,
    PhraseImport,
    phrase_file_import,
)
from mpp_studio.paradigms.services.project_templates import template_save
from vocab.errors import VocabularyError

PartOutcome = Literal["created", "reused"]


@dataclass(frozen=True, slots=True)
class ImportedPart:
    """A vocabulary or phrase that a template's import created in the project or found there."""

    kind: Literal["vocabulary", "phrase"]
    name: str
    outcome: PartOutcome


@dataclass(frozen=True, slots=True)
class TemplateImportResult:
    """What the import did with one library template: imported (with its parts) or skipped, and why."""

    source: LibraryTemplate
    imported: bool
    message: str = ""  # why it was skipped; a note (such as a missing vocabulary) when imported
    parts: tuple[ImportedPart, ...] = ()
    version: TemplateVersion | None = None

    @property
    def template(self) -> Template | None:
        return self.version.template if self.version is not None else None

    @property
    def created(self) -> list[ImportedPart]:
        return [p for p in self.parts if p.outcome == "created"]

    @property
    def reused(self) -> list[ImportedPart]:
        return [p for p in self.parts if p.outcome == "reused"]


@dataclass(slots=True)
class LibraryImportReport:
    """The outcome of each chosen library template, in the order they were imported."""

    project: Project
    results: list[TemplateImportResult] = field(default_factory=list)

    @property
    def imported(self) -> list[TemplateImportResult]:
        return [r for r in self.results if r.imported]

    @property
    def skipped(self) -> list[TemplateImportResult]:
        return [r for r in self.results if not r.imported]


class _Skip(Exception):
    """Stops one template's import; its transaction is rolled back and the message reported."""


def library_templates_import(
    *, project: Project, templates: Sequence[LibraryTemplate], user: AbstractBaseUser | None
) -> LibraryImportReport:
    """Import each library template, with its vocabulary and phrases, into the project.

    Each template is imported in its own transaction: either all it needs is stored (or found
    already stored with the same content) and the template becomes version 1 of a new project
    template, with the problems the engine finds in the project, or nothing of it is stored and
    the report says why (a uid, vocabulary or phrase the project has with other content, or a
    library file that cannot be read).
    """
    report = LibraryImportReport(project=project)
    for library_template in templates:
        try:
            with transaction.atomic():
                result = _template_import(project, library_template, user)
        except _Skip as exc:
            result = TemplateImportResult(library_template, imported=False, message=str(exc))
        report.results.append(result)
    return report


def _template_import(
    project: Project, source: LibraryTemplate, user: AbstractBaseUser | None
) -> TemplateImportResult:
    if Template.objects.filter(project=project, uid=source.uid).exists():
        raise _Skip(
            f"The project already has a template with uid '{source.uid}'; it was left as it is. "
            "Rename or delete the project's template to import this one."
        )
    parts: list[ImportedPart] = []
    note = ""
    reference = template_fields(source.source_text).vocabulary
    if source.vocabulary is not None and reference:
        parts.append(_vocabulary_import(project, source, source.vocabulary, vocabulary_name(reference)))
    elif (
        reference and not Vocabulary.objects.filter(project=project, name=vocabulary_name(reference)).exists()
    ):
        note = (
            f"The library holds no usable vocabulary '{vocabulary_name(reference)}' for this paradigm, "
            "so its check in the project reports the missing vocabulary."
        )
    for path, text in sorted(source.phrase_texts.items()):
        name = _library_path(path)
        try:
            imported: list[PhraseImport] = phrase_file_import(
                project=project,
                file_name=name,
                text=text,
                description=f"Imported from the paradigm library ({name}).",
            )
        except PhraseConflictError as exc:
            raise _Skip(
                f"{_sentence(str(exc))[:-1]}, and this paradigm was not imported. Rename one of the two "
                "phrases, then import again."
            ) from None
        except PhraseFileError as exc:
            raise _Skip(f"The library's phrase file cannot be imported: {exc}.") from None
        parts += [ImportedPart("phrase", p.name, p.outcome) for p in imported]
    try:
        version = template_save(
            project=project,
            source_text=source.source_text,
            user=user,
            note=f"Imported from the paradigm library ({source.file_name}).",
        )
    except ValidationError as exc:
        raise _Skip(f"The template cannot be saved: {' '.join(exc.messages)}") from None
    return TemplateImportResult(source, imported=True, message=note, parts=tuple(parts), version=version)


def _vocabulary_import(
    project: Project, source: LibraryTemplate, library_vocabulary: LibraryVocabulary, name: str
) -> ImportedPart:
    """Return the project vocabulary `name` made from the library's, or found with the same content."""
    try:
        lexicon = vocabulary_parse(
            file_name=library_vocabulary.file_name,
            items_text=library_vocabulary.items_text,
            schema_text=library_vocabulary.schema_text,
        ).lexicon
    except VocabularyError as exc:
        raise _Skip(
            f"The library's vocabulary {library_vocabulary.file_name} cannot be read: {exc.errors[0]}"
        ) from None
    existing = Vocabulary.objects.filter(project=project, name=name).first()
    if existing is not None:
        if vocabulary_to_engine(existing).version == lexicon.version:
            return ImportedPart("vocabulary", name, "reused")
        raise _Skip(
            f"The project's vocabulary '{name}' differs from the library's vocabulary "
            f"{library_vocabulary.file_name} (which the paradigm names '{name}'); the project's "
            "vocabulary was left unchanged, and this paradigm was not imported. Rename or delete the "
            "project's vocabulary to import the paradigm with the library's."
        )
    try:
        vocabulary_create_from_lexicon(
            project=project,
            lexicon=lexicon,
            name=name,
            description=f"Imported from the paradigm library ({library_vocabulary.file_name}).",
        )
    except ValidationError as exc:
        raise _Skip(f"The vocabulary '{name}' cannot be stored: {' '.join(exc.messages)}") from None
    return ImportedPart("vocabulary", name, "created")


def _library_path(path: str) -> str:
    """Return a phrase file's path as written in a template without its climb: phrases/en.yaml."""
    parts = [part for part in PurePosixPath(path).parts if part not in ("..", ".")]
    return "/".join(parts) or path


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."
