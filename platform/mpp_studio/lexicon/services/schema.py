"""Writes for a vocabulary's feature schema: add, edit and delete features, or replace it from YAML.

Invariant: every value an item holds fits the schema. A change that would leave an item with a
value outside its feature's new type or value set (or with a feature no longer declared) is
refused, listing those items; nothing is changed then. Values that fit are rewritten in their new
canonical form (say, `yes` -> `1` when a feature becomes a bool).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from mpp_studio.lexicon.engine import schema_from_json
from mpp_studio.lexicon.models import Vocabulary, VocabularyItem
from mpp_studio.lexicon.services.items import feature_values_clean
from mpp_studio.lexicon.signals import vocabulary_changed_announce
from mpp_studio.lexicon.validation import language_check, text_problem
from vocab.errors import VocabularyError
from vocab.lexicon import FEATURE_TYPES, RESERVED_COLUMNS, FeatureSchema, FeatureValueError
from vocab.schema_file import schema_from_dict, schema_text_to_schema

FEATURE_NAME_LIMIT = 100


@dataclass(frozen=True, slots=True)
class SchemaProblem:
    """An item whose values would not fit a changed schema."""

    item_pk: int
    item_id: str
    form: str
    feature: str
    message: str


class SchemaChangeRefused(ValidationError):
    """A schema change refused because items hold values it does not allow; `problems` lists them."""

    def __init__(self, problems: list[SchemaProblem]) -> None:
        self.problems = problems
        grouped: dict[str, list[str]] = {}
        for problem in problems:
            grouped.setdefault(f"schema.features.{problem.feature}", []).append(
                f"item '{problem.item_id}' ({problem.form}): {problem.message}"
            )
        super().__init__(grouped)


def schema_from_input(data: object, *, field: str = "schema") -> FeatureSchema:
    """Return the engine schema described by plain data in the `FeatureSchema.to_dict()` layout.

    Raises:
        ValidationError: {field: [every problem, each naming its feature]}.
    """
    try:
        return schema_from_dict(data if data is not None else {"features": {}}, file=field)
    except VocabularyError as exc:
        raise ValidationError({field: [error.message for error in exc.errors]}) from None


def _item_problems(
    items: Iterable[VocabularyItem], schema: FeatureSchema, renames: Mapping[str, str], drop: frozenset[str]
) -> tuple[list[tuple[VocabularyItem, dict[str, list[str]]]], list[SchemaProblem]]:
    """Return the items whose features change under `schema`, and the items that would not fit it."""
    changed: list[tuple[VocabularyItem, dict[str, list[str]]]] = []
    problems: list[SchemaProblem] = []
    for item in items:
        features: dict[str, list[str]] = {}
        for old_name, values in item.features.items():
            if old_name in drop or not values:
                continue
            name = renames.get(old_name, old_name)
            spec = schema.features.get(name)
            if spec is None:
                message = (
                    f"holds {schema.multi_separator.join(values)} but the new schema does not declare "
                    f"'{old_name}' (delete the feature to remove its values)"
                )
                problems.append(SchemaProblem(item.pk, item.item_id, item.form, old_name, message))
                continue
            try:
                features[name] = feature_values_clean(spec, list(values), schema.multi_separator)
            except FeatureValueError as exc:
                problems.append(SchemaProblem(item.pk, item.item_id, item.form, name, str(exc)))
        if not problems and features != item.features:
            changed.append((item, features))
    return changed, problems


@transaction.atomic
def schema_apply(
    *,
    vocabulary: Vocabulary,
    schema: FeatureSchema,
    renames: Mapping[str, str] | None = None,
    drop: Iterable[str] = (),
) -> Vocabulary:
    """Store `schema` on the vocabulary and rewrite item values to fit it.

    `renames` maps old feature names to new ones (values move along); features in `drop` lose
    their values.

    Raises:
        SchemaChangeRefused: listing the items whose values would not fit; nothing changes.
    """
    locked = Vocabulary.objects.select_for_update().get(pk=vocabulary.pk)
    changed, problems = _item_problems(locked.items.order_by("id"), schema, renames or {}, frozenset(drop))
    if problems:
        raise SchemaChangeRefused(problems)
    for item, features in changed:
        item.features = features
    VocabularyItem.objects.bulk_update([item for item, _ in changed], ["features"], batch_size=500)
    vocabulary.schema = schema.to_dict()
    vocabulary.updated_at = timezone.now()
    Vocabulary.objects.filter(pk=vocabulary.pk).update(
        schema=vocabulary.schema, updated_at=vocabulary.updated_at
    )
    vocabulary_changed_announce(vocabulary)
    return vocabulary


@transaction.atomic(durable=True)
def vocabulary_schema_replace(*, vocabulary: Vocabulary, schema: FeatureSchema) -> Vocabulary:
    """Replace the whole schema (items keep their values, which must fit it).

    Raises:
        SchemaChangeRefused: listing the items whose values would not fit.
    """
    return schema_apply(vocabulary=vocabulary, schema=schema)


@transaction.atomic(durable=True)
def vocabulary_schema_yaml_replace(*, vocabulary: Vocabulary, text: str) -> Vocabulary:
    """Replace the schema with the one a `.schema.yaml` text declares (and its language, if given).

    Raises:
        VocabularyError: every problem of the YAML, by line (file name "schema").
        ValidationError: {"language": ...} for a language that is not a code.
        SchemaChangeRefused: listing the items whose values would not fit.
    """
    schema, language = schema_text_to_schema(text, file="schema")
    language = language_check(language)
    schema_apply(vocabulary=vocabulary, schema=schema)
    if language:
        vocabulary.language = language
        Vocabulary.objects.filter(pk=vocabulary.pk).update(language=language)
    return vocabulary


def _spec_entry(*, type: str, values: list[str] | None, multi: bool, description: str) -> dict[str, object]:  # noqa: A002
    entry: dict[str, object] = {"type": type}
    if values:
        entry["values"] = list(values)
    if multi:
        entry["multi"] = True
    if description.strip():
        entry["description"] = description.strip()
    return entry


def _feature_name_check(name: str, schema: FeatureSchema, current: str | None) -> str:
    name = name.strip()
    problem = text_problem(name, label="feature name", limit=FEATURE_NAME_LIMIT)
    if problem is None and name in RESERVED_COLUMNS:
        problem = f"'{name}' is a built-in column ({', '.join(RESERVED_COLUMNS)}); choose another name"
    if problem is None and name != current and name in schema.features:
        problem = f"the vocabulary already has a feature called '{name}'"
    if problem is not None:
        raise ValidationError({"name": problem})
    return name


def _field_of(message: str) -> str:
    """Return the feature form field an engine schema message is about."""
    for field, marks in (
        ("values", ("'values'", "value '")),
        ("type", ("type '",)),
        ("multi", ("'multi'",)),
        ("description", ("'description'",)),
    ):
        if any(mark in message for mark in marks):
            return field
    return "name"


def _schema_with(data: dict[str, object], feature: str) -> FeatureSchema:
    try:
        return schema_from_dict(data, file="schema")
    except VocabularyError as exc:
        errors: dict[str, list[str]] = {}
        prefix = f"feature '{feature}': "
        for error in exc.errors:
            message = error.message.removeprefix(prefix)
            errors.setdefault(_field_of(message), []).append(message)
        raise ValidationError(errors) from None


def _feature_save(
    *,
    vocabulary: Vocabulary,
    current: str | None,
    name: str,
    type: str,  # noqa: A002
    values: list[str] | None,
    multi: bool,
    description: str,
) -> Vocabulary:
    schema = schema_from_json(vocabulary.schema)
    name = _feature_name_check(name, schema, current)
    if type not in FEATURE_TYPES:
        raise ValidationError({"type": f"'{type}' is not one of: {', '.join(FEATURE_TYPES)}"})
    entry = _spec_entry(type=type, values=values, multi=multi, description=description)
    data = schema.to_dict()
    features: dict[str, object] = {}
    for old, spec in cast(dict[str, object], data["features"]).items():  # to_dict writes a dict
        features[name if old == current else old] = entry if old == current else spec
    if current is None:
        features[name] = entry
    data["features"] = features
    new_schema = _schema_with(data, name)
    renames = {current: name} if current is not None and current != name else {}
    return schema_apply(vocabulary=vocabulary, schema=new_schema, renames=renames)


@transaction.atomic(durable=True)
def vocabulary_feature_add(
    *,
    vocabulary: Vocabulary,
    name: str,
    type: str = "category",  # noqa: A002
    values: list[str] | None = None,
    multi: bool = False,
    description: str = "",
) -> Vocabulary:
    """Declare a new feature (no item has a value for it yet).

    Raises:
        ValidationError: naming the field (name, type, values, multi, description).
    """
    return _feature_save(
        vocabulary=vocabulary,
        current=None,
        name=name,
        type=type,
        values=values,
        multi=multi,
        description=description,
    )


@transaction.atomic(durable=True)
def vocabulary_feature_update(
    *,
    vocabulary: Vocabulary,
    feature: str,
    name: str,
    type: str,  # noqa: A002
    values: list[str] | None,
    multi: bool,
    description: str,
) -> Vocabulary:
    """Change a feature's declaration (and its name: the items' values move with it).

    Raises:
        ValidationError: naming the field.
        SchemaChangeRefused: listing the items whose values would not fit the new declaration.
    """
    if feature not in schema_from_json(vocabulary.schema).features:
        raise ValidationError({"name": f"the vocabulary has no feature called '{feature}'"})
    return _feature_save(
        vocabulary=vocabulary,
        current=feature,
        name=name,
        type=type,
        values=values,
        multi=multi,
        description=description,
    )


@transaction.atomic(durable=True)
def vocabulary_feature_delete(*, vocabulary: Vocabulary, feature: str) -> int:
    """Remove a feature from the schema and its values from every item.

    Returns:
        How many items held values for it.

    Raises:
        ValidationError: if the vocabulary has no such feature.
    """
    schema = schema_from_json(vocabulary.schema)
    if feature not in schema.features:
        raise ValidationError({"name": f"the vocabulary has no feature called '{feature}'"})
    held = sum(1 for features in vocabulary.items.values_list("features", flat=True) if features.get(feature))
    kept = {name: spec for name, spec in schema.features.items() if name != feature}
    schema_apply(
        vocabulary=vocabulary,
        schema=FeatureSchema(features=kept, multi_separator=schema.multi_separator),
        drop=[feature],
    )
    return held
