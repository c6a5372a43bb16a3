"""Learner corpora and the triplet runs made from them.

A `LearnerCorpus` is an uploaded learner corpus (an M2 file, or a parallel learner/corrected
table, with optional metadata) as the engine's readers read it: its pairs (`LearnerPairRecord`,
numbered from 0 in file order) and every issue the readers reported. The files are read by a
background job (`job`); until it has finished, the corpus keeps them on disk (`uploads`). A
`TripletRun` turns the corpus into BLiSS-style triplets with `triplets.pipeline.run_pipeline`,
chunk by chunk (`TripletChunk`); its triplets are the `Pair` rows of a read-only dataset (origin
"learner"), one paradigm per ERRANT type, so they can be browsed, exported and scored like any
dataset.
"""

from django.conf import settings
from django.db import models

from mpp_studio.core.models import BaseModel


class LearnerCorpus(BaseModel):
    """An uploaded learner corpus: where it came from, how it was read, what the readers said."""

    class SourceFormat(models.TextChoices):
        M2 = "m2", "M2 (ERRANT)"
        PARALLEL = "parallel", "Parallel table (TSV/CSV)"

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="learner_corpora")
    name = models.CharField(max_length=200)
    source_format = models.CharField(max_length=10, choices=SourceFormat.choices)
    file_name = models.CharField(max_length=255)
    metadata_file_name = models.CharField(max_length=255, blank=True)
    m2_annotator = models.PositiveSmallIntegerField(default=0, help_text="M2 only: whose edits correct.")
    # How the files were read: column names, delimiter, the metadata join key.
    read_settings = models.JSONField(default=dict, blank=True)
    # Every ImportIssue the readers reported, as dicts (file, line, field, severity, message).
    read_report = models.JSONField(default=list, blank=True)
    pair_count = models.PositiveIntegerField(default=0)
    # The job reading the files (none for corpora read inside the upload request, before jobs).
    job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="learner_corpus"
    )
    # While the job has not finished with them: the kept files (core.stored_uploads records) by
    # form field, "file" and "metadata_file"; emptied when the job is done or has failed.
    uploads = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("-created_at", "-pk")

    def __str__(self) -> str:
        return self.name

    @property
    def is_read(self) -> bool:
        """Whether the corpus's pairs are all stored: its job is done (or it never had one)."""
        return self.job is None or self.job.status == self.job.Status.DONE

    @property
    def read_failed(self) -> bool:
        """Whether its files could not be stored as a corpus (the job failed or was cancelled)."""
        return self.job is not None and self.job.finished and self.job.status != self.job.Status.DONE


class CorpusConfusions(models.Model):
    """What a corpus' learners do (`triplets.confusions.ConfusionTable.to_dict()`), counted while
    it was read: every run's artificial errors are drawn from it. A row of its own, so that
    loading a corpus never loads a table of up to a few megabytes; none for a corpus read before
    (learnt from its pairs on its first run)."""

    corpus = models.OneToOneField(
        LearnerCorpus, on_delete=models.CASCADE, primary_key=True, related_name="confusion_table"
    )
    table = models.JSONField()

    def __str__(self) -> str:
        return f"confusions of {self.corpus_id}"


class LearnerPairRecord(models.Model):
    """One learner sentence and its correction (the engine's `LearnerPair`), `index` 0-based in
    file order. `edits` holds the M2 edits (null for parallel text); `metadata` the columns the
    pair has no field for."""

    corpus = models.ForeignKey(LearnerCorpus, on_delete=models.CASCADE, related_name="pairs")
    index = models.PositiveIntegerField()
    pair_id = models.CharField(max_length=200)
    source_file = models.CharField(max_length=255)
    line = models.PositiveIntegerField()
    learner = models.TextField()
    # triplets.other_errors.sentence_key(learner): a run finds the rows of one sentence by it
    learner_key = models.CharField(max_length=40, blank=True, default="")
    corrected = models.TextField(null=True, blank=True)
    edits = models.JSONField(null=True, blank=True)
    learner_id = models.CharField(max_length=200, blank=True)
    essay_id = models.CharField(max_length=200, blank=True)
    l1 = models.CharField(max_length=100, blank=True)
    cefr = models.CharField(max_length=20, blank=True)
    topic = models.CharField(max_length=300, blank=True)
    corpus_name = models.CharField(max_length=200, blank=True)
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("corpus", "index")
        constraints = [
            models.UniqueConstraint(fields=("corpus", "index"), name="learner_pair_unique_index"),
        ]
        # A yield report names pairs by their ids: its drill-down looks them up in one corpus.
        indexes = [
            models.Index(fields=("corpus", "pair_id"), name="learner_pair_by_id"),
            # A table of single edits gives a sentence one row per edit: each chunk of a run looks
            # up the rows its sentences share with the rest of the corpus.
            models.Index(fields=("corpus", "learner_key"), name="learner_pair_by_sentence"),
        ]

    def __str__(self) -> str:
        return self.learner


class TripletRun(BaseModel):
    """A run of the triplet pipeline over a corpus: its settings, its job, the merged yield
    report and the dataset holding its triplets."""

    corpus = models.ForeignKey(LearnerCorpus, on_delete=models.CASCADE, related_name="runs")
    seed = models.BigIntegerField(default=0)
    strict = models.BooleanField(default=True)
    max_tries = models.PositiveIntegerField(default=20)
    chunk_size = models.PositiveIntegerField(default=500)
    job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="triplet_run"
    )
    report = models.JSONField(default=dict, blank=True)  # YieldReport.to_dict() of all chunks
    dataset = models.OneToOneField(
        "datasets.Dataset", on_delete=models.SET_NULL, null=True, blank=True, related_name="triplet_run"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("-created_at", "-pk")

    def __str__(self) -> str:
        return f"{self.corpus} · seed {self.seed}"

    @property
    def triplet_total(self) -> int | None:
        """Return the triplets the finished run made (None while it runs)."""
        counts = (self.report or {}).get("triplets")
        return sum(int(n) for n in counts.values()) if isinstance(counts, dict) else None


class TripletChunk(models.Model):
    """One task's share of a run: the corpus pairs `first_index`..`last_index` (inclusive)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"

    run = models.ForeignKey(TripletRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    first_index = models.PositiveIntegerField()
    last_index = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    report = models.JSONField(default=dict, blank=True)
    # Starts of the chunk: one that keeps killing its worker fails the run instead of looping.
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ("run", "index")
        constraints = [
            models.UniqueConstraint(fields=("run", "index"), name="learner_chunk_unique_index"),
        ]

    def __str__(self) -> str:
        return f"{self.run_id} #{self.index}"
