"""Model evaluation: the language models a project registers, the scorer configurations they are
run with, per-sentence scores (stored once per configuration and sentence), and scoring runs.

Every metric is computed from stored `SentenceScore` rows (see results.py): a new metric or a
new reduction never needs the model again.
"""

from collections.abc import Collection

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q

from mpp_studio.core.models import BaseModel
from scoring.linking import LinkingError, parse_linking

# scoring.metrics.DEFAULT_TIE_TOLERANCE (a test keeps them equal): the models module stays free
# of numpy and scipy, which the metrics import.
DEFAULT_TIE_TOLERANCE = 1e-6


class LanguageModel(BaseModel):
    """A model a project scores with: a hub id or a local folder (one checkpoint of a series
    carries the series name and its training step), or the unigram frequency baseline."""

    class Kind(models.TextChoices):
        CAUSAL = "causal", "Causal LM"
        MASKED = "masked", "Masked LM"
        UNIGRAM = "unigram", "Unigram frequency baseline"

    # The scoring methods each kind can be run with; the first is the default.
    METHODS: dict[str, tuple[str, ...]] = {
        Kind.CAUSAL: ("causal",),
        Kind.MASKED: ("pll_word_l2r", "pll", "holistic"),
        Kind.UNIGRAM: ("unigram",),
    }

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="language_models")
    name = models.CharField(max_length=200)
    source = models.CharField(
        max_length=1000,
        blank=True,
        help_text="A Hugging Face model id or a local folder (blank for unigram).",
    )
    revision = models.CharField(max_length=200, blank=True, help_text="Hub branch, tag or commit.")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CAUSAL)
    language = models.CharField(
        max_length=35,
        default="en",
        help_text="Picks the unigram word list, and how sentences without recorded words are split.",
    )
    series = models.CharField(max_length=200, blank=True, help_text="A checkpoint series (learning curves).")
    step = models.BigIntegerField(null=True, blank=True, help_text="The training step of this checkpoint.")
    notes = models.TextField(blank=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("series", "step", "name")
        constraints = [
            models.UniqueConstraint(fields=("project", "name"), name="evaluation_model_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def methods(self) -> tuple[str, ...]:
        """Return the scoring methods this model can be run with (the default first)."""
        return self.METHODS[self.kind]

    @property
    def default_method(self) -> str:
        return self.methods[0]

    def scores_languages(self, languages: Collection[str]) -> bool:
        """Whether this model scores a dataset in `languages`: a unigram baseline only its own
        language's (its word list is of one language); any other model every language. A
        dataset whose languages are unknown (none recorded) takes any model."""
        return self.kind != self.Kind.UNIGRAM or not languages or self.language in languages

    def scores_paradigm(self, language: str) -> bool:
        """Whether this model scores a paradigm in `language` (a unigram baseline only its own
        language's; a paradigm of no recorded language takes any model): in a dataset of two
        languages, each baseline scores its own language's paradigms."""
        return self.scores_languages([language] if language else [])

    @classmethod
    def scores_languages_q(cls, languages: Collection[str], prefix: str = "") -> Q:
        """The query form of `scores_languages`, for the models at `prefix` (e.g.
        "language_model__")."""
        if not languages:
            return Q()
        return ~Q(**{f"{prefix}kind": cls.Kind.UNIGRAM}) | Q(**{f"{prefix}language__in": list(languages)})


class ScoreConfig(BaseModel):
    """A language model with a scorer configuration (the engine's `ScorerSettings` as stored).

    `source`, `revision` and `fingerprint` are copied from the model when the configuration is
    made, so editing the model later makes a new configuration rather than relabelling old
    scores. `settings_key` is `ScorerSettings.key()`; `describe` is the scorer's own account
    (tokenizer, BOS policy, library versions), filled when a worker first loads it.
    """

    class Method(models.TextChoices):
        CAUSAL = "causal", "Causal log-probability"
        PLL_WORD_L2R = "pll_word_l2r", "Pseudo-log-likelihood (whole words masked left to right)"
        PLL = "pll", "Pseudo-log-likelihood (one token masked at a time)"
        HOLISTIC = "holistic", "Holistic (unmasked sentence)"
        UNIGRAM = "unigram", "Unigram word frequency"

    class DType(models.TextChoices):
        FLOAT32 = "float32", "float32"
        BFLOAT16 = "bfloat16", "bfloat16"
        FLOAT16 = "float16", "float16"

    language_model = models.ForeignKey(LanguageModel, on_delete=models.CASCADE, related_name="score_configs")
    method = models.CharField(max_length=20, choices=Method.choices)
    dtype = models.CharField(max_length=10, choices=DType.choices, default=DType.FLOAT32)
    score_eos = models.BooleanField(default=False)
    source = models.CharField(max_length=1000, blank=True)
    revision = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=35, default="en")
    fingerprint = models.CharField(max_length=64, blank=True)
    settings_key = models.CharField(max_length=64)
    scoring_version = models.CharField(max_length=20)
    describe = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("language_model__name", "method", "dtype", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=("language_model", "settings_key"), name="evaluation_config_unique_key"
            ),
        ]
        indexes = [models.Index(fields=("settings_key",), name="evaluation_config_key")]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """Return "model · method · dtype" (with "+EOS" when the end of sentence is scored)."""
        eos = " · +EOS" if self.score_eos else ""
        return f"{self.language_model.name} · {self.method} · {self.dtype}{eos}"


class SentenceScore(models.Model):
    """One sentence's per-token scores under one configuration (`scoring.SentenceScore.to_dict()`).

    `sentence_key` is the SHA-256 of the text and the word spans it was scored with
    (`evaluation.services.sentences.sentence_key`); the same sentence in several pairs, paradigms or
    datasets is scored and stored once. `lp_sum`, `lp_mean` and `n_tokens` are copied out of
    `data` so that accuracies are computed without reading the token vectors.
    """

    config = models.ForeignKey(ScoreConfig, on_delete=models.CASCADE, related_name="scores")
    sentence_key = models.CharField(max_length=64)
    text = models.TextField()
    data = models.JSONField()
    n_tokens = models.PositiveIntegerField()
    lp_sum = models.FloatField()
    lp_mean = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=("config", "sentence_key"), name="evaluation_score_unique_sentence"
            ),
        ]

    def __str__(self) -> str:
        return self.text


class ScoringRun(BaseModel):
    """A scoring job: every configuration on every dataset, chunk by chunk.

    `reduction` (a linking function's key, `scoring.linking`: `sum`, `slln:alpha=0.5`, ...) and
    `tie_tolerance` are the defaults its results are shown with (any other is a query away, the
    scores being stored). `settings` holds what changes speed, never numbers:
    `device`, `token_budget` and `chunk_size` (sentences per task).
    """

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="scoring_runs")
    name = models.CharField(max_length=200)
    job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="scoring_run"
    )
    datasets = models.ManyToManyField("datasets.Dataset", related_name="scoring_runs")
    configs = models.ManyToManyField(ScoreConfig, related_name="runs")
    reduction = models.CharField(max_length=100, default="sum")
    tie_tolerance = models.FloatField(default=DEFAULT_TIE_TOLERANCE)
    settings = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("-created_at", "-pk")

    def __str__(self) -> str:
        return self.name

    @property
    def linking_label(self) -> str:
        """The default linking function for a page (`SLLN-LP (alpha 0.5)`), or the stored key
        as written when it cannot be read."""
        try:
            return parse_linking(self.reduction).label
        except LinkingError:
            return self.reduction


class ScoringChunk(models.Model):
    """One task's share of a run: up to `chunk_size` sentences of one dataset for one
    configuration. `ranges` lists `[paradigm_id, first_index, last_index]` (pair indexes,
    inclusive) in the dataset's order (paradigm uid, pair index); `n_sentences` counts the
    sentence slots (two per pair, three per triplet, before deduplication) for progress.
    `attempts` counts the starts, so a chunk that keeps killing its worker fails instead of looping."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    run = models.ForeignKey(ScoringRun, on_delete=models.CASCADE, related_name="chunks")
    config = models.ForeignKey(ScoreConfig, on_delete=models.CASCADE, related_name="+")
    dataset = models.ForeignKey("datasets.Dataset", on_delete=models.CASCADE, related_name="+")
    index = models.PositiveIntegerField()
    ranges = models.JSONField()
    n_sentences = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    scored = models.PositiveIntegerField(default=0, help_text="Sentences this chunk scored anew.")
    message = models.TextField(blank=True)

    class Meta:
        ordering = ("run", "config", "dataset", "index")
        constraints = [
            models.UniqueConstraint(
                fields=("run", "config", "dataset", "index"), name="evaluation_chunk_unique_index"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.run} / {self.config_id} / {self.dataset_id} #{self.index}"


class PairKey(models.Model):
    """The sentence keys of one stored pair (`services.sentences.sentence_key` of its good and
    bad sentence with their word spans, and of a BLiSS triplet's artificial sentence; null for
    a minimal pair), recorded by the chunk that scored it, so that results join pairs to scores
    without re-reading every record and hashing every sentence."""

    pair = models.OneToOneField(
        "datasets.Pair", on_delete=models.CASCADE, primary_key=True, related_name="sentence_keys"
    )
    dataset = models.ForeignKey("datasets.Dataset", on_delete=models.CASCADE, related_name="+")
    good_key = models.CharField(max_length=64)
    bad_key = models.CharField(max_length=64)
    artificial_key = models.CharField(max_length=64, null=True, blank=True)  # null: no third sentence

    def __str__(self) -> str:
        return f"{self.pair_id}: {self.good_key[:8]} / {self.bad_key[:8]}"


class PairScore(models.Model):
    """A pair's two sentence scores under one configuration (`lp_sum`, `lp_mean` and `n_tokens`
    of each stored `SentenceScore`), recorded by the chunk that scored the pair.

    A dataset's results are these rows: the database counts each paradigm's wins and ties under
    any linking function and tie tolerance, and an item page reads its own rows, however many pairs
    the dataset holds. `paradigm` and `index` are the pair's, copied so that a paradigm's rows
    are read in order by one index."""

    config = models.ForeignKey(ScoreConfig, on_delete=models.CASCADE, related_name="+")
    pair = models.ForeignKey("datasets.Pair", on_delete=models.CASCADE, related_name="+")
    paradigm = models.ForeignKey("datasets.DatasetParadigm", on_delete=models.CASCADE, related_name="+")
    index = models.PositiveIntegerField()
    good_sum = models.FloatField()
    good_mean = models.FloatField()
    good_tokens = models.PositiveIntegerField()
    bad_sum = models.FloatField()
    bad_mean = models.FloatField()
    bad_tokens = models.PositiveIntegerField()
    # Each sentence's unigram log-probability under the configuration's tokenizer (SLOR and
    # MORCELA): filled from the project's TokenFrequencyTable of that tokenizer; null without.
    good_unigram = models.FloatField(null=True, blank=True)
    bad_unigram = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("config", "pair"), name="evaluation_pair_score_unique"),
        ]
        indexes = [
            models.Index(fields=("config", "paradigm", "index"), name="evaluation_pair_score_order"),
        ]

    def __str__(self) -> str:
        return f"{self.config_id} / {self.pair_id}"


class TokenFrequencyTable(BaseModel):
    """A tokenizer's token unigram frequencies in a project (the U of SLOR and MORCELA), counted
    from a text the user gave or read from a counts file in ZhoBLiMP's layout, with the
    tokenizer of `language_model`. Stored once per tokenizer (`tokenizer_key`, the hash of its
    vocabulary, filled by the job), so every model that shares it (a series' checkpoints) uses
    them. `frequencies` maps token id (text) to relative frequency."""

    class Origin(models.TextChoices):
        TEXT = "text", "Counted from a text"
        ZHOBLIMP = "zhoblimp", "A counts file in ZhoBLiMP's layout (JSON: token id to frequency)"

    project = models.ForeignKey(
        "accounts.Project", on_delete=models.CASCADE, related_name="token_frequencies"
    )
    language_model = models.ForeignKey(
        LanguageModel, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    tokenizer_source = models.CharField(max_length=1000)
    tokenizer_revision = models.CharField(max_length=200, blank=True)
    tokenizer_key = models.CharField(max_length=64, blank=True)
    origin = models.CharField(max_length=10, choices=Origin.choices)
    file_name = models.CharField(max_length=255)
    upload = models.JSONField(default=dict, blank=True)  # the kept file (core.stored_uploads)
    frequencies = models.JSONField(default=dict, blank=True)
    n_tokens = models.BigIntegerField(null=True, blank=True, help_text="Tokens counted (a text).")
    job = models.OneToOneField(
        "jobs.Job", on_delete=models.SET_NULL, null=True, blank=True, related_name="token_frequencies"
    )
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("-created_at", "-pk")
        constraints = [
            models.UniqueConstraint(
                fields=("project", "tokenizer_key"),
                condition=~Q(tokenizer_key=""),
                name="evaluation_frequencies_one_per_tokenizer",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tokenizer_source}: {self.file_name}"

    @property
    def ready(self) -> bool:
        """Whether the frequencies are stored (the job has finished)."""
        return bool(self.tokenizer_key and self.frequencies)
