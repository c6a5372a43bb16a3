"""Writes for vocabularies."""

import hashlib

from django.db import transaction

from mpp_studio.accounts.models import Project
from mpp_studio.lexicon.engine import vocabulary_parse, vocabulary_to_engine
from mpp_studio.lexicon.models import LibraryVocabulary, Vocabulary, VocabularyItem, VocabularySnapshot
from vocab.io import vocabulary_to_csv_text
from vocab.lexicon import Vocabulary as Lexicon
from vocab.schema_file import schema_to_yaml_text


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


@transaction.atomic
def vocabulary_create_from_lexicon(
    *, project: Project, lexicon: Lexicon, name: str, description: str = ""
) -> Vocabulary:
    """Create a project vocabulary holding the items and schema of an engine vocabulary.

    Raises:
        ValidationError: if the name is taken in the project or a field does not fit.
    """
    vocabulary = Vocabulary(
        project=project,
        name=name,
        language=lexicon.language,
        description=description,
        schema=lexicon.schema.to_dict(),
    )
    vocabulary.full_clean()
    vocabulary.save()
    VocabularyItem.objects.bulk_create(
        VocabularyItem(
            vocabulary=vocabulary,
            item_id=item.id,
            form=item.form,
            lemma=item.lemma,
            pos=item.pos,
            features={k: list(v) for k, v in item.features.items()},
        )
        for item in lexicon.items
    )
    return vocabulary


def vocabulary_snapshot_ensure(*, vocabulary: Vocabulary) -> VocabularySnapshot:
    """Return the immutable snapshot of the vocabulary as it is now (made once per content)."""
    lexicon = vocabulary_to_engine(vocabulary)
    snapshot = VocabularySnapshot.objects.filter(vocabulary=vocabulary, content_hash=lexicon.version).first()
    if snapshot is not None:
        return snapshot
    snapshot, _ = VocabularySnapshot.objects.get_or_create(
        vocabulary=vocabulary,
        content_hash=lexicon.version,
        defaults={
            "name": vocabulary.name,
            "language": vocabulary.language,
            "items_text": vocabulary_to_csv_text(lexicon),
            "schema_text": schema_to_yaml_text(lexicon.schema, lexicon.language),
        },
    )
    return snapshot
