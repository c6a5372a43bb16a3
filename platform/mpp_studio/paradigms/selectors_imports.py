"""Reads of the import jobs of a project's paradigms (ZhoBLiMP projects, library paradigms);
every lookup is scoped to a project."""

from dataclasses import dataclass

from django.http import Http404

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
class ZhoblimpImportView:
    """What a ZhoBLiMP import's page shows: the row, its report as notes and their counts."""

    row: ZhoblimpImport
    notes: list[ImportNote]
    counts: dict[str, int]


def zhoblimp_import_view(*, project: Project, import_id: int) -> ZhoblimpImportView:
    """Return what the page of a ZhoBLiMP import shows.

    Raises:
        Http404: as `zhoblimp_import_get`.
    """
    row = zhoblimp_import_get(project=project, import_id=import_id)
    notes = [ImportNote(**note) for note in row.report]
    return ZhoblimpImportView(row=row, notes=notes, counts=count_levels(notes))


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
