"""The bridge from stored scoring rows to the scoring engine: a stored configuration becomes the
engine's `ScorerSettings` (as every other app keeps its bridge in its `engine.py`)."""

from mpp_studio.evaluation.models import ScoreConfig
from scoring.settings import ScorerSettings

# Tokens per padded batch when a run names none.
DEFAULT_TOKEN_BUDGET = 8_192


def config_settings(config: ScoreConfig, *, device: str = "auto", token_budget: int = 0) -> ScorerSettings:
    """Return the engine's ScorerSettings of a stored configuration (`device` and
    `token_budget` change speed only); its key is `config.settings_key` unless the scorer
    version changed since."""
    return ScorerSettings(
        method=config.method,  # type: ignore[arg-type]  # a stored choice of the same names
        model=config.source,
        revision=config.revision or None,
        dtype=config.dtype,  # type: ignore[arg-type]  # a stored choice of the same names
        score_eos=config.score_eos,
        language=config.language,
        fingerprint=config.fingerprint,
        device=device,
        token_budget=token_budget or DEFAULT_TOKEN_BUDGET,
    )
