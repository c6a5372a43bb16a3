"""What an edited vocabulary file would change: items added, changed and removed, by item id.

A linguist grows a word list by exporting it, editing it in a spreadsheet and uploading it again.
Before that upload replaces the stored vocabulary they see what it changes; this module says what,
for two engine vocabularies (the stored one and the file's), without touching either.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from vocab.lexicon import RESERVED_COLUMNS, FeatureSchema, LexicalItem, Vocabulary


@dataclass(frozen=True, slots=True)
class CellChange:
    """One column of one item whose value differs: `before` and `after` as the table shows them
    (several values joined by the schema's separator; "" for not applicable)."""

    column: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class ItemChange:
    """An item kept under the same id whose form, lemma, part of speech or features differ."""

    before: LexicalItem
    after: LexicalItem
    cells: tuple[CellChange, ...]


@dataclass(frozen=True, slots=True)
class FeatureChange:
    """A feature declared in only one of the two schemas, or declared differently in both."""

    name: str
    change: str  # "added", "removed" or "changed"


@dataclass(frozen=True, slots=True)
class VocabularyChanges:
    """What replacing one vocabulary by another changes. Items keep the order of the vocabulary
    they are in: `added` the new file's, `changed` and `removed` the stored one's."""

    added: tuple[LexicalItem, ...]
    changed: tuple[ItemChange, ...]
    removed: tuple[LexicalItem, ...]
    features: tuple[FeatureChange, ...]
    unchanged: int

    @property
    def empty(self) -> bool:
        """Whether the two vocabularies hold the same items under the same schema."""
        return not (self.added or self.changed or self.removed or self.features)


def vocabulary_changes(before: Vocabulary, after: Vocabulary) -> VocabularyChanges:
    """Return what replacing `before` by `after` changes, matching items by id."""
    added: list[LexicalItem] = []
    changed: list[ItemChange] = []
    unchanged = 0
    for item in after.items:
        try:
            old = before.get(item.id)
        except KeyError:
            added.append(item)
            continue
        cells = _cell_changes(old, item, before.schema.multi_separator, after.schema.multi_separator)
        if cells:
            changed.append(ItemChange(old, item, cells))
        else:
            unchanged += 1
    kept_ids = {item.id for item in after.items}
    removed = tuple(item for item in before.items if item.id not in kept_ids)
    return VocabularyChanges(
        added=tuple(added),
        changed=tuple(changed),
        removed=removed,
        features=feature_changes(before.schema, after.schema),
        unchanged=unchanged,
    )


def feature_changes(before: FeatureSchema, after: FeatureSchema) -> tuple[FeatureChange, ...]:
    """Return the features `after` declares that `before` does not, those it drops, and those
    declared differently (type, values, multi, description), in the order of the schemas."""
    old = _declared(before)
    new = _declared(after)
    found = [FeatureChange(name, "added") for name in new if name not in old]
    found += [FeatureChange(name, "removed") for name in old if name not in new]
    found += [FeatureChange(name, "changed") for name in new if name in old and new[name] != old[name]]
    return tuple(found)


def _declared(schema: FeatureSchema) -> Mapping[str, object]:
    features = schema.to_dict()["features"]
    assert isinstance(features, dict)
    return features


def _cell_changes(
    before: LexicalItem, after: LexicalItem, before_separator: str, after_separator: str
) -> tuple[CellChange, ...]:
    columns = [c for c in RESERVED_COLUMNS if c != "id"]
    columns += sorted(set(before.features) | set(after.features))
    return tuple(
        CellChange(column, before_separator.join(old), after_separator.join(new))
        for column in columns
        if (old := before.values(column)) != (new := after.values(column))
    )
