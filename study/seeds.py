"""Seeds derived from the study's seed with hashlib: stable across runs, machines and Python
versions (never `hash()`, which changes per process), and independent per purpose, so adding a
paradigm or a participant does not change what the others got."""

from __future__ import annotations

import hashlib


def derive_seed(*parts: object) -> int:
    """Return a 64-bit seed made from `parts` (their `str()`, joined), e.g. (seed, "sample", paradigm)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def participant_seed(study_seed: int, participant_id: str) -> int:
    """Return the seed of one participant's trial order: from the study seed and the participant id."""
    return derive_seed("mpp-study", study_seed, "participant", participant_id)
