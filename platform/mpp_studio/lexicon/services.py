"""Writes for vocabularies."""

import hashlib

from django.db import transaction

from mpp_studio.lexicon.models import Vocabulary


def vocabulary_content_hash(*, items_text: str, schema_text: str) -> str:
    """Return the SHA-256 hex digest identifying one version of a vocabulary."""
    digest = hashlib.sha256(items_text.encode())
    digest.update(b"\0")
    digest.update(schema_text.encode())
    return digest.hexdigest()


@transaction.atomic
def vocabulary_import(
    *, file_name: str, name: str, language: str, items_text: str, schema_text: str = ""
) -> tuple[Vocabulary, bool]:
    """Store this version of a vocabulary file unless it is stored already.

    Returns:
        The row for (file_name, content hash) and whether it was created now.

    Raises:
        ValidationError: if a field does not fit (for example a name longer than 200 characters).
    """
    content_hash = vocabulary_content_hash(items_text=items_text, schema_text=schema_text)
    existing = Vocabulary.objects.filter(file_name=file_name, content_hash=content_hash).first()
    if existing is not None:
        return existing, False
    vocabulary = Vocabulary(
        file_name=file_name,
        content_hash=content_hash,
        name=name,
        language=language,
        items_text=items_text,
        schema_text=schema_text,
    )
    vocabulary.full_clean()
    vocabulary.save()
    return vocabulary, True
