"""The lexicon model: typed feature schemas, lexical items and indexed vocabularies."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import orjson

from vocab.restrictions import RestrictionError, restriction_text

# A `restriction` holds a selectional restriction over other features (vocab/restrictions.py)
# that a template's `satisfies:` makes a word at another position meet.
FeatureType = Literal["category", "text", "bool", "int", "float", "restriction"]
FEATURE_TYPES: tuple[str, ...] = ("category", "text", "bool", "int", "float", "restriction")

# Columns every item has; they are not declared in a schema but can be constrained and matched.
RESERVED_COLUMNS: tuple[str, ...] = ("id", "form", "lemma", "pos")

_TRUE = {"1", "true", "yes", "y", "t"}
_FALSE = {"0", "false", "no", "n", "f"}


class FeatureValueError(ValueError):
    """A value that does not fit its feature's declared type or value set."""


@dataclass(frozen=True, slots=True)
class FeatureSpec:
    """One declared feature: its type, allowed values (for categories) and multiplicity."""

    name: str
    type: FeatureType = "category"
    values: tuple[str, ...] | None = None
    multi: bool = False
    description: str = ""

    def normalize(self, raw: object) -> str:
        """Return the canonical string for one value of this feature.

        Raises:
            FeatureValueError: if the value does not fit the type or the declared value set.
        """
        text = _as_text(raw)
        if self.type == "bool":
            low = text.lower()
            if low in _TRUE:
                return "1"
            if low in _FALSE:
                return "0"
            raise FeatureValueError(f"'{text}' is not a yes/no value (use 1/0, yes/no or true/false)")
        if self.type == "int":
            try:
                return str(int(text))
            except ValueError:
                raise FeatureValueError(f"'{text}' is not a whole number") from None
        if self.type == "restriction":
            try:
                return restriction_text(text)
            except RestrictionError as exc:
                raise FeatureValueError(f"not a restriction: {exc}") from None
        if self.type == "float":
            try:
                return repr(float(text))
            except ValueError:
                raise FeatureValueError(f"'{text}' is not a number") from None
        if self.values is not None and text not in self.values:
            allowed = ", ".join(self.values)
            raise FeatureValueError(f"'{text}' is not one of the declared values ({allowed})")
        return text


def _as_text(raw: object) -> str:
    if isinstance(raw, bool):
        return "1" if raw else "0"
    if isinstance(raw, float) and raw.is_integer():
        return str(int(raw))
    return str(raw).strip()


@dataclass(frozen=True, slots=True)
class FeatureSchema:
    """The declared features of a vocabulary and the separator of multi-valued cells."""

    features: Mapping[str, FeatureSpec] = field(default_factory=dict)
    multi_separator: str = "|"

    def spec(self, name: str) -> FeatureSpec | None:
        """Return the spec of a feature, a text spec for reserved columns, or None if unknown."""
        if name in RESERVED_COLUMNS:
            return FeatureSpec(name=name, type="text")
        return self.features.get(name)

    def known(self, name: str) -> bool:
        """Return whether `name` is a reserved column or a declared feature."""
        return name in RESERVED_COLUMNS or name in self.features

    def to_dict(self) -> dict[str, object]:
        """Return the schema as plain data (the layout of a `.schema.yaml` file)."""
        feats: dict[str, object] = {}
        for name, spec in self.features.items():
            entry: dict[str, object] = {"type": spec.type}
            if spec.values is not None:
                entry["values"] = list(spec.values)
            if spec.multi:
                entry["multi"] = True
            if spec.description:
                entry["description"] = spec.description
            feats[name] = entry
        return {"multi_separator": self.multi_separator, "features": feats}


@dataclass(frozen=True, slots=True)
class LexicalItem:
    """One vocabulary entry: a surface form, its lemma and part of speech, and its features.

    Feature values are canonical strings; a feature an item lacks (blank cell: not applicable)
    is absent from `features`. Multi-valued features hold several values.
    """

    id: str
    form: str
    lemma: str
    pos: str
    features: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def values(self, name: str) -> tuple[str, ...]:
        """Return the item's values for a feature or reserved column (empty if not applicable)."""
        if name == "form":
            return (self.form,)
        if name == "lemma":
            return (self.lemma,)
        if name == "pos":
            return (self.pos,)
        if name == "id":
            return (self.id,)
        return self.features.get(name, ())

    def to_record(self) -> dict[str, object]:
        """Return the item as plain data with deterministic key order."""
        return {
            "id": self.id,
            "form": self.form,
            "lemma": self.lemma,
            "pos": self.pos,
            "features": {k: list(v) for k, v in sorted(self.features.items())},
        }


class Vocabulary:
    """An immutable, indexed collection of lexical items under one feature schema."""

    __slots__ = ("_by_id", "_index", "_version", "items", "language", "name", "schema")

    def __init__(
        self,
        items: Iterable[LexicalItem],
        schema: FeatureSchema | None = None,
        *,
        name: str = "vocabulary",
        language: str = "",
    ) -> None:
        self.items: tuple[LexicalItem, ...] = tuple(items)
        self.schema = schema if schema is not None else FeatureSchema()
        self.name = name
        self.language = language
        self._by_id: dict[str, int] = {}
        for i, item in enumerate(self.items):
            if item.id in self._by_id:
                raise ValueError(f"duplicate item id '{item.id}' in vocabulary '{name}'")
            self._by_id[item.id] = i
        self._index: dict[str, dict[str, tuple[int, ...]]] = {}
        self._version: str | None = None

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.items)

    def get(self, item_id: str) -> LexicalItem:
        """Return the item with this id. Raises KeyError if there is none."""
        return self.items[self._by_id[item_id]]

    def index(self, feature: str) -> Mapping[str, tuple[int, ...]]:
        """Return value -> positions (into `items`) of the items having that value."""
        cached = self._index.get(feature)
        if cached is not None:
            return cached
        buckets: dict[str, list[int]] = {}
        for i, item in enumerate(self.items):
            for value in item.values(feature):
                buckets.setdefault(value, []).append(i)
        built = {value: tuple(ids) for value, ids in buckets.items()}
        self._index[feature] = built
        return built

    def excluding(self, feature: str, values: Iterable[str]) -> Vocabulary:
        """Return a vocabulary without the items that have any of `values` for `feature`.

        Items with no value for the feature stay: `excluding("balanced", ["0"])` keeps function
        words that a frequency balance never ranked.
        """
        dropped = set(values)
        kept = [item for item in self.items if not dropped.intersection(item.values(feature))]
        return Vocabulary(kept, self.schema, name=self.name, language=self.language)

    def observed_values(self, feature: str) -> tuple[str, ...]:
        """Return the sorted values of a feature that occur in the items."""
        return tuple(sorted(self.index(feature)))

    @property
    def version(self) -> str:
        """A content hash of schema and items: equal vocabularies have equal versions."""
        if self._version is None:
            digest = hashlib.sha256()
            digest.update(orjson.dumps(self.schema.to_dict(), option=orjson.OPT_SORT_KEYS))
            for item in self.items:
                digest.update(orjson.dumps(item.to_record()))
                digest.update(b"\n")
            self._version = digest.hexdigest()[:16]
        return self._version


def make_item(
    *,
    id: str,  # noqa: A002 - the column is called id
    form: str,
    lemma: str = "",
    pos: str = "",
    features: Mapping[str, object | Sequence[object]] | None = None,
    schema: FeatureSchema | None = None,
) -> LexicalItem:
    """Return a LexicalItem with features normalised by `schema` (values kept as text if None).

    Raises:
        FeatureValueError: if a value does not fit its declared feature.
    """
    normalized: dict[str, tuple[str, ...]] = {}
    for name, raw in (features or {}).items():
        raw_values = list(raw) if isinstance(raw, list | tuple) else [raw]
        spec = schema.spec(name) if schema is not None else None
        values: list[str] = []
        for value in raw_values:
            if value is None or _as_text(value) == "":
                continue
            text = spec.normalize(value) if spec is not None else _as_text(value)
            if text not in values:
                values.append(text)
        if values:
            normalized[name] = tuple(values)
    return LexicalItem(id=id, form=form, lemma=lemma or form, pos=pos, features=normalized)
