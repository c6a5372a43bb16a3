"""Writes for grammar templates: storing checked template versions, the library import, previews."""

from mpp_studio.paradigms.services.library import (
    LibraryFileError,
    LibraryFileResult,
    LibraryImportReport,
    library_import,
)
from mpp_studio.paradigms.services.preview import Preview, PreviewPair, template_preview
from mpp_studio.paradigms.services.project_templates import template_save
from mpp_studio.paradigms.services.templates import template_content_hash, template_import

__all__ = [
    "LibraryFileError",
    "LibraryFileResult",
    "LibraryImportReport",
    "Preview",
    "PreviewPair",
    "library_import",
    "template_content_hash",
    "template_import",
    "template_preview",
    "template_save",
]
