"""Reads of vocabulary updates (edited files offered as a vocabulary's next version) and of the
versions they keep; every lookup is scoped to a project's vocabulary."""

from django.http import Http404

from mpp_studio.lexicon.models import Vocabulary, VocabularySnapshot, VocabularyUpdate

# The vocabulary page lists this many of its latest updates.
RECENT_UPDATES = 5


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
