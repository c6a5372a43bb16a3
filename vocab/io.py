"""Read and write vocabulary tables: CSV or TSV files with an optional `.schema.yaml` sidecar.

A table has one row per item. `form` is required; `id`, `lemma` and `pos` are optional
(`lemma` defaults to the form); every other column is a feature. A blank cell means "not
applicable". Reading collects every problem of a file and raises them together: a file is
either read completely or not at all.
"""

from __future__ import annotations

from pathlib import Path

from vocab.lexicon import FeatureSchema, Vocabulary
from vocab.schema_file import load_schema, read_schema, schema_from_dict
from vocab.table_reader import decode_table, parse_table
from vocab.table_writer import export_schema, vocabulary_to_csv_text, write_vocabulary

__all__ = [
    "export_schema",
    "read_schema",
    "read_vocabulary",
    "read_vocabulary_bytes",
    "read_vocabulary_text",
    "schema_from_dict",
    "sidecar_schema_path",
    "vocabulary_to_csv_text",
    "write_vocabulary",
]


def sidecar_schema_path(path: str | Path) -> Path:
    """Return the schema file that belongs to a table: `<stem>.schema.yaml` beside it."""
    path = Path(path)
    yml = path.with_name(f"{path.stem}.schema.yml")
    yaml_path = path.with_name(f"{path.stem}.schema.yaml")
    return yml if yml.exists() and not yaml_path.exists() else yaml_path


def read_vocabulary(
    path: str | Path,
    *,
    schema_path: str | Path | None = None,
    name: str | None = None,
    language: str | None = None,
    multi_separator: str | None = None,
) -> Vocabulary:
    """Return the vocabulary in a CSV/TSV file, typed by its schema or an inferred one.

    The schema is `schema_path` if given, else the sidecar `<stem>.schema.yaml` if present,
    else inferred from the table. `language` overrides the schema's; `name` defaults to the
    file stem; `multi_separator` is only used when the schema is inferred.

    Raises:
        VocabularyError: listing every problem of the table and schema with file/line/column.
        OSError: if a file cannot be read.
    """
    path = Path(path)
    schema: FeatureSchema | None = None
    schema_language = ""
    schema_name: str | None = None
    chosen = Path(schema_path) if schema_path is not None else sidecar_schema_path(path)
    if schema_path is not None or chosen.exists():
        schema, schema_language = load_schema(chosen)
        schema_name = chosen.name
    return _read(
        path.read_bytes(),
        file_name=path.name,
        schema=schema,
        schema_name=schema_name,
        name=name if name is not None else path.stem,
        language=language if language is not None else schema_language,
        delimiter=None,
        multi_separator=multi_separator,
    )


def read_vocabulary_bytes(
    data: bytes,
    *,
    file_name: str,
    schema: FeatureSchema | None = None,
    name: str | None = None,
    language: str | None = None,
    delimiter: str | None = None,
    multi_separator: str | None = None,
) -> Vocabulary:
    """Return the vocabulary in an uploaded file's bytes (UTF-8, BOM allowed).

    Lines that are not UTF-8 are reported by number. See `read_vocabulary_text` for the rest.

    Raises:
        VocabularyError: listing every problem with file/line/column.
    """
    return _read(
        data,
        file_name=file_name,
        schema=schema,
        schema_name=None,
        name=name if name is not None else Path(file_name).stem,
        language=language or "",
        delimiter=delimiter,
        multi_separator=multi_separator,
    )


def read_vocabulary_text(
    text: str,
    *,
    file_name: str,
    schema: FeatureSchema | None = None,
    name: str | None = None,
    language: str | None = None,
    delimiter: str | None = None,
    multi_separator: str | None = None,
) -> Vocabulary:
    """Return the vocabulary in the text of a CSV/TSV table (e.g. an upload).

    `file_name` names the table in error messages and, by its extension, picks the delimiter
    unless `delimiter` is given (`.csv` comma, `.tsv` tab, otherwise sniffed from the header).
    Without `schema` one is inferred: every feature column becomes a category of its observed
    values, multi-valued if a cell contains `multi_separator` (default "|").

    Raises:
        VocabularyError: listing every problem with file/line/column.
    """
    return parse_table(
        text.removeprefix("\ufeff"),
        file_name=file_name,
        schema=schema,
        schema_name=None,
        name=name if name is not None else Path(file_name).stem,
        language=language or "",
        delimiter=delimiter,
        multi_separator=multi_separator,
        errors=[],
        bad_lines=frozenset(),
    )


def _read(
    data: bytes,
    *,
    file_name: str,
    schema: FeatureSchema | None,
    schema_name: str | None,
    name: str,
    language: str,
    delimiter: str | None,
    multi_separator: str | None,
) -> Vocabulary:
    text, errors, bad_lines = decode_table(data, file_name)
    return parse_table(
        text,
        file_name=file_name,
        schema=schema,
        schema_name=schema_name,
        name=name,
        language=language,
        delimiter=delimiter,
        multi_separator=multi_separator,
        errors=errors,
        bad_lines=bad_lines,
    )
