"""Writes for datasets: creating, cancelling and deleting them, and generating their paradigms."""

from mpp_studio.datasets.services.datasets import (
    JOB_KIND,
    MAX_PAIRS_PER_PARADIGM,
    dataset_cancel,
    dataset_create,
    dataset_delete,
)
from mpp_studio.datasets.services.generation import (
    CHUNK_SIZE,
    PAIRS_PER_RUN,
    dataset_finish_if_complete,
    dataset_paradigm_fail,
    dataset_paradigm_generate,
)

__all__ = [
    "CHUNK_SIZE",
    "JOB_KIND",
    "MAX_PAIRS_PER_PARADIGM",
    "PAIRS_PER_RUN",
    "dataset_cancel",
    "dataset_create",
    "dataset_delete",
    "dataset_finish_if_complete",
    "dataset_paradigm_fail",
    "dataset_paradigm_generate",
]
