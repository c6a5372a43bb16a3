"""Errors a scoring run reports to its user, in plain words."""

from __future__ import annotations


class ScoringError(Exception):
    """A scoring run could not go on; `str(exc)` says why in words a user can act on."""


class ModelLoadError(ScoringError):
    """The model or its tokenizer could not be loaded from the id or path given."""


class SentenceTooLongError(ScoringError):
    """A sentence has more tokens than the model's context (never truncated silently)."""


class OutOfMemoryError(ScoringError):
    """Even a batch of one sentence did not fit in the device's memory."""
