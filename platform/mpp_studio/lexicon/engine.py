"""The bridge to the vocabulary engine: stored vocabulary text becomes a `vocab.lexicon.Vocabulary`."""

import functools
from dataclasses import dataclass
from pathlib import Path

import yaml

from mpp_studio.lexicon.models import LibraryVocabulary, Vocabulary
from vocab.io import read_vocabulary_text
from vocab.lexicon import FeatureSchema, LexicalItem
from vocab.lexicon import Vocabulary as Lexicon
from vocab.schema_file import schema_from_dict, schema_text_to_schema

SCHEMA_SUFFIX = ".schema.yaml"


@dataclass(frozen=True, slots=True)
class ParsedVocabulary:
    """A vocabulary the engine accepted, with the name and language the platform stores."""

    lexicon: Lexicon
    name: str
    language: str


def schema_file_name(file_name: str) -> str:
    """Return the name of a vocabulary file's sidecar schema: `<stem>.schema.yaml`."""
    return Path(file_name).stem + SCHEMA_SUFFIX


def vocabulary_parse(*, file_name: str, items_text: str, schema_text: str = "") -> ParsedVocabulary:
    """Return the engine's reading of a vocabulary table and its optional schema text.

    The name is the schema's `name`, else the file's stem; the language is the schema's.

    Raises:
        VocabularyError: listing every problem of the schema or the table, with file, line and column.
    """
    schema = None
    language = ""
    name = Path(file_name).stem
    if schema_text.strip():
        schema, language = schema_text_to_schema(schema_text, file=schema_file_name(file_name))
        # The engine accepts a schema `name` but does not return it; the schema is valid YAML
        # (the engine has just read it), so this reads that one entry.
        declared = yaml.safe_load(schema_text)
        if isinstance(declared, dict) and isinstance(declared.get("name"), str) and declared["name"].strip():
            name = declared["name"].strip()
    lexicon = read_vocabulary_text(
        items_text, file_name=Path(file_name).name, schema=schema, name=name, language=language
    )
    return ParsedVocabulary(lexicon=lexicon, name=name, language=language)


def vocabulary_lexicon(vocabulary: LibraryVocabulary) -> Lexicon:
    """Return the engine vocabulary of a stored version, read from its stored text.

    Raises:
        VocabularyError: if the stored text is not a valid vocabulary (say, a row stored before
            the platform checked vocabularies).
    """
    return _lexicon_of_text(vocabulary.file_name, vocabulary.items_text, vocabulary.schema_text)


# A library import checks every template against its vocabulary, and dozens of templates share
# one: read each stored text once per process. Engine vocabularies are immutable, so sharing
# one between generators is safe; the key is the whole text, so an edited version is read anew.
@functools.lru_cache(maxsize=16)
def _lexicon_of_text(file_name: str, items_text: str, schema_text: str) -> Lexicon:
    return vocabulary_parse(file_name=file_name, items_text=items_text, schema_text=schema_text).lexicon


def schema_from_json(data: dict[str, object]) -> FeatureSchema:
    """Return the engine schema stored on a project vocabulary (FeatureSchema.to_dict() layout)."""
    return schema_from_dict(data or {"features": {}}, file="schema")


def vocabulary_to_engine(vocabulary: Vocabulary) -> Lexicon:
    """Return the engine vocabulary built from a project vocabulary's rows, in row order."""
    schema = schema_from_json(vocabulary.schema)
    items = [
        LexicalItem(
            id=row.item_id,
            form=row.form,
            lemma=row.lemma or row.form,
            pos=row.pos,
            features={name: tuple(values) for name, values in sorted(row.features.items()) if values},
        )
        for row in vocabulary.items.order_by("id")
    ]
    return Lexicon(items, schema, name=vocabulary.name, language=vocabulary.language)
