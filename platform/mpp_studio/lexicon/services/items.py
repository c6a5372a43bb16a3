"""Writes for the items of a project vocabulary, each checked against the vocabulary's schema.

Every value is normalised by its feature's `FeatureSpec.normalize`, so an item saved here reads
back unchanged after an export (`vocab.io.vocabulary_to_csv_text` refuses nothing it stores).
"""

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from mpp_studio.lexicon.engine import schema_from_json
from mpp_studio.lexicon.models import Vocabulary, VocabularyItem
from mpp_studio.lexicon.signals import vocabulary_changed_announce
from mpp_studio.lexicon.validation import field_limit, text_problem
from vocab.lexicon import FeatureSchema, FeatureSpec, FeatureValueError

# Cell text of an item: form, lemma, pos and id, and how the form pages and the API call them.
ITEM_FIELDS = (("item_id", "id"), ("form", "form"), ("lemma", "lemma"), ("pos", "part of speech"))


def feature_values_clean(spec: FeatureSpec, raw: object, separator: str) -> list[str]:
    """Return the canonical values of one feature from a cell text or a list of values.

    A text holding the separator is several values for a multi-valued feature. Blank values are
    dropped, repeated ones kept once; no values means "not applicable".

    Raises:
        FeatureValueError: with a plain message, if a value does not fit the feature.
    """
    if raw is None:
        return []
    if isinstance(raw, list | tuple):
        parts = [str(value) if value is not None else "" for value in raw]
    else:
        text = str(raw)
        splits = spec.multi or spec.type != "text"
        parts = text.split(separator) if splits and separator in text else [text]
    parts = [part.strip() for part in parts if part is not None and part.strip()]
    if len(parts) > 1 and not spec.multi:
        shown = separator.join(parts)
        raise FeatureValueError(
            f"'{shown}' is several values but this feature takes one "
            "(declare it multi-valued on the schema page to allow several)"
        )
    values: list[str] = []
    for part in parts:
        value = spec.normalize(part)
        if "\x00" in value:
            raise FeatureValueError("the value holds a NUL byte")
        if spec.multi and separator in value:
            raise FeatureValueError(f"'{value}' holds the separator '{separator}'")
        if value not in values:
            values.append(value)
    return values


def item_features_clean(*, schema: FeatureSchema, raw: Mapping[str, object]) -> dict[str, list[str]]:
    """Return feature -> canonical values for the values given (absent or blank: not applicable).

    Raises:
        ValidationError: {"features.<name>": message} for every feature whose value does not fit.
    """
    features: dict[str, list[str]] = {}
    errors: dict[str, str] = {}
    for name, value in raw.items():
        spec = schema.features.get(name)
        if spec is None:
            errors[f"features.{name}"] = (
                f"this vocabulary has no feature called '{name}' (declare it on the schema page first)"
            )
            continue
        try:
            values = feature_values_clean(spec, value, schema.multi_separator)
        except FeatureValueError as exc:
            errors[f"features.{name}"] = str(exc)
            continue
        if values:
            features[name] = values
    if errors:
        raise ValidationError(errors)
    return features


def _texts_clean(values: Mapping[str, str]) -> dict[str, str]:
    """Return the item's form, lemma, pos and id stripped.

    Raises:
        ValidationError: naming each field that is blank (form), too long or not one line.
    """
    cleaned: dict[str, str] = {}
    errors: dict[str, str] = {}
    for field, label in ITEM_FIELDS:
        value = values.get(field, "").strip()
        problem = text_problem(
            value, label=label, limit=field_limit(VocabularyItem, field), required=field == "form"
        )
        if problem is not None:
            errors[field] = problem
        cleaned[field] = value
    if errors:
        raise ValidationError(errors)
    return cleaned


def item_id_default(*, vocabulary: Vocabulary, form: str, exclude: VocabularyItem | None = None) -> str:
    """Return the id an item gets when none is given: its form, else `form#2`, `form#3`, ..."""
    candidates = vocabulary.items.filter(item_id__startswith=form)
    if exclude is not None and exclude.pk is not None:
        candidates = candidates.exclude(pk=exclude.pk)
    taken = set(candidates.values_list("item_id", flat=True))
    if form not in taken:
        return form
    number = 2
    while f"{form}#{number}" in taken:
        number += 1
    return f"{form}#{number}"


def _item_id_free(vocabulary: Vocabulary, item_id: str, exclude: VocabularyItem | None) -> None:
    others = vocabulary.items.filter(item_id=item_id)
    if exclude is not None:
        others = others.exclude(pk=exclude.pk)
    holder = others.first()
    if holder is not None:
        raise ValidationError(
            {"item_id": f"the id '{item_id}' is already used by the item '{holder.form}'; choose another id"}
        )


def _item_write(
    *, vocabulary: Vocabulary, item: VocabularyItem, texts: Mapping[str, str], features: Mapping[str, object]
) -> VocabularyItem:
    schema = schema_from_json(vocabulary.schema)
    errors: dict[str, list[str]] = {}
    cleaned: dict[str, str] = {}
    values: dict[str, list[str]] = {}
    try:
        cleaned = _texts_clean(texts)
    except ValidationError as exc:
        errors.update(exc.message_dict)
    try:
        values = item_features_clean(schema=schema, raw=features)
    except ValidationError as exc:
        errors.update(exc.message_dict)
    if errors:
        raise ValidationError(errors)
    item_id = cleaned["item_id"] or item_id_default(vocabulary=vocabulary, form=cleaned["form"], exclude=item)
    _item_id_free(vocabulary, item_id, item if item.pk else None)
    item.item_id = item_id
    item.form = cleaned["form"]
    item.lemma = cleaned["lemma"] or cleaned["form"]
    item.pos = cleaned["pos"]
    item.features = values
    item.full_clean()
    item.save()
    Vocabulary.objects.filter(pk=vocabulary.pk).update(updated_at=timezone.now())
    vocabulary_changed_announce(vocabulary)
    return item


@transaction.atomic(durable=True)
def vocabulary_item_create(
    *,
    vocabulary: Vocabulary,
    form: str,
    lemma: str = "",
    pos: str = "",
    item_id: str = "",
    features: Mapping[str, object] | None = None,
) -> VocabularyItem:
    """Add an item; a blank lemma is the form, a blank id the form (or `form#2`, ... if taken).

    `features` maps feature names to a cell text (several values joined by the schema's
    separator) or a list of values; blank or absent means "not applicable".

    Raises:
        ValidationError: {"form" | "lemma" | "pos" | "item_id" | "features.<name>": message}.
    """
    return _item_write(
        vocabulary=vocabulary,
        item=VocabularyItem(vocabulary=vocabulary),
        texts={"form": form, "lemma": lemma, "pos": pos, "item_id": item_id},
        features=features or {},
    )


@transaction.atomic(durable=True)
def vocabulary_item_update(
    *,
    item: VocabularyItem,
    form: str | None = None,
    lemma: str | None = None,
    pos: str | None = None,
    item_id: str | None = None,
    features: Mapping[str, object] | None = None,
    replace_features: bool = True,
) -> VocabularyItem:
    """Change an item; None leaves a field as it is.

    With `replace_features` the item's features become exactly `features`; without it only the
    features named are changed (a blank value removes one).

    Raises:
        ValidationError: {"form" | "lemma" | "pos" | "item_id" | "features.<name>": message}.
    """
    vocabulary = item.vocabulary
    texts = {
        "form": item.form if form is None else form,
        "lemma": item.lemma if lemma is None else lemma,
        "pos": item.pos if pos is None else pos,
        "item_id": item.item_id if item_id is None else item_id,
    }
    merged: dict[str, object] = {}
    if features is None or not replace_features:
        merged.update(item.features)
    merged.update(features or {})
    return _item_write(vocabulary=vocabulary, item=item, texts=texts, features=merged)


@transaction.atomic(durable=True)
def vocabulary_item_delete(*, item: VocabularyItem) -> None:
    """Delete an item from its vocabulary."""
    vocabulary = item.vocabulary
    item.delete()
    Vocabulary.objects.filter(pk=vocabulary.pk).update(updated_at=timezone.now())
    vocabulary_changed_announce(vocabulary)
