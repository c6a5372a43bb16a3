"""Reads for learner corpora and triplet runs, always within one project (404 otherwise)."""

from dataclasses import dataclass

from django.db.models import Count, QuerySet
from django.shortcuts import get_object_or_404

from generator.triplets.report import YieldReport
from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import Pair
from mpp_studio.learner.models import LearnerCorpus, LearnerPairRecord, TripletChunk, TripletRun


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


def run_error_types(*, run: TripletRun) -> list[tuple[str, int]]:
    """Return (ERRANT type, triplets) of the run's dataset, by type."""
    if run.dataset_id is None:
        return []
    from mpp_studio.datasets.models import DatasetParadigm

    rows = (
        DatasetParadigm.objects.filter(dataset_id=run.dataset_id)
        .annotate(n=Count("pairs"))
        .order_by("uid")
        .values_list("uid", "n")
    )
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
