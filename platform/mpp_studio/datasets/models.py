"""Datasets: generated ones (which template and vocabulary versions they came from) and imported,
read-only ones (which files in which format, and what the import could not take), and their pairs."""

from django.conf import settings
from django.db import models

from mpp_studio.core.models import BaseModel


class Dataset(BaseModel):
    """Pairs generated from chosen paradigms with one seed and N pairs per paradigm, or imported
    from a released dataset's files (read-only: never regenerated or edited)."""

    class Unique(models.TextChoices):
        GOOD = "good", "Unique good sentences"
        BAD = "bad", "Unique bad sentences"
        PAIR = "pair", "Unique pairs"

    class Origin(models.TextChoices):
        GENERATED = "generated", "Generated"
        IMPORTED = "imported", "Imported"
        LEARNER = "learner", "Learner triplets"

    class SourceFormat(models.TextChoices):
        BLIMP = "blimp", "BLiMP JSONL"
        ZHOBLIMP = "zhoblimp", "ZhoBLiMP JSONL"
        ZORRO = "zorro", "Zorro text files"
        MIXED = "mixed", "Several formats"

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="datasets")
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    seed = models.BigIntegerField(default=0)
    pairs_per_paradigm = models.PositiveIntegerField()
    unique = models.CharField(
        max_length=4, choices=Unique.choices, blank=True, help_text="Blank: each template's own option."
    )
    # Zorro-style: leave out the words a frequency balance dropped (vocabulary feature
    # `balanced` = 0), so no model is favoured by the corpus it was trained on.
    balanced_words_only = models.BooleanField(
        default=False,
        help_text="Leave out vocabulary items marked balanced=0 by a frequency balance.",
    )
    job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="dataset"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    origin = models.CharField(max_length=10, choices=Origin.choices, default=Origin.GENERATED)
    # Imported datasets only: the format read, Zorro's line order, each file read (name, format,
    # pairs, errors, warnings) and every import issue (file, line, field, severity, message).
    source_format = models.CharField(max_length=10, choices=SourceFormat.choices, blank=True)
    zorro_order = models.CharField(max_length=10, blank=True)
    source_files = models.JSONField(default=list, blank=True)
    import_report = models.JSONField(default=list, blank=True)
    # Imported datasets, while their import job runs: the uploaded files it reads
    # (core.stored_uploads records), removed when it is done; and the format and order asked for.
    import_uploads = models.JSONField(default=list, blank=True)
    import_format = models.CharField(max_length=10, blank=True)
    # A native-speaker validation summary published by a study (written by the studies app,
    # read by the dataset card): see `exports.card.validation_section` for its keys.
    validation = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return self.name

    @property
    def is_imported(self) -> bool:
        return self.origin == self.Origin.IMPORTED

    @property
    def is_read_only(self) -> bool:
        """Imported pairs and learner triplets were read or derived, not generated: never
        regenerated or edited."""
        return self.origin in (self.Origin.IMPORTED, self.Origin.LEARNER)


class DatasetParadigm(BaseModel):
    """One paradigm of a dataset: the exact template version and vocabulary snapshot it used."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="paradigms")
    # None for an imported paradigm: its pairs were read from files, not generated.
    template_version = models.ForeignKey(
        "paradigms.TemplateVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="dataset_paradigms",
    )
    vocabulary_snapshot = models.ForeignKey(
        "lexicon.VocabularySnapshot",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="dataset_paradigms",
    )
    phrase_texts = models.JSONField(default=dict, blank=True)  # phrase name -> YAML, as used
    # The generator's hash of the parsed template with those phrases (`template_version` in each
    # record's provenance), and the generator version that made the pairs.
    template_hash = models.CharField(max_length=64, blank=True)
    generator_version = models.CharField(max_length=20, blank=True)
    uid = models.CharField(max_length=200)
    phenomenon = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=35, blank=True)
    requested = models.PositiveIntegerField()
    produced = models.PositiveIntegerField(default=0)
    # Runs started since a chunk of pairs was last stored: a run that keeps killing its worker
    # (out of memory before its first chunk) is stopped after MAX_ATTEMPTS (services.generation).
    attempts = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    # Why it failed, as Problem dicts; for a paradigm done with fewer pairs than requested
    # (`as_many_as_possible`), why it could make no more.
    problems = models.JSONField(default=list, blank=True)
    # Make as many pairs as the template can when that is fewer than requested (done, not
    # failed), instead of failing the paradigm.
    as_many_as_possible = models.BooleanField(default=False)

    class Meta:
        ordering = ("dataset", "uid")
        constraints = [
            models.UniqueConstraint(fields=("dataset", "uid"), name="datasets_paradigm_unique_uid"),
        ]

    def __str__(self) -> str:
        return f"{self.dataset} / {self.uid}"

    @property
    def is_short(self) -> bool:
        """Done with fewer pairs than requested: all the template could make."""
        return self.status == self.Status.DONE and self.produced < self.requested


class Pair(models.Model):
    """One minimal pair; `record` is the engine's JSONL record (region, provenance), or for an
    imported pair the reader's record (its provenance: the file, line and source fields)."""

    paradigm = models.ForeignKey(DatasetParadigm, on_delete=models.CASCADE, related_name="pairs")
    index = models.PositiveIntegerField()
    sentence_good = models.TextField()
    sentence_bad = models.TextField()
    record = models.JSONField()

    class Meta:
        ordering = ("paradigm", "index")
        constraints = [
            models.UniqueConstraint(fields=("paradigm", "index"), name="datasets_pair_unique_index"),
        ]

    def __str__(self) -> str:
        return self.sentence_good


class PairReview(models.Model):
    """A person's decision on one pair: flagged (kept, to look at again) or excluded (left out of
    every export, and listed by the dataset card), always with the reason (`services.curation`)."""

    class Decision(models.TextChoices):
        FLAGGED = "flagged", "Flagged"
        EXCLUDED = "excluded", "Excluded"

    pair = models.OneToOneField(Pair, on_delete=models.CASCADE, related_name="review")
    # The pair's dataset, so that a dataset's reviews are listed without a join through its pairs.
    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="reviews")
    decision = models.CharField(max_length=10, choices=Decision.choices)
    reason = models.CharField(max_length=500)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("dataset", "pair")
        indexes = [models.Index(fields=("dataset", "decision"), name="datasets_review_decision")]

    def __str__(self) -> str:
        return f"{self.decision} pair {self.pair_id}"
