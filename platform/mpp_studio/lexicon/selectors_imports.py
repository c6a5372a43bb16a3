"""Reads of vocabulary imports (the jobs that read uploaded files); every lookup is scoped to a project."""

from dataclasses import dataclass

from django.http import Http404

from mpp_studio.accounts.models import Project
from mpp_studio.lexicon.models import VocabularyImport
from vocab.import_report import ImportNote, count_levels

# A refused file with more problems than this shows the first ones and says how many remain.
SHOWN_PROBLEMS = 1000


def vocabulary_import_get(*, project: Project, import_id: int) -> VocabularyImport:
    """Return the project's vocabulary import with this id (with its job and vocabulary).

    Raises:
        Http404: if the project has no such import (another project's is not revealed).
    """
    row = (
        VocabularyImport.objects.filter(project=project, pk=import_id)
        .select_related("job", "vocabulary", "created_by")
        .first()
    )
    if row is None:
        raise Http404("No such vocabulary import in this project.")
    return row


@dataclass(frozen=True, slots=True)
class VocabularyImportView:
    """What an import's page shows: the row, its report as notes with their counts, the problems
    of a refused file (the first SHOWN_PROBLEMS) and how many more there are."""

    row: VocabularyImport
    notes: list[ImportNote]
    counts: dict[str, int]
    problems: list[dict[str, object]]
    hidden_problems: int
    item_count: int


def vocabulary_import_view(*, project: Project, import_id: int) -> VocabularyImportView:
    """Return what the page of a vocabulary import shows.

    Raises:
        Http404: as `vocabulary_import_get`.
    """
    row = vocabulary_import_get(project=project, import_id=import_id)
    notes = [ImportNote(**note) for note in row.report]
    done = row.job is not None and row.job.status == row.job.Status.DONE
    return VocabularyImportView(
        row=row,
        notes=notes,
        counts=count_levels(notes),
        problems=row.problems[:SHOWN_PROBLEMS],
        hidden_problems=max(0, len(row.problems) - SHOWN_PROBLEMS),
        item_count=row.vocabulary.items.count() if done and row.vocabulary is not None else 0,
    )
