"""Reads of vocabulary updates (edited files offered as a vocabulary's next version) and of the
versions they keep; every lookup is scoped to a project's vocabulary."""

from django.http import Http404

from mpp_studio.lexicon.models import Vocabulary, VocabularySnapshot, VocabularyUpdate
from vocab.errors import E_UNDECLARED_COLUMN, E_VALUE

# The vocabulary page lists this many of its latest updates.
RECENT_UPDATES = 5
# Problems of a table read against the vocabulary's features that declaring a feature or value
# would cure (the update's page then says where to declare it).
UNDECLARED_CODES = frozenset({E_UNDECLARED_COLUMN, E_VALUE})


def vocabulary_update_get(*, vocabulary: Vocabulary, update_id: int) -> VocabularyUpdate:
    """Return the vocabulary's update with this id (with its jobs, snapshots and author).

    Raises:
        Http404: if the vocabulary has no such update.
    """
    update = (
        VocabularyUpdate.objects.filter(vocabulary=vocabulary, pk=update_id)
        .select_related("read_job", "apply_job", "before", "after", "created_by")
        .first()
    )
    if update is None:
        raise Http404("No such update of this vocabulary.")
    return update


def vocabulary_updates_recent(*, vocabulary: Vocabulary) -> list[VocabularyUpdate]:
    """Return the vocabulary's latest updates, newest first (the vocabulary page lists them)."""
    return list(
        VocabularyUpdate.objects.filter(vocabulary=vocabulary)
        .select_related("read_job", "apply_job", "before", "created_by")
        .order_by("-created_at", "-pk")[:RECENT_UPDATES]
    )


def vocabulary_version_get(*, vocabulary: Vocabulary, snapshot_id: int) -> VocabularySnapshot:
    """Return a kept version (snapshot) of the vocabulary.

    Raises:
        Http404: if the vocabulary has no such version.
    """
    snapshot = VocabularySnapshot.objects.filter(vocabulary=vocabulary, pk=snapshot_id).first()
    if snapshot is None:
        raise Http404("No such version of this vocabulary.")
    return snapshot


def undeclared_problems(update: VocabularyUpdate) -> bool:
    """Whether a refused table, read with the vocabulary's own features (no schema file sent),
    has a column or value those features do not declare."""
    return not update.schema_file_name and any(
        problem.get("code") in UNDECLARED_CODES for problem in update.problems
    )
