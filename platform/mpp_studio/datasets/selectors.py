"""Reads for datasets; every lookup is scoped to a project (another project's rows are a 404)."""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from django.db.models import Count, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.http import Http404

from generator.capacity import capacity_bound
from generator.errors import TemplateError
from mpp_studio.accounts.models import Project
from mpp_studio.datasets.engine import snapshot_items
from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
from mpp_studio.datasets.problem_text import problem_summary
from mpp_studio.paradigms.models import Template, TemplateVersion
from vocab.errors import VocabularyError


def dataset_list(*, project: Project) -> QuerySet[Dataset]:
    """Return the project's datasets, newest first, with `paradigm_count` and `pair_count`."""
    return (
        Dataset.objects.filter(project=project)
        .select_related("job", "created_by")
        .annotate(
            paradigm_count=Count("paradigms", distinct=True),
            pair_count=Coalesce(Sum("paradigms__produced"), 0),
        )
        .order_by("-created_at", "-pk")
    )


def dataset_get(*, project: Project, dataset_id: int) -> Dataset:
    """Return the project's dataset with this id.

    Raises:
        Http404: if the project has no such dataset.
    """
    dataset = Dataset.objects.filter(project=project, pk=dataset_id).select_related("job").first()
    if dataset is None:
        raise Http404("No such dataset in this project.")
    return dataset


def dataset_paradigms(*, dataset: Dataset) -> QuerySet[DatasetParadigm]:
    """Return the dataset's paradigms by uid, with their template version and snapshot."""
    return dataset.paradigms.select_related("template_version", "vocabulary_snapshot").order_by("uid")


def counts_settled(dataset: Dataset) -> bool:
    """Return whether the `produced` counts of the dataset's paradigms are its stored pairs.

    Generation and imports keep them after every chunk they store; a triplet run sets them
    when its job ends, so while that job is open the pairs are counted instead."""
    if dataset.origin in (Dataset.Origin.GENERATED, Dataset.Origin.IMPORTED) or dataset.job is None:
        return True
    return bool(dataset.job.finished)


def dataset_pair_count(*, dataset: Dataset) -> int:
    """Return how many pairs the dataset has stored: the sum of its paradigms' `produced`
    counts, never a count over its pairs (unless an import or triplet run is still writing)."""
    if not counts_settled(dataset):
        return Pair.objects.filter(paradigm__dataset=dataset).count()
    return int(dataset.paradigms.aggregate(n=Coalesce(Sum("produced"), 0))["n"])


def pair_list(*, dataset: Dataset, uid: str = "") -> QuerySet[Pair]:
    """Return the dataset's pairs, paradigm by paradigm in index order; `uid` keeps one paradigm."""
    pairs = Pair.objects.filter(paradigm__dataset=dataset).select_related("paradigm")
    if uid:
        pairs = pairs.filter(paradigm__uid=uid)
    return pairs.order_by("paradigm__uid", "index")


# Past this many pairs into a paradigm, a page first finds its first pair's index in the
# (paradigm, index) index alone, then reads from there, instead of skipping rows it reads.
SKIP_BY_INDEX = 1_000


class ParadigmPairs:
    """Pairs of some paradigms, paradigm after paradigm in index order, as a sequence whose
    length is the sum of their `produced` counts: `Paginator` takes it like a queryset, but a
    page is read with an index scan of each paradigm it spans (two queries at most for each),
    and nothing is counted, however many pairs the dataset holds."""

    def __init__(self, paradigms: Sequence[DatasetParadigm]) -> None:
        self.paradigms = [p for p in paradigms if p.produced > 0]
        self._count = sum(p.produced for p in self.paradigms)

    def count(self) -> int:
        """Return the number of pairs (from the paradigms' counts)."""
        return self._count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, key: slice) -> list[Pair]:
        start, stop, _ = key.indices(self._count)
        out: list[Pair] = []
        offset = 0
        for paradigm in self.paradigms:
            end = offset + paradigm.produced
            if offset >= stop:
                break
            if end > start:
                first = max(0, start - offset)
                out += _paradigm_pairs(paradigm, first, min(stop, end) - offset - first)
            offset = end
        return out


def _paradigm_pairs(paradigm: DatasetParadigm, skip: int, take: int) -> list[Pair]:
    pairs = Pair.objects.filter(paradigm=paradigm).order_by("index")
    if skip > SKIP_BY_INDEX:
        boundary = pairs.values_list("index", flat=True)[skip : skip + 1].first()
        if boundary is None:
            return []
        rows = list(pairs.filter(index__gte=boundary)[:take])
    else:
        rows = list(pairs[skip : skip + take])
    for row in rows:
        row.paradigm = paradigm  # the page's paradigm row, not one query per pair
    return rows


def pair_pages(
    *, dataset: Dataset, paradigms: Sequence[DatasetParadigm], uid: str = ""
) -> ParadigmPairs | QuerySet[Pair]:
    """Return the dataset's pairs in `pair_list`'s order (`uid` keeps one paradigm) for a
    paginator: read page by page from `paradigms` (the dataset's, by uid) and their counts,
    or, while an import or triplet run is still writing them, the `pair_list` queryset."""
    if not counts_settled(dataset):
        return pair_list(dataset=dataset, uid=uid)
    return ParadigmPairs([p for p in paradigms if not uid or p.uid == uid])


def first_pair_record(*, dataset: Dataset) -> object:
    """Return the record of one stored pair of the dataset (the first of its first paradigm
    that has pairs), or None when it has none: a dataset's records share one layout, so one
    tells it. One index lookup per paradigm tried; a join from the pairs to the dataset with a
    LIMIT would read every pair stored before the dataset's first."""
    for paradigm_id in dataset.paradigms.order_by("pk").values_list("pk", flat=True):
        records = Pair.objects.filter(paradigm_id=paradigm_id).order_by("index")
        record = records.values_list("record", flat=True).first()
        if record is not None:
            return record
    return None


# The record key of a BLiSS triplet's third sentence, the artificial error.
ARTIFICIAL_ERROR = "artificial_error"


def is_triplet_dataset(dataset: Dataset) -> bool:
    """Return whether the dataset holds BLiSS triplets: a learner dataset, or one whose pairs'
    records carry an artificial sentence (a non-blank `artificial_error`).

    A dataset's records share one layout, so its first pair tells; asking whether any record
    has the key would read every record of a large minimal-pair dataset on each page."""
    if dataset.origin == Dataset.Origin.LEARNER:
        return True
    record = first_pair_record(dataset=dataset)
    if not isinstance(record, dict):
        return False
    artificial = record.get(ARTIFICIAL_ERROR)
    return isinstance(artificial, str) and bool(artificial.strip())


def pair_get(*, dataset: Dataset, pair_id: int) -> Pair:
    """Return one pair of the dataset.

    Raises:
        Http404: if the dataset has no such pair.
    """
    pair = (
        Pair.objects.filter(paradigm__dataset=dataset, pk=pair_id)
        .select_related("paradigm__template_version", "paradigm__vocabulary_snapshot")
        .first()
    )
    if pair is None:
        raise Http404("No such pair in this dataset.")
    return pair


# -- Choosing paradigms ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TemplateChoice:
    """A project template offered for a dataset: usable, or disabled with the reason."""

    template: Template
    version: TemplateVersion | None
    reason: str  # why it cannot be chosen; "" when it can

    @property
    def available(self) -> bool:
        return not self.reason

    @property
    def capacity_bound(self) -> int | None:
        """The most different pairs its version could make when last counted (None: no bound
        known, or its vocabulary changed since and it is being counted again); the dataset's own
        check counts again with the vocabulary as it is now."""
        if self.version is None or self.version.recount_requested_at is not None:
            return None
        return capacity_bound(self.version.capacity_text)


@dataclass(frozen=True, slots=True)
class TemplateGroup:
    language: str
    phenomenon: str
    choices: list[TemplateChoice]


def template_choices(*, project: Project) -> list[TemplateGroup]:
    """Return the project's templates grouped by language and phenomenon, each with its newest version.

    A template whose newest version has problems is disabled, with the first problem as reason
    (the check stored when the version was saved; creating the dataset checks again).
    """
    templates = Template.objects.filter(project=project)
    latest: dict[int, TemplateVersion] = {}
    versions = TemplateVersion.objects.filter(template__project=project).only(
        "id", "template_id", "number", "problems", "capacity_text", "recount_requested_at"
    )
    for version in versions.order_by("template_id", "-number"):
        latest.setdefault(version.template_id, version)
    choices = []
    for template in templates.order_by("language", "phenomenon", "uid"):
        newest = latest.get(template.pk)
        if newest is None:
            reason = "it has no saved version yet"
        elif newest.problems:
            reason = f"version {newest.number} has problems — {problem_summary(newest.problems)}"
        else:
            reason = ""
        choices.append(TemplateChoice(template, newest, reason))
    return [
        TemplateGroup(language, phenomenon, list(group))
        for (language, phenomenon), group in groupby(
            choices, key=lambda c: (c.template.language, c.template.phenomenon)
        )
    ]


# -- Provenance of a pair --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Filler:
    """The vocabulary item that filled one position of one sentence."""

    grammar: str  # "good" or "bad"
    path: str  # the position, as the engine names it (an id, or a path into a phrase)
    item_id: str
    form: str = ""
    lemma: str = ""
    pos: str = ""
    features: tuple[tuple[str, str], ...] = ()
    found: bool = True  # False: the id is not in the snapshot (shown as such)


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a pair came from: versions, seed, structure and the words that filled it."""

    pair: Pair
    template_uid: str
    template_number: int
    template_hash: str
    template_label: str
    vocabulary: str
    vocabulary_hash: str
    seed: object
    generator: str
    structure: list[object]
    item_id: str
    fillers: list[Filler]
    problem: str = ""  # why the words could not be looked up, if so
    written_by: str = ""  # who wrote the pair by hand ("" for a generated pair)


def pair_provenance(*, pair: Pair) -> Provenance:
    """Return a pair's provenance, with each filler item looked up in the paradigm's snapshot."""
    record = _mapping(pair.record)
    provenance = _mapping(record.get("provenance"))
    paradigm = pair.paradigm
    snapshot = paradigm.vocabulary_snapshot
    items = {}
    problem = ""
    if snapshot is not None:
        try:
            items = snapshot_items(snapshot)
        except (VocabularyError, TemplateError) as exc:  # shown on the page; the ids stay visible
            problem = f"The vocabulary snapshot could not be read ({exc}); item ids are shown as recorded."
    fillers = []
    raw = _mapping(provenance.get("fillers"))
    for grammar in ("good", "bad"):
        for path, item_id in _mapping(raw.get(grammar)).items():
            item = items.get(str(item_id))
            if item is None:
                fillers.append(Filler(grammar, str(path), str(item_id), found=False))
                continue
            features = tuple((name, ", ".join(values)) for name, values in sorted(item.features.items()))
            fillers.append(Filler(grammar, str(path), item.id, item.form, item.lemma, item.pos, features))
    return Provenance(
        pair=pair,
        template_uid=str(provenance.get("template", paradigm.uid)),
        template_number=paradigm.template_version.number if paradigm.template_version else 0,
        template_hash=str(provenance.get("template_version", paradigm.template_hash)),
        template_label=str(provenance.get("template_label", "")),
        vocabulary=str(provenance.get("vocabulary", snapshot.name if snapshot else "")),
        vocabulary_hash=str(provenance.get("vocabulary_version", snapshot.content_hash if snapshot else "")),
        seed=provenance.get("seed", paradigm.dataset.seed),
        generator=str(provenance.get("generator", paradigm.generator_version)),
        structure=list(_sequence(provenance.get("structure"))),
        item_id=str(record.get("item_id", "")),
        fillers=fillers,
        problem=problem,
        written_by=str(provenance.get("written_by", "")),
    )


@dataclass(frozen=True, slots=True)
class PairSource:
    """Where an imported pair was read: format, file, line, and the source's other fields."""

    pair: Pair
    source_format: str
    file: str
    line: object
    pair_id: str
    fields: list[tuple[str, str]]


def pair_source(*, pair: Pair) -> PairSource:
    """Return where an imported pair came from, its source fields as (name, JSON text) rows."""
    record = _mapping(pair.record)
    provenance = _mapping(record.get("provenance"))
    fields = _mapping(provenance.get("fields"))
    return PairSource(
        pair=pair,
        source_format=str(provenance.get("source_format", "")),
        file=str(provenance.get("source_file", "")),
        line=provenance.get("source_line"),
        pair_id=str(record.get("pairID", "")),
        fields=[
            (name, value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
            for name, value in fields.items()
        ],
    )


def _mapping(value: object) -> dict[str, object]:
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def _sequence(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []
