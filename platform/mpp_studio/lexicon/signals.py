"""What the lexicon app tells the apps above it: a vocabulary's items, features or name changed.

The templates that name a vocabulary store the check made against it (problems, capacity); they
learn of a change through `vocabulary_changed` (the paradigms app listens), so the lexicon app
need not know them.
"""

from django.db import transaction
from django.dispatch import Signal

from mpp_studio.lexicon.models import Vocabulary

# Sent once the change is committed, with `project_id` and `name` (the vocabulary's name then;
# a rename is sent for the old name and the new one).
vocabulary_changed = Signal()


def vocabulary_changed_announce(vocabulary: Vocabulary, *, name: str | None = None) -> None:
    """Send `vocabulary_changed` for the vocabulary (under `name`, if given) when the current
    transaction commits (at once outside one)."""
    project_id, changed = vocabulary.project_id, vocabulary.name if name is None else name
    transaction.on_commit(
        lambda: vocabulary_changed.send(sender=Vocabulary, project_id=project_id, name=changed)
    )
