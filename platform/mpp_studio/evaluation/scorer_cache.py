"""The scorer a worker process keeps loaded between scoring chunks.

Loading a model takes seconds to minutes, a chunk much less, so the last scorer stays resident
and the next chunk of the same configuration reuses it. Only one is kept: a GPU holds one large
model at a time. Scorers are loaded inside the task, never at import or in the parent of a
prefork pool, so CUDA is first initialised in the process that uses it (a CUDA context does
not survive a fork).
"""

import gc
import sys
import threading

from scoring.registry import Scorer, load_scorer
from scoring.settings import ScorerSettings

_lock = threading.Lock()
_current: tuple[tuple[str, str, int], Scorer] | None = None


def _cache_key(settings: ScorerSettings) -> tuple[str, str, int]:
    # Device and token budget change how the scorer runs (not its numbers): a different one
    # needs a new scorer all the same.
    return settings.key(), settings.device, settings.token_budget


def scorer_get(settings: ScorerSettings) -> Scorer:
    """Return a loaded scorer for `settings`: the resident one when it matches, else a new one
    (the previous one is released first).

    Raises:
        ScoringError: as `scoring.load_scorer` (ModelLoadError when the model cannot be loaded).
    """
    global _current
    key = _cache_key(settings)
    with _lock:
        if _current is not None and _current[0] == key:
            return _current[1]
        _release()
        scorer = load_scorer(settings)
        _current = (key, scorer)
        return scorer


def scorer_loaded() -> str | None:
    """Return the settings key of the resident scorer, or None."""
    current = _current
    return current[0][0] if current is not None else None


def scorer_clear() -> None:
    """Release the resident scorer and the device memory it held."""
    with _lock:
        _release()


def _release() -> None:
    global _current
    _current = None
    gc.collect()
    torch = sys.modules.get("torch")  # only when a model scorer imported it
    if torch is not None and torch.cuda.is_available():
        torch.cuda.empty_cache()
