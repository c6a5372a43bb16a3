"""Writes for project vocabularies: create (empty, from an engine vocabulary), update, delete, snapshot."""

from collections.abc import Callable, Iterator, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from mpp_studio.accounts.models import Project
from mpp_studio.lexicon.engine import vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary, VocabularyItem, VocabularySnapshot
from mpp_studio.lexicon.services.schema import schema_apply
from mpp_studio.lexicon.signals import vocabulary_changed_announce
from mpp_studio.lexicon.validation import field_limit, language_check, text_problem, vocabulary_name_check
from vocab.io import vocabulary_to_csv_text
from vocab.lexicon import RESERVED_COLUMNS, FeatureSchema, LexicalItem
from vocab.lexicon import Vocabulary as Lexicon
from vocab.schema_file import schema_to_yaml_text

# Rows written per INSERT when a vocabulary is created from a file (SQLite limits parameters).
ITEM_BATCH_SIZE = 500
# Items an import job writes per transaction (about a quarter of a second on the embedded database).
ITEM_WRITE_CHUNK = 2_000


def vocabulary_name_free(*, project: Project, name: str, exclude: Vocabulary | None = None) -> None:
    """Check that no other vocabulary of the project has this name.

    Raises:
        ValidationError: {"name": ...} naming the vocabulary that has it.
    """
    taken = Vocabulary.objects.filter(project=project, name=name)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise ValidationError(
            {"name": f"this project already has a vocabulary called '{name}'; choose another name"}
        )


def lexicon_storage_problems(lexicon: Lexicon) -> list[tuple[str, str]]:
    """Return (column, message) for every item value the database cannot store.

    The engine accepts any text; the item columns have length limits, and PostgreSQL refuses NUL
    characters (in JSON too). Each message names the item by its position and id.
    """
    limits = {
        column: field_limit(VocabularyItem, "item_id" if column == "id" else column)
        for column in RESERVED_COLUMNS
    }
    problems: list[tuple[str, str]] = []
    for number, item in enumerate(lexicon.items, start=1):
        where = f"item {number} ('{item.id[:40]}')"
        for column in RESERVED_COLUMNS:
            value = item.values(column)[0]
            if column != "form" and value == item.form:
                continue  # made from the form (no id or lemma given): reported once, as the form
            problem = text_problem(value, label=column, limit=limits[column], required=False)
            if problem is not None:
                problems.append((column, f"{where}: {problem}"))
        for feature, values in item.features.items():
            if any("\x00" in value for value in values):
                problems.append((feature, f"{where}: a value of '{feature}' holds a NUL byte"))
    return problems


@transaction.atomic
def vocabulary_create_from_lexicon(
    *, project: Project, lexicon: Lexicon, name: str, description: str = ""
) -> Vocabulary:
    """Create a project vocabulary holding the items and schema of an engine vocabulary.

    One transaction: for the small vocabularies of the library and of tests. An uploaded file is
    stored by its job with `vocabulary_begin` and `vocabulary_items_store`, in short chunks.

    Raises:
        ValidationError: if the name is taken in the project or a field does not fit
            ({"items": [...]} for item values the database cannot store).
    """
    _storage_check(lexicon)
    vocabulary = _vocabulary_row(project=project, lexicon=lexicon, name=name, description=description)
    VocabularyItem.objects.bulk_create(_item_rows(vocabulary, lexicon.items), batch_size=ITEM_BATCH_SIZE)
    vocabulary_changed_announce(vocabulary)
    return vocabulary


def vocabulary_begin(*, project: Project, lexicon: Lexicon, name: str, description: str = "") -> Vocabulary:
    """Create a project vocabulary with the schema of an engine vocabulary and none of its items
    yet: an import job writes them with `vocabulary_items_store`. The caller holds the (short)
    transaction and has checked the items (`lexicon_storage_problems`: the upload readers do).

    Raises:
        ValidationError: {"name": ...} for a taken or malformed name.
    """
    return _vocabulary_row(project=project, lexicon=lexicon, name=name, description=description)


def vocabulary_items_store(
    *,
    vocabulary: Vocabulary,
    lexicon: Lexicon,
    progress: Callable[[int], bool] | None = None,
    chunk: int = ITEM_WRITE_CHUNK,
) -> bool:
    """Write the engine vocabulary's items that `vocabulary` does not hold yet, in their order, in
    chunks of `chunk` items, each chunk its own short transaction (the embedded database has one
    writer: a 100,000-item vocabulary written at once held every other save for 12 s).

    Safe to run again after a run that stopped part-way: the items stored come first, so the run
    goes on after them, and an item stored twice is skipped (items are unique by id). After each
    chunk, `progress(items stored)` may return False to stop; returns whether every item is stored.
    """
    items = lexicon.items
    for start in range(vocabulary.items.count(), len(items), chunk):
        with transaction.atomic():
            VocabularyItem.objects.bulk_create(
                _item_rows(vocabulary, items[start : start + chunk]),
                batch_size=ITEM_BATCH_SIZE,
                ignore_conflicts=True,
            )
        if progress is not None and not progress(min(start + chunk, len(items))):
            return False
    return True


def vocabulary_discard(*, vocabulary_id: int) -> None:
    """Delete a vocabulary an import job began and did not finish, its items ITEM_WRITE_CHUNK at a
    time, each chunk its own transaction, then the vocabulary."""
    items = VocabularyItem.objects.filter(vocabulary_id=vocabulary_id)
    while chunk := list(items.values_list("pk", flat=True)[:ITEM_WRITE_CHUNK]):
        VocabularyItem.objects.filter(pk__in=chunk).delete()
    Vocabulary.objects.filter(pk=vocabulary_id).delete()


def _storage_check(lexicon: Lexicon) -> None:
    problems = lexicon_storage_problems(lexicon)
    if problems:
        raise ValidationError({"items": [f"column '{column}', {message}" for column, message in problems]})


def _vocabulary_row(*, project: Project, lexicon: Lexicon, name: str, description: str) -> Vocabulary:
    """Create the vocabulary row (no items); the caller holds the transaction and checked the items."""
    name = vocabulary_name_check(name)
    vocabulary_name_free(project=project, name=name)
    vocabulary = Vocabulary(
        project=project,
        name=name,
        language=language_check(lexicon.language),
        description=description,
        schema=lexicon.schema.to_dict(),
    )
    vocabulary.full_clean()
    vocabulary.save()
    return vocabulary


def _item_rows(vocabulary: Vocabulary, items: Sequence[LexicalItem]) -> Iterator[VocabularyItem]:
    for item in items:
        yield VocabularyItem(
            vocabulary=vocabulary,
            item_id=item.id,
            form=item.form,
            lemma=item.lemma,
            pos=item.pos,
            features={k: list(v) for k, v in item.features.items()},
        )


@transaction.atomic(durable=True)
def vocabulary_create(
    *,
    project: Project,
    name: str,
    language: str = "",
    description: str = "",
    schema: FeatureSchema | None = None,
) -> Vocabulary:
    """Create a project vocabulary with no items (and the features of `schema`, if given).

    Raises:
        ValidationError: naming the field: a blank or taken name, a malformed language code.
    """
    name = vocabulary_name_check(name)
    language = language_check(language)
    vocabulary_name_free(project=project, name=name)
    vocabulary = Vocabulary(
        project=project,
        name=name,
        language=language,
        description=description.strip(),
        schema=(schema or FeatureSchema()).to_dict(),
    )
    vocabulary.full_clean()
    vocabulary.save()
    vocabulary_changed_announce(vocabulary)
    return vocabulary


@transaction.atomic(durable=True)
def vocabulary_update(
    *,
    vocabulary: Vocabulary,
    name: str | None = None,
    language: str | None = None,
    description: str | None = None,
    schema: FeatureSchema | None = None,
) -> Vocabulary:
    """Rename a vocabulary or change its language, description or schema (None: left as it is).

    Templates name vocabularies by name: after a rename, templates that used the old name report
    that the project has no vocabulary of that name until they are edited.

    Raises:
        ValidationError: naming the field.
        SchemaChangeRefused: listing the items whose values would not fit a new schema.
    """
    if name is not None:
        name = vocabulary_name_check(name)
        vocabulary_name_free(project=vocabulary.project, name=name, exclude=vocabulary)
        if name != vocabulary.name:  # templates naming either name are checked again
            vocabulary_changed_announce(vocabulary)
            vocabulary_changed_announce(vocabulary, name=name)
        vocabulary.name = name
    if language is not None:
        vocabulary.language = language_check(language)
    if description is not None:
        vocabulary.description = description.strip()
    vocabulary.full_clean()
    vocabulary.save()
    if schema is not None:
        schema_apply(vocabulary=vocabulary, schema=schema)
    return vocabulary


@transaction.atomic(durable=True)
def vocabulary_delete(*, vocabulary: Vocabulary) -> None:
    """Delete a vocabulary and its items.

    Its snapshots stay (datasets made from it keep their copy); templates that name it report
    that the project has no vocabulary of that name.
    """
    vocabulary_changed_announce(vocabulary)
    vocabulary.delete()


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
