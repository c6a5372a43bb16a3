"""Import another benchmark's vocabulary file (BLiMP vocabulary.csv, ZhoBLiMP vocabulary TSV).

The engines convert the file and report, row by row, what they changed or left out; a file
they cannot use at all stores nothing. The stored vocabulary keeps the engine's schema.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from django.db import transaction

from generator.importers.zhoblimp_vocab import import_zhoblimp_vocabulary
from mpp_studio.accounts.models import Project
from mpp_studio.lexicon.models import Vocabulary, VocabularyImport
from mpp_studio.lexicon.services.imports import (
    ImportRejected,
    PreparedVocabulary,
    Upload,
    nul_byte_errors,
    row_count_problem,
    size_problem,
)
from mpp_studio.lexicon.services.vocabularies import (
    lexicon_storage_problems,
    vocabulary_create_from_lexicon,
    vocabulary_name_free,
)
from mpp_studio.lexicon.validation import language_check, vocabulary_name_check
from vocab.blimp_import import import_blimp_vocabulary
from vocab.errors import E_ENCODING, E_VALUE, RowError, VocabularyError
from vocab.import_report import ImportNote
from vocab.lexicon import Vocabulary as Lexicon

SourceFormat = Literal["blimp", "zhoblimp"]
SOURCE_FORMATS: dict[str, str] = {
    value: label for value, label in VocabularyImport.Format.choices if value != VocabularyImport.Format.OURS
}


@dataclass(frozen=True, slots=True)
class ConvertedImport:
    """The stored vocabulary and the converter's report (every row or column not kept as written)."""

    vocabulary: Vocabulary
    notes: tuple[ImportNote, ...]


def vocabulary_converted_read(
    *,
    project: Project,
    table: Upload,
    source_format: SourceFormat,
    name: str = "",
    language: str = "",
    description: str = "",
    own: Vocabulary | None = None,
) -> PreparedVocabulary:
    """Convert a BLiMP or ZhoBLiMP vocabulary file with the engine; store nothing.

    The name is `name`, else the file's stem; the language is `language`, else the format's
    (en for BLiMP, zh for ZhoBLiMP). The name must be free in the project (but for `own`: the
    vocabulary an import job began, which its second run finds).

    Raises:
        ImportRejected: (field "file") the file cannot be used at all, or holds values the database
            cannot store; every problem is listed with its line and column.
        ValidationError: {"name": ...} for a taken or malformed name.
    """
    problem = size_problem(len(table.data))
    if problem is not None:
        raise ImportRejected([RowError(table.name, None, None, problem, E_ENCODING)], "file")
    # The converters would read UTF-16 without a byte-order mark as one odd column, not as binary.
    nul = nul_byte_errors(table.data, table.name)
    if nul:
        raise ImportRejected(nul, "file")
    rows = row_count_problem(table.data)
    if rows is not None:
        raise ImportRejected([RowError(table.name, None, None, rows, E_VALUE)], "file")
    name = vocabulary_name_check(name.strip() or Path(table.name).stem)
    language = language_check(language)
    try:
        if source_format == "blimp":
            blimp = import_blimp_vocabulary(table.data, file_name=table.name, name=name)
            lexicon, notes = blimp.vocabulary, blimp.notes
        else:
            zho = import_zhoblimp_vocabulary(table.data, file_name=table.name, name=name)
            lexicon, notes = zho.vocabulary, zho.notes
    except VocabularyError as exc:
        raise ImportRejected(exc.errors, "file") from None
    if language:
        lexicon = Lexicon(lexicon.items, lexicon.schema, name=name, language=language)
    storage = [RowError(table.name, None, c, m, E_VALUE) for c, m in lexicon_storage_problems(lexicon)]
    if storage:
        raise ImportRejected(storage, "file")
    vocabulary_name_free(project=project, name=name, exclude=own)
    label = SOURCE_FORMATS[source_format]
    description = description.strip() or f"Imported from {table.name} ({label})."
    return PreparedVocabulary(lexicon, name, description, tuple(notes))


@transaction.atomic(durable=True)
def vocabulary_import_converted(
    *,
    project: Project,
    table: Upload,
    source_format: SourceFormat,
    name: str = "",
    language: str = "",
    description: str = "",
) -> ConvertedImport:
    """Create a project vocabulary from a BLiMP or ZhoBLiMP vocabulary file in one go; return it and
    the report (see `vocabulary_converted_read`). An upload on the import page or API is stored
    by a job (`import_jobs.vocabulary_import_start`).

    Raises:
        ImportRejected: as `vocabulary_converted_read`; nothing is stored.
        ValidationError: as `vocabulary_converted_read`.
    """
    prepared = vocabulary_converted_read(
        project=project,
        table=table,
        source_format=source_format,
        name=name,
        language=language,
        description=description,
    )
    vocabulary = vocabulary_create_from_lexicon(
        project=project, lexicon=prepared.lexicon, name=prepared.name, description=prepared.description
    )
    return ConvertedImport(vocabulary, prepared.notes)
