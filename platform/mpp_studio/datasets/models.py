"""Generated datasets: which template and vocabulary versions they came from, and their pairs."""

from django.conf import settings
from django.db import models

from mpp_studio.core.models import BaseModel


class Dataset(BaseModel):
    """Pairs generated from chosen paradigms with one seed and N pairs per paradigm."""

    class Unique(models.TextChoices):
        GOOD = "good", "Unique good sentences"
        BAD = "bad", "Unique bad sentences"
        PAIR = "pair", "Unique pairs"

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="datasets")
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    seed = models.BigIntegerField(default=0)
    pairs_per_paradigm = models.PositiveIntegerField()
    unique = models.CharField(
        max_length=4, choices=Unique.choices, blank=True, help_text="Blank: each template's own option."
    )
    job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="dataset"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return self.name


class DatasetParadigm(BaseModel):
    """One paradigm of a dataset: the exact template version and vocabulary snapshot it used."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="paradigms")
    template_version = models.ForeignKey(
        "paradigms.TemplateVersion", on_delete=models.PROTECT, related_name="dataset_paradigms"
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
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    problems = models.JSONField(default=list, blank=True)  # why it failed, as Problem dicts

    class Meta:
        ordering = ("dataset", "uid")
        constraints = [
            models.UniqueConstraint(fields=("dataset", "uid"), name="datasets_paradigm_unique_uid"),
        ]

    def __str__(self) -> str:
        return f"{self.dataset} / {self.uid}"


class Pair(models.Model):
    """One generated minimal pair; `record` is the engine's JSONL record (region, provenance)."""

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
