"""Writes for datasets: creating, cancelling and deleting them, generating their paradigms, and
importing released datasets as read-only ones."""

from mpp_studio.datasets.services.datasets import (
    JOB_KIND,
    MAX_PAIRS_PER_PARADIGM,
    ShortParadigms,
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
    dataset_paradigm_retry,
)
from mpp_studio.datasets.services.imports import (
    IMPORT_FORMATS,
    UploadedFile,
    dataset_import_run,
    dataset_import_start,
    dataset_read_only_message,
    dataset_require_generated,
)

__all__ = [
    "CHUNK_SIZE",
    "IMPORT_FORMATS",
    "JOB_KIND",
    "MAX_PAIRS_PER_PARADIGM",
    "PAIRS_PER_RUN",
    "ShortParadigms",
    "UploadedFile",
    "dataset_cancel",
    "dataset_create",
    "dataset_delete",
    "dataset_finish_if_complete",
    "dataset_import_run",
    "dataset_import_start",
    "dataset_paradigm_fail",
    "dataset_paradigm_generate",
    "dataset_paradigm_retry",
    "dataset_read_only_message",
    "dataset_require_generated",
]
