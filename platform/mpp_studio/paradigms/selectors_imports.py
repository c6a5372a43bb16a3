"""Reads of the import jobs of a project's paradigms (ZhoBLiMP projects, library paradigms);
every lookup is scoped to a project."""

from dataclasses import dataclass

from django.http import Http404

from generator.importers.zhoblimp_compare import ALPHA, VERDICT_MEANINGS, VERDICTS
from mpp_studio.accounts.models import Project
from mpp_studio.paradigms.models import LibraryImport, ZhoblimpImport
from mpp_studio.paradigms.services.library_into_project import LibraryImportReport, library_import_report
from vocab.import_report import ImportNote, count_levels


def zhoblimp_import_get(*, project: Project, import_id: int) -> ZhoblimpImport:
    """Return the project's ZhoBLiMP import with this id (with its job and vocabulary).

    Raises:
        Http404: if the project has no such import (another project's is not revealed).
    """
    row = (
        ZhoblimpImport.objects.filter(project=project, pk=import_id)
        .select_related("job", "vocabulary", "created_by")
        .first()
    )
    if row is None:
        raise Http404("No such ZhoBLiMP import in this project.")
    return row


@dataclass(frozen=True, slots=True)
class ComparisonView:
    """A stored comparison with the released data as the page shows it: the summary, each verdict
    explained, and the UIDs not in the released shape first, each with the id of the project
    template stored for it (None when none was) and each seed's differing profiles."""

    summary: str
    seeds: list[int]
    alpha: float  # a profile differs when its p-value is below this
    meanings: list[tuple[str, str]]
    rows: list[dict[str, object]]
    unreleased: list[str]


@dataclass(frozen=True, slots=True)
class ZhoblimpImportView:
    """What a ZhoBLiMP import's page shows: the row, its report as notes and their counts, and
    the comparison with the released data (None without one)."""

    row: ZhoblimpImport
    notes: list[ImportNote]
    counts: dict[str, int]
    comparison: ComparisonView | None = None


def zhoblimp_import_view(*, project: Project, import_id: int) -> ZhoblimpImportView:
    """Return what the page of a ZhoBLiMP import shows.

    Raises:
        Http404: as `zhoblimp_import_get`.
    """
    row = zhoblimp_import_get(project=project, import_id=import_id)
    notes = [ImportNote(**note) for note in row.report]
    return ZhoblimpImportView(
        row=row, notes=notes, counts=count_levels(notes), comparison=_comparison_view(row)
    )


def _comparison_view(row: ZhoblimpImport) -> ComparisonView | None:
    """Return the page's form of the import's stored comparison, or None without one."""
    data = row.comparison
    if not data:
        return None
    stored = {str(t["uid"]): t["id"] for t in row.templates}
    # Worst first: what is not in the released shape is what a reader looks for.
    order = {verdict: -index for index, verdict in enumerate(VERDICTS)}
    rows = []
    for uid in sorted(data["uids"], key=lambda u: (order.get(u["verdict"], 0), u["uid"])):
        seeds = [
            {
                **seed,
                "overlap_text": f"{seed['good_overlap']:.0%}",
                "differing": [
                    {**test, "p_text": _p_text(test["p_value"])} for test in seed["tests"] if test["differs"]
                ],
            }
            for seed in uid["seeds"]
        ]
        rows.append({**uid, "template_id": stored.get(uid["template"]), "seeds": seeds})
    return ComparisonView(
        summary=data["summary"],
        seeds=list(data["seeds"]),
        alpha=ALPHA,
        meanings=[(verdict, VERDICT_MEANINGS[verdict]) for verdict in VERDICTS],
        rows=rows,
        unreleased=list(data.get("unreleased", [])),
    )


def _p_text(p_value: float | None) -> str:
    """Return a p-value in three significant digits ("—" when the test gave no number)."""
    return "—" if p_value is None else f"{p_value:.3g}"


def library_import_get(*, project: Project, import_id: int) -> LibraryImport:
    """Return the project's library import with this id (with its job).

    Raises:
        Http404: if the project has no such import (another project's is not revealed).
    """
    row = LibraryImport.objects.filter(project=project, pk=import_id).select_related("job", "project").first()
    if row is None:
        raise Http404("No such library import in this project.")
    return row


def library_import_view(*, project: Project, import_id: int) -> LibraryImportReport:
    """Return a library import's report so far (its row at `.row`).

    Raises:
        Http404: as `library_import_get`.
    """
    return library_import_report(row=library_import_get(project=project, import_id=import_id))
