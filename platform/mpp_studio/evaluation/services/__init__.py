"""Writes for model evaluation: registering and deleting models, creating, cancelling and
deleting scoring runs, and scoring their chunks."""

from mpp_studio.evaluation.engine import DEFAULT_TOKEN_BUDGET
from mpp_studio.evaluation.services.language_models import (
    ModelDeletion,
    SeriesRegistration,
    language_model_create,
    language_model_delete,
    language_model_deletion,
    language_model_series_register,
    language_model_unigram_ensure,
    language_model_update,
)
from mpp_studio.evaluation.services.runs import (
    CHUNK_SIZE,
    JOB_KIND,
    StoredScores,
    config_ensure,
    run_cancel,
    run_create,
    run_delete,
    run_scores_count,
)
from mpp_studio.evaluation.services.scoring import (
    MAX_ATTEMPTS,
    chunk_give_up,
    run_finish_if_complete,
    score_chunk,
)

__all__ = [
    "CHUNK_SIZE",
    "DEFAULT_TOKEN_BUDGET",
    "JOB_KIND",
    "MAX_ATTEMPTS",
    "ModelDeletion",
    "SeriesRegistration",
    "StoredScores",
    "chunk_give_up",
    "config_ensure",
    "language_model_create",
    "language_model_delete",
    "language_model_deletion",
    "language_model_series_register",
    "language_model_unigram_ensure",
    "language_model_update",
    "run_cancel",
    "run_create",
    "run_delete",
    "run_finish_if_complete",
    "run_scores_count",
    "score_chunk",
]
