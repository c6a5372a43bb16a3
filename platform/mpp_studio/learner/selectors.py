"""Reads for learner corpora and triplet runs, always within one project (404 otherwise)."""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404

from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import DatasetParadigm, Pair
from mpp_studio.learner.models import LearnerCorpus, LearnerPairRecord, TripletChunk, TripletRun
from triplets.report import YieldReport


def corpus_list(*, project: Project) -> QuerySet[LearnerCorpus]:
    """Return the project's corpora, newest first, each with `run_count` and its read job."""
    return (
        LearnerCorpus.objects.filter(project=project)
        .select_related("job")
        .annotate(run_count=Count("runs"))
        .order_by("-created_at", "-pk")
    )


def corpus_get(*, project: Project, corpus_id: int) -> LearnerCorpus:
    """Return the project's corpus (404 when it has none with that id)."""
    return get_object_or_404(LearnerCorpus, project=project, pk=corpus_id)


def corpus_value_counts(*, corpus: LearnerCorpus, field: str) -> list[tuple[str, int]]:
    """Return (value, pairs) of a pair field (`l1`, `cefr`), most pairs first; "" = not given."""
    rows = (
        LearnerPairRecord.objects.filter(corpus=corpus)
        .values_list(field)
        .annotate(n=Count("pk"))
        .order_by("-n", field)
    )
    return [(str(value), int(n)) for value, n in rows]


def run_list(*, corpus: LearnerCorpus) -> QuerySet[TripletRun]:
    """Return the corpus's runs, newest first, with their job and dataset."""
    return TripletRun.objects.filter(corpus=corpus).select_related("job", "dataset")


def run_list_for_project(*, project: Project) -> QuerySet[TripletRun]:
    """Return every run of the project's corpora, newest first."""
    return TripletRun.objects.filter(corpus__project=project).select_related("job", "dataset", "corpus")


def run_get(*, project: Project, run_id: int) -> TripletRun:
    """Return a run of one of the project's corpora (404 otherwise)."""
    return get_object_or_404(
        TripletRun.objects.select_related("corpus", "job", "dataset"), corpus__project=project, pk=run_id
    )


def run_chunk_counts(*, run: TripletRun) -> dict[str, int]:
    """Return the run's chunks by status (`pending`, `done`) and in all (`total`)."""
    counts = {status: 0 for status in TripletChunk.Status.values}
    for status, n in TripletChunk.objects.filter(run=run).values_list("status").annotate(n=Count("pk")):
        counts[str(status)] = int(n)
    counts["total"] = sum(counts.values())
    return counts


@dataclass(frozen=True, slots=True)
class TripletFilter:
    """Which triplets to show: an ERRANT type, an L1 and a CEFR level ("" = any)."""

    error_type: str = ""
    l1: str = ""
    cefr: str = ""

    def query(self) -> dict[str, str]:
        """Return the filter as query parameters (`type`, `l1`, `cefr`), empty ones left out."""
        return {k: v for k, v in (("type", self.error_type), ("l1", self.l1), ("cefr", self.cefr)) if v}


def triplet_filter(params: object) -> TripletFilter:
    """Return the filter of a request's query parameters (`type`, `l1`, `cefr`)."""
    get = getattr(params, "get")  # noqa: B009  # a QueryDict or a dict
    return TripletFilter(
        error_type=str(get("type", "") or "").strip(),
        l1=str(get("l1", "") or "").strip(),
        cefr=str(get("cefr", "") or "").strip(),
    )


def triplet_list(*, run: TripletRun, chosen: TripletFilter | None = None) -> QuerySet[Pair]:
    """Return the run's triplets (Pair rows) in corpus order, filtered by type, L1 and CEFR."""
    if run.dataset_id is None:
        return Pair.objects.none()
    pairs = Pair.objects.filter(paradigm__dataset_id=run.dataset_id).select_related("paradigm")
    chosen = chosen or TripletFilter()
    if chosen.error_type:
        pairs = pairs.filter(paradigm__uid=chosen.error_type)
    if chosen.l1:
        pairs = pairs.filter(record__L1=chosen.l1)
    if chosen.cefr:
        pairs = pairs.filter(record__cefr=chosen.cefr)
    return pairs.order_by("index")


class TripletPages:
    """The triplets of some paradigms of a finished run in corpus order (by pair index), as a
    sequence whose length is the sum of the paradigms' `produced` counts: `Paginator` takes it
    like a queryset, but nothing is counted. A page finds its place through the run's chunks
    (each a range of source pairs, its report counting the triplets it made of each type), then
    reads that range's (paradigm, index) places from the index, then those rows."""

    def __init__(self, run: TripletRun, paradigms: Sequence[DatasetParadigm]) -> None:
        self.run = run
        self.paradigms = {p.pk: p for p in paradigms}
        self._count = sum(p.produced for p in paradigms)

    def count(self) -> int:
        """Return the number of triplets (from the paradigms' counts)."""
        return self._count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, key: slice) -> list[Pair]:
        start, stop, _ = key.indices(self._count)
        if stop <= start or not self.paradigms:
            return []
        places: list[tuple[int, int]] = []
        for first, end, skip, take in self._spans(start, stop):
            # One index range scan per paradigm, merged here: asked of all paradigms at once, the
            # planner expects every pair in the range (indexes are numbered per paradigm, so low
            # ones are common) and reads each paradigm whole through its foreign-key index.
            window: list[tuple[int, int]] = []
            for paradigm_id in self.paradigms:
                pairs = Pair.objects.filter(paradigm_id=paradigm_id, index__gte=first, index__lt=end)
                indexes = pairs.order_by("index").values_list("index", flat=True)[: skip + take]
                window += [(index, paradigm_id) for index in indexes]
            places += [(paradigm_id, index) for index, paradigm_id in sorted(window)[skip : skip + take]]
        rows = Pair.objects.filter(paradigm_id__in=list(self.paradigms))
        rows = rows.filter(index__in={index for _, index in places}).order_by()
        by_place = {(row.paradigm_id, row.index): row for row in rows}
        out = [by_place[place] for place in places if place in by_place]
        for row in out:
            row.paradigm = self.paradigms[row.paradigm_id]  # not one query per triplet
        return out

    def _spans(self, start: int, stop: int) -> list[tuple[int, int, int, int]]:
        """Return (first pair index, end pair index, places to skip, places to take) of each
        chunk that the places `start`..`stop` fall in; one span of the whole dataset when the
        chunks' counts do not add up to the paradigms' (it is then read through, sorted)."""
        from mpp_studio.learner.services import SLOTS

        uids = {p.uid for p in self.paradigms.values()}
        chunks = TripletChunk.objects.filter(run=self.run).order_by("index")
        counted = []
        for first, last, made in chunks.values_list("first_index", "last_index", "report__triplets"):
            n = sum(int(v) for k, v in made.items() if k in uids) if isinstance(made, dict) else 0
            counted.append((first * SLOTS, (last + 1) * SLOTS, n))
        if sum(n for _, _, n in counted) != self._count:
            return [(0, 2**62, start, stop - start)]
        spans = []
        offset = 0
        for first, end, n in counted:
            if offset >= stop:
                break
            if offset + n > start:
                skip = max(0, start - offset)
                spans.append((first, end, skip, min(stop, offset + n) - offset - skip))
            offset += n
        return spans


def triplet_pages(*, run: TripletRun, chosen: TripletFilter | None = None) -> TripletPages | QuerySet[Pair]:
    """Return the run's triplets as `triplet_list` orders them, for a paginator: counted from
    the paradigms' `produced` once the run has finished and no L1 or CEFR level is chosen
    (those are fields of each triplet's record), else the `triplet_list` queryset."""
    chosen = chosen or TripletFilter()
    if run.dataset_id is None or chosen.l1 or chosen.cefr or not _finished(run):
        return triplet_list(run=run, chosen=chosen)
    paradigms = DatasetParadigm.objects.filter(dataset_id=run.dataset_id).order_by("uid")
    if chosen.error_type:
        paradigms = paradigms.filter(uid=chosen.error_type)
    return TripletPages(run, list(paradigms))


def _finished(run: TripletRun) -> bool:
    # The run's paradigms hold their triplet counts (`produced`) once its job has ended.
    return run.job is None or bool(run.job.finished)


def run_error_types(*, run: TripletRun) -> list[tuple[str, int]]:
    """Return (ERRANT type, triplets) of the run's dataset, by type: the counts its paradigms
    keep once the run has finished, counted over its triplets only while it runs."""
    if run.dataset_id is None:
        return []
    paradigms = DatasetParadigm.objects.filter(dataset_id=run.dataset_id).order_by("uid")
    if _finished(run):
        rows = paradigms.values_list("uid", "produced")
    else:
        rows = paradigms.annotate(n=Count("pairs")).values_list("uid", "n")
    return [(str(uid), int(n)) for uid, n in rows]


def chunks_report(run: TripletRun) -> YieldReport:
    """Return the sum of the reports of the run's finished chunks."""
    report = YieldReport()
    done = TripletChunk.objects.filter(run=run, status=TripletChunk.Status.DONE)
    for data in done.values_list("report", flat=True):
        report.merge(YieldReport.from_dict(data or {}))
    return report


def run_report(run: TripletRun) -> YieldReport:
    """Return the run's yield report: the merged one once it has finished, else the sum of the
    chunks finished so far."""
    return YieldReport.from_dict(run.report) if run.report else chunks_report(run)


@dataclass(frozen=True, slots=True)
class DroppedPair:
    """One pair kept as an example of a yield-report cell: the id the report gave (a single-edit
    pair's is "<source id>#<n>": the source pair with its n-th grammatical edit kept), and the
    corpus's stored pair (None when it is no longer there)."""

    example_id: str
    edit_number: int | None
    record: LearnerPairRecord | None


@dataclass(frozen=True, slots=True)
class DroppedCell:
    """A yield-report cell read pair by pair: its count and the examples the report kept."""

    error_type: str
    reason: str
    count: int
    pairs: list[DroppedPair]


def dropped_cell(*, run: TripletRun, error_type: str, reason: str) -> DroppedCell:
    """Return the cell of the run's yield report for (`error_type`, `reason`): "" as the type is
    the source pairs dropped before they had one. The pairs are the report's examples (the first
    met, at most `triplets.report.EXAMPLES_PER_CELL`), each with its stored source pair."""
    report = run_report(run)
    if error_type == YieldReport.SOURCE_PAIRS:
        count = report.pairs_dropped.get(reason, 0)
    else:
        count = report.dropped.get(error_type, Counter()).get(reason, 0)
    examples = report.examples_of(error_type, reason)
    sources: dict[str, tuple[str, int | None]] = {}
    for example in examples:
        source, _, number = example.rpartition("#")
        if error_type == YieldReport.SOURCE_PAIRS or not source or not number.isdigit():
            sources[example] = (example, None)  # a source pair's own id (it may hold a "#")
        else:
            sources[example] = (source, int(number))
    records = {
        r.pair_id: r
        for r in LearnerPairRecord.objects.filter(
            corpus_id=run.corpus_id, pair_id__in={s for s, _ in sources.values()}
        )
    }
    pairs = [DroppedPair(e, sources[e][1], records.get(sources[e][0])) for e in examples]
    return DroppedCell(error_type, reason, int(count), pairs)
