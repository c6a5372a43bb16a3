"""Stored vocabulary files. A row is one version of a file and is never changed."""

from django.db import models

from mpp_studio.core.models import BaseModel


class LibraryVocabulary(BaseModel):
    """One version of a shipped library vocabulary file: the item table and its optional schema."""

    name = models.CharField(max_length=200)
    language = models.CharField(max_length=35, blank=True, help_text="BCP 47 code, e.g. en, zh.")
    items_text = models.TextField(help_text="The CSV/TSV file as uploaded.")
    schema_text = models.TextField(blank=True, help_text="The sidecar .schema.yaml, if any.")
    file_name = models.CharField(max_length=255)
    content_hash = models.CharField(max_length=64, help_text="SHA-256 of items and schema.")

    class Meta:
        verbose_name_plural = "vocabularies"
        ordering = ("name", "-created_at")
        constraints = [
            models.UniqueConstraint(
                fields=("file_name", "content_hash"), name="lexicon_libraryvocabulary_unique_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.content_hash[:8]})"
