"""Stored vocabulary files. A row is one version of a file and is never changed."""

from django.conf import settings
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


class Vocabulary(BaseModel):
    """A project's editable vocabulary: a feature schema and its items."""

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="vocabularies")
    name = models.CharField(
        max_length=100, help_text="Templates name it in `vocabulary:` (a path's stem also matches)."
    )
    language = models.CharField(max_length=35, blank=True, help_text="BCP 47 code, e.g. en, zh.")
    description = models.TextField(blank=True)
    # vocab.lexicon.FeatureSchema.to_dict(): {"multi_separator": "|", "features": {name: spec}}.
    schema = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name_plural = "vocabularies"
        ordering = ("name",)
        constraints = [
            models.UniqueConstraint(fields=("project", "name"), name="lexicon_vocabulary_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class VocabularyItem(BaseModel):
    """One lexical item: form, lemma, part of speech and feature values (lists of strings)."""

    vocabulary = models.ForeignKey(Vocabulary, on_delete=models.CASCADE, related_name="items")
    item_id = models.CharField(max_length=200, help_text="Stable id, recorded in pair provenance.")
    form = models.CharField(max_length=200)
    lemma = models.CharField(max_length=200, blank=True)
    pos = models.CharField(max_length=50, blank=True)
    features = models.JSONField(default=dict, blank=True)  # feature -> list of canonical values

    class Meta:
        ordering = ("id",)
        constraints = [
            models.UniqueConstraint(fields=("vocabulary", "item_id"), name="lexicon_item_unique_id"),
        ]

    def __str__(self) -> str:
        return self.form


class VocabularySnapshot(BaseModel):
    """An immutable copy of a vocabulary as a dataset used it (CSV text and schema text)."""

    vocabulary = models.ForeignKey(
        Vocabulary, on_delete=models.SET_NULL, null=True, blank=True, related_name="snapshots"
    )
    name = models.CharField(max_length=100)
    language = models.CharField(max_length=35, blank=True)
    content_hash = models.CharField(max_length=64, help_text="vocab.lexicon.Vocabulary.version")
    items_text = models.TextField()
    schema_text = models.TextField(blank=True)

    class Meta:
        ordering = ("-created_at",)
        constraints = [
            models.UniqueConstraint(
                fields=("vocabulary", "content_hash"), name="lexicon_snapshot_unique_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} @ {self.content_hash[:8]}"


class VocabularyImport(BaseModel):
    """An uploaded vocabulary file that a background job reads and stores (`lexicon.import_vocabulary`).

    It keeps what was asked (format, file names, name, language, description), the uploaded files
    while the job runs (core.stored_uploads records: the table, then the schema file if any;
    removed when the job has finished with them) and the outcome: the vocabulary made, the
    converter's report (BLiMP, ZhoBLiMP), or every problem of a refused file.
    """

    class Format(models.TextChoices):
        OURS = "ours", "MPP Studio table"
        BLIMP = "blimp", "BLiMP vocabulary.csv"
        ZHOBLIMP = "zhoblimp", "ZhoBLiMP vocabulary TSV"

    project = models.ForeignKey(
        "accounts.Project", on_delete=models.CASCADE, related_name="vocabulary_imports"
    )
    job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="vocabulary_import"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    source_format = models.CharField(max_length=10, choices=Format.choices, default=Format.OURS)
    file_name = models.CharField(max_length=255)
    schema_file_name = models.CharField(max_length=255, blank=True)
    name = models.CharField(max_length=100, blank=True, help_text="The name asked for (blank: the files').")
    language = models.CharField(max_length=35, blank=True)
    description = models.TextField(blank=True)
    uploads = models.JSONField(default=list, blank=True)
    # The vocabulary this import made: set when the job begins writing it (a second run finds it
    # there), kept when done; the job removes it again if it is cancelled or gives up.
    vocabulary = models.ForeignKey(
        Vocabulary, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # vocab.import_report.ImportNote.to_dict() of each note (file, where, level, message).
    report = models.JSONField(default=list, blank=True)
    # Why the file was refused: {field, file, line, column, message} for each problem.
    problems = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"import of {self.file_name} ({self.source_format})"


class VocabularyUpdate(BaseModel):
    """An edited file offered as the next version of a vocabulary (`services.updates`).

    A job reads the file and compares it with the vocabulary by item id; the user sees what it
    adds, changes and removes, then applies it (a second job) or discards it. Applying keeps the
    vocabulary as it was as a snapshot (`before`), so no earlier version is lost, and records the
    new one (`after`). The kept files stay until the update is applied or discarded.
    """

    class Status(models.TextChoices):
        READING = "reading", "Reading the file"
        REFUSED = "refused", "Refused"
        READY = "ready", "Ready to apply"
        APPLYING = "applying", "Applying"
        APPLIED = "applied", "Applied"
        DISCARDED = "discarded", "Discarded"

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="+")
    vocabulary = models.ForeignKey(Vocabulary, on_delete=models.CASCADE, related_name="updates")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.READING)
    file_name = models.CharField(max_length=255)
    schema_file_name = models.CharField(max_length=255, blank=True)
    uploads = models.JSONField(default=list, blank=True)
    read_job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="vocabulary_update_read"
    )
    apply_job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="vocabulary_update_apply"
    )
    # vocab.lexicon.Vocabulary.version of the vocabulary the file was compared with: applying
    # refuses if the vocabulary has changed since (the preview would not say what happens).
    compared_version = models.CharField(max_length=64, blank=True)
    # Counts and the first items of each kind (services.updates.changes_summary).
    summary = models.JSONField(default=dict, blank=True)
    # Why the file was refused: {field, file, line, column, message} for each problem.
    problems = models.JSONField(default=list, blank=True)
    before = models.ForeignKey(
        VocabularySnapshot, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    after = models.ForeignKey(
        VocabularySnapshot, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"update of {self.vocabulary_id} from {self.file_name}"
