"""Writes for the shipped library catalogue: one stored row per version of a vocabulary file."""

import hashlib

from django.db import transaction

from mpp_studio.lexicon.engine import vocabulary_parse
from mpp_studio.lexicon.models import LibraryVocabulary


def vocabulary_content_hash(*, items_text: str, schema_text: str) -> str:
    """Return the SHA-256 hex digest identifying one version of a vocabulary."""
    digest = hashlib.sha256(items_text.encode())
    digest.update(b"\0")
    digest.update(schema_text.encode())
    return digest.hexdigest()


@transaction.atomic
def vocabulary_import(
    *, file_name: str, items_text: str, schema_text: str = ""
) -> tuple[LibraryVocabulary, bool]:
    """Store this version of a vocabulary file unless it is stored already.

    The vocabulary engine reads the table and schema first; a vocabulary it rejects is not
    stored at all. The name is the schema's `name` (else the file's stem), the language the
    schema's `language`.

    Returns:
        The row for (file_name, content hash) and whether it was created now.

    Raises:
        VocabularyError: listing every problem of the table or schema (file, line, column).
        ValidationError: if a field does not fit (for example a name longer than 200 characters).
    """
    content_hash = vocabulary_content_hash(items_text=items_text, schema_text=schema_text)
    existing = LibraryVocabulary.objects.filter(file_name=file_name, content_hash=content_hash).first()
    if existing is not None:
        return existing, False
    parsed = vocabulary_parse(file_name=file_name, items_text=items_text, schema_text=schema_text)
    vocabulary = LibraryVocabulary(
        file_name=file_name,
        content_hash=content_hash,
        name=parsed.name,
        language=parsed.language,
        items_text=items_text,
        schema_text=schema_text,
    )
    vocabulary.full_clean()
    vocabulary.save()
    return vocabulary, True
