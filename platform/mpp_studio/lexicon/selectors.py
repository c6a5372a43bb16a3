"""Reads for project vocabularies: lists, scoped lookups, filtered item tables, filter choices, exports."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.http import Http404

from mpp_studio.accounts.models import Project
from mpp_studio.lexicon.engine import schema_from_json, vocabulary_to_engine
from mpp_studio.lexicon.models import Vocabulary, VocabularyItem
from vocab.io import export_schema, vocabulary_to_csv_text
from vocab.lexicon import FeatureSchema, FeatureSpec, FeatureValueError
from vocab.odd_values import OddValue, odd_values
from vocab.schema_file import schema_to_yaml_text

# Above this many distinct observed values a feature is filtered by typing a value, not a list.
MAX_CHOICES = 200
BOOL_LABELS = {"1": "yes", "0": "no"}


def vocabulary_list_for_project(*, project: Project) -> QuerySet[Vocabulary]:
    """Return the project's vocabularies by name, each with `item_count`."""
    return Vocabulary.objects.filter(project=project).annotate(item_count=Count("items")).order_by("name")


def vocabulary_get(*, project: Project, vocabulary_id: int) -> Vocabulary:
    """Return the project's vocabulary with this id.

    Raises:
        Http404: if the project has no such vocabulary (another project's id is not found either).
    """
    vocabulary = (
        Vocabulary.objects.filter(project=project, pk=vocabulary_id).select_related("project").first()
    )
    if vocabulary is None:
        raise Http404("This project has no vocabulary with this id.")
    return vocabulary


def vocabulary_item_get(*, vocabulary: Vocabulary, item_pk: int) -> VocabularyItem:
    """Return the vocabulary's item with this primary key.

    Raises:
        Http404: if the vocabulary has no such item.
    """
    item = VocabularyItem.objects.filter(vocabulary=vocabulary, pk=item_pk).first()
    if item is None:
        raise Http404("This vocabulary has no item with this id.")
    item.vocabulary = vocabulary
    return item


@dataclass(frozen=True, slots=True)
class ItemFilter:
    """What the item table shows: a search text (id, form or lemma), a pos and feature = value pairs."""

    search: str = ""
    pos: str = ""
    features: Mapping[str, str] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return bool(self.search or self.pos or self.features)


def item_filter_clean(
    *, schema: FeatureSchema, search: str = "", pos: str = "", features: Mapping[str, str] | None = None
) -> ItemFilter:
    """Return the filter with each feature value in its canonical form (`yes` -> `1` for a bool).

    Raises:
        ValidationError: {feature: message} for an unknown feature or a value it cannot hold.
    """
    canonical: dict[str, str] = {}
    errors: dict[str, str] = {}
    for name, raw in (features or {}).items():
        if not str(raw).strip():
            continue
        spec = schema.features.get(name)
        if spec is None:
            known = ", ".join(schema.features) or "none"
            errors[name] = f"this vocabulary has no feature called '{name}' (its features: {known})"
            continue
        try:
            canonical[name] = spec.normalize(raw)
        except FeatureValueError as exc:
            errors[name] = str(exc)
    if errors:
        raise ValidationError(errors)
    return ItemFilter(search=search.strip(), pos=pos.strip(), features=canonical)


def vocabulary_items_filter(
    *, vocabulary: Vocabulary, item_filter: ItemFilter
) -> QuerySet[VocabularyItem] | list[VocabularyItem]:
    """Return the vocabulary's items that match the filter, in table order.

    Feature values are stored as JSON lists; PostgreSQL matches them in the database (jsonb
    containment), other databases in Python over the rows the text filters leave.
    """
    items = vocabulary.items.order_by("id")
    if item_filter.search:
        text = item_filter.search
        items = items.filter(Q(form__icontains=text) | Q(lemma__icontains=text) | Q(item_id__icontains=text))
    if item_filter.pos:
        items = items.filter(pos=item_filter.pos)
    if not item_filter.features:
        return items
    if connection.features.supports_json_field_contains:
        for name, value in item_filter.features.items():
            items = items.filter(features__contains={name: [value]})
        return items
    wanted = item_filter.features.items()
    return [item for item in items if all(value in item.features.get(name, ()) for name, value in wanted)]


@dataclass(frozen=True, slots=True)
class FeatureColumn:
    """A feature as the item table shows it: its spec and the values its filter offers.

    `choices` is None for a feature filtered by typing a value (numbers, free text, many values).
    """

    name: str
    spec: FeatureSpec
    choices: Sequence[tuple[str, str]] | None

    @property
    def declared(self) -> bool:
        return self.spec.values is not None


def _observed_values(vocabulary: Vocabulary, names: Sequence[str]) -> dict[str, set[str]]:
    observed: dict[str, set[str]] = {name: set() for name in names}
    if not names:
        return observed
    for features in vocabulary.items.values_list("features", flat=True):
        for name in names:
            observed[name].update(features.get(name, ()))
    return observed


def vocabulary_feature_columns(*, vocabulary: Vocabulary) -> list[FeatureColumn]:
    """Return the schema's features in order, each with the values its filter offers.

    Declared values for categories that list them, yes/no for bools, and otherwise the values
    the items hold (up to MAX_CHOICES; beyond that, and for numbers and text, None).
    """
    schema = schema_from_json(vocabulary.schema)
    open_categories = [
        name for name, spec in schema.features.items() if spec.type == "category" and spec.values is None
    ]
    observed = _observed_values(vocabulary, open_categories)
    columns = []
    for name, spec in schema.features.items():
        choices: list[tuple[str, str]] | None = None
        if spec.type == "bool":
            choices = [("1", "yes"), ("0", "no")]
        elif spec.values is not None:
            choices = [(value, value) for value in spec.values]
        elif name in observed and len(observed[name]) <= MAX_CHOICES:
            choices = [(value, value) for value in sorted(observed[name])]
        columns.append(FeatureColumn(name=name, spec=spec, choices=choices))
    return columns


def vocabulary_pos_values(*, vocabulary: Vocabulary) -> list[str]:
    """Return the parts of speech the items use, sorted (blank left out)."""
    return sorted(set(vocabulary.items.exclude(pos="").values_list("pos", flat=True)))


def feature_usage(*, vocabulary: Vocabulary, feature: str) -> list[VocabularyItem]:
    """Return the items that hold a value for `feature`, in table order."""
    return [item for item in vocabulary.items.order_by("id") if item.features.get(feature)]


@dataclass(frozen=True, slots=True)
class ExportFile:
    """A downloadable vocabulary file: its text, file name and media type."""

    text: str
    file_name: str
    content_type: str


EXPORT_FORMATS: dict[str, tuple[str, str, str]] = {
    # format: (suffix, delimiter, media type)
    "csv": (".csv", ",", "text/csv; charset=utf-8"),
    "tsv": (".tsv", "\t", "text/tab-separated-values; charset=utf-8"),
    "schema": (".schema.yaml", "", "application/yaml; charset=utf-8"),
}


def vocabulary_export(*, vocabulary: Vocabulary, fmt: str) -> ExportFile:
    """Return the vocabulary as a CSV or TSV table, or its `.schema.yaml`, written by the engine.

    Importing the table with the schema file gives the same engine vocabulary (equal version).

    Raises:
        KeyError: for a format other than csv, tsv or schema.
        VocabularyError: if a stored value would not read back unchanged (naming row and column).
    """
    suffix, delimiter, content_type = EXPORT_FORMATS[fmt]
    lexicon = vocabulary_to_engine(vocabulary)
    if fmt == "schema":
        text = schema_to_yaml_text(export_schema(lexicon), lexicon.language)
    else:
        text = vocabulary_to_csv_text(lexicon, delimiter=delimiter)
    return ExportFile(text=text, file_name=f"{vocabulary.name}{suffix}", content_type=content_type)


def vocabulary_odd_values(*, vocabulary: Vocabulary) -> list[OddValue]:
    """Return the values of the schema's categories that few items hold beside common ones:
    likely slips, shown on the vocabulary's page to check. (A file read without a schema lists
    every value it met as declared, so declared values are checked too.)"""
    schema = schema_from_json(vocabulary.schema)
    categories = [name for name, spec in schema.features.items() if spec.type == "category"]
    if not categories:
        return []
    return odd_values(
        vocabulary.items.order_by("pk").values_list("item_id", "features").iterator(chunk_size=5_000),
        features=categories,
    )
