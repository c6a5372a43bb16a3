"""Import an uploaded CSV/TSV table (and optional `.schema.yaml`) as a new project vocabulary.

All or nothing: a file with any problem stores nothing. The engine reads the whole upload and
reports every bad row at once; only a file it accepts is written. The file is checked before the
name, so a user with a bad file sees its row errors first. `vocabulary_upload_read` reads and
checks; the import job (`import_jobs`) then writes the items in short chunks.
"""

from dataclasses import dataclass
from pathlib import Path

import yaml
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from mpp_studio.accounts.models import Project
from mpp_studio.core.uploads import mib_text
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.lexicon.services.vocabularies import (
    lexicon_storage_problems,
    vocabulary_create_from_lexicon,
    vocabulary_name_free,
)
from mpp_studio.lexicon.validation import language_check, vocabulary_name_check
from vocab.errors import E_ENCODING, E_SCHEMA, E_VALUE, RowError, VocabularyError
from vocab.import_report import ImportNote
from vocab.io import read_vocabulary_bytes
from vocab.lexicon import FeatureSchema
from vocab.lexicon import Vocabulary as Lexicon
from vocab.schema_file import schema_text_to_schema

# The default of MPP_VOCABULARY_UPLOAD_MAX_BYTES: a 10 MiB table holds ~200,000 items.
MAX_UPLOAD_BYTES = 10 * 1024 * 1024


def max_upload_bytes() -> int:
    """Return the largest vocabulary table (or schema) an upload takes: MPP_VOCABULARY_UPLOAD_MAX_BYTES.

    Larger files are refused before they are read, on the import page and API and inside template
    and ZhoBLiMP uploads alike.
    """
    return int(getattr(settings, "MPP_VOCABULARY_UPLOAD_MAX_BYTES", MAX_UPLOAD_BYTES))


class ImportRejected(VocabularyError):
    """An upload the engine (or a storage limit) rejects; `field` names the upload (file, schema_file)."""

    def __init__(self, errors: list[RowError] | tuple[RowError, ...], field: str) -> None:
        super().__init__(errors)
        self.field = field


@dataclass(frozen=True, slots=True)
class Upload:
    """An uploaded file: its name (as the user's computer called it) and its bytes."""

    name: str
    data: bytes


DEFAULT_MAX_ITEMS = 200_000


def max_items() -> int:
    """Return the most items one uploaded vocabulary may hold (setting MPP_VOCABULARY_MAX_ITEMS)."""
    return int(getattr(settings, "MPP_VOCABULARY_MAX_ITEMS", DEFAULT_MAX_ITEMS))


def row_count_problem(data: bytes) -> str | None:
    """Return why a table with this many rows is refused before it is read, or None.

    Rows are the non-blank lines after the header: counting them takes a fraction of a second,
    where reading and storing a million tiny rows would hold the request for minutes.
    """
    rows = sum(1 for line in data.splitlines() if line.strip()) - 1
    limit = max_items()
    if rows <= limit:
        return None
    return (
        f"the table has {rows:,} rows; a vocabulary takes at most {limit:,} items "
        "(split it into several vocabularies)"
    )


def size_problem(size: int, name: str = "") -> str | None:
    """Return why a file of `size` bytes (called `name`) is refused, or None if it is within the limit."""
    limit = max_upload_bytes()
    if size <= limit:
        return None
    return (
        f"the file is {size / 1024 / 1024:.1f} MiB; the limit is {mib_text(limit)} "
        f"(split {name or 'the vocabulary'} into several files)"
    )


def _schema_read(upload: Upload) -> tuple[FeatureSchema, str, str]:
    """Return the schema, its language and its declared `name` ("" if none).

    Raises:
        ImportRejected: (schema_file) every problem of the schema, by line.
    """
    data = upload.data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportRejected(
            [
                RowError(
                    upload.name, line, None, "this line is not UTF-8 text; save the file as UTF-8", E_SCHEMA
                )
            ],
            "schema_file",
        ) from None
    try:
        schema, language = schema_text_to_schema(text, file=upload.name)
    except VocabularyError as exc:
        raise ImportRejected(exc.errors, "schema_file") from None
    # The engine has read this YAML and accepts a `name` entry without returning it.
    declared = yaml.safe_load(text)
    name = declared.get("name") if isinstance(declared, dict) else None
    return schema, language, name.strip() if isinstance(name, str) else ""


def nul_byte_errors(data: bytes, file_name: str) -> list[RowError]:
    """Return one error per line holding a NUL byte: a binary file, or UTF-16 text."""
    return [
        RowError(
            file_name,
            number,
            None,
            "this line holds a NUL byte; the file looks binary or UTF-16, not a UTF-8 text table",
            E_ENCODING,
        )
        for number, line in enumerate(data.split(b"\n"), start=1)
        if b"\x00" in line
    ]


def _read_table(upload: Upload, *, schema: FeatureSchema | None, language: str, name: str) -> Lexicon:
    """Return the engine's reading of the table.

    Raises:
        ImportRejected: (file) every problem of the table, by line and column.
    """
    nul = nul_byte_errors(upload.data, upload.name)
    try:
        lexicon = read_vocabulary_bytes(
            upload.data, file_name=upload.name, schema=schema, name=name, language=language
        )
    except VocabularyError as exc:
        reported = {e.line for e in exc.errors if e.code == E_ENCODING}
        errors = [*exc.errors, *(e for e in nul if e.line not in reported)]
        raise ImportRejected(sorted(errors, key=lambda e: e.line or 0), "file") from None
    if nul:
        raise ImportRejected(nul, "file")
    return lexicon


def _storage_errors(lexicon: Lexicon, file_name: str) -> list[RowError]:
    """Return a problem for every item value the database cannot store (too long, control characters)."""
    return [
        RowError(file_name, None, column, message, E_VALUE)
        for column, message in lexicon_storage_problems(lexicon)
    ]


def _schema_language_check(language: str, file_name: str) -> str:
    """Return the schema's language code.

    Raises:
        ImportRejected: (schema_file) if it is not a language code.
    """
    try:
        return language_check(language)
    except ValidationError as exc:
        message = exc.message_dict["language"][0]
        raise ImportRejected(
            [RowError(file_name, None, None, f"'language': {message}", E_SCHEMA)], "schema_file"
        ) from None


@dataclass(frozen=True, slots=True)
class PreparedVocabulary:
    """An uploaded file the engine accepted, ready to be stored: its engine vocabulary, the name and
    description to store it under, and the converter's report (BLiMP, ZhoBLiMP; empty for ours)."""

    lexicon: Lexicon
    name: str
    description: str
    notes: tuple[ImportNote, ...] = ()


def upload_lexicon_read(
    *,
    table: Upload,
    schema_file: Upload | None = None,
    language: str = "",
    name: str = "",
    schema: FeatureSchema | None = None,
) -> tuple[Lexicon, str]:
    """Return the engine's reading of an uploaded table and the `name` its schema file declares
    ("" if none); store nothing. Each file is held to the size limit and the table to the row
    limit before it is read. The table is read against the schema file's schema, else `schema`
    (a vocabulary updated from a file: its own), else one inferred from the table; the language
    is `language`, else the schema file's.

    Raises:
        ImportRejected: listing every problem of the table (field "file") or of the schema
            (field "schema_file"), with file, line and column.
    """
    for upload, field in ((table, "file"), (schema_file, "schema_file")):
        problem = size_problem(len(upload.data)) if upload is not None else None
        if upload is not None and problem is not None:
            raise ImportRejected([RowError(upload.name, None, None, problem, E_ENCODING)], field)
    rows = row_count_problem(table.data)
    if rows is not None:
        raise ImportRejected([RowError(table.name, None, None, rows, E_VALUE)], "file")
    schema_name = ""
    if schema_file is not None:
        schema, schema_language, schema_name = _schema_read(schema_file)
        language = language or _schema_language_check(schema_language, schema_file.name)
    lexicon = _read_table(
        table, schema=schema, language=language, name=name or schema_name or Path(table.name).stem
    )
    storage = _storage_errors(lexicon, table.name)
    if storage:
        raise ImportRejected(storage, "file")
    return lexicon, schema_name


def vocabulary_upload_read(
    *,
    project: Project,
    table: Upload,
    schema_file: Upload | None = None,
    name: str = "",
    language: str = "",
    description: str = "",
    own: Vocabulary | None = None,
) -> PreparedVocabulary:
    """Read an uploaded table and optional schema file with the engine; store nothing.

    The name is `name`, else the schema's `name`, else the table's file stem; the language is
    `language`, else the schema's. The name must be free in the project (but for `own`: the
    vocabulary an import job began, which its second run finds).

    Raises:
        ImportRejected: listing every problem of the table (field "file") or of the schema
            (field "schema_file"), with file, line and column.
        ValidationError: naming the field: a taken or malformed name, a malformed language.
    """
    language = language_check(language)
    lexicon, _ = upload_lexicon_read(
        table=table, schema_file=schema_file, language=language, name=name.strip()
    )
    name = vocabulary_name_check(lexicon.name)  # the name asked, else the schema's, else the stem
    vocabulary_name_free(project=project, name=name, exclude=own)
    return PreparedVocabulary(lexicon, name, description.strip())


@transaction.atomic(durable=True)
def vocabulary_import_upload(
    *,
    project: Project,
    table: Upload,
    schema_file: Upload | None = None,
    name: str = "",
    language: str = "",
    description: str = "",
) -> Vocabulary:
    """Create a project vocabulary from a table and optional schema file, in one go (the library,
    the tests, small files): see `vocabulary_upload_read`. An upload on the import page or API
    is stored by a job (`import_jobs.vocabulary_import_start`).

    Raises:
        ImportRejected: as `vocabulary_upload_read`; nothing is stored.
        ValidationError: as `vocabulary_upload_read`.
    """
    prepared = vocabulary_upload_read(
        project=project,
        table=table,
        schema_file=schema_file,
        name=name,
        language=language,
        description=description,
    )
    return vocabulary_create_from_lexicon(
        project=project, lexicon=prepared.lexicon, name=prepared.name, description=prepared.description
    )
