"""Native-speaker validation studies: the study a researcher builds from datasets, each
participant's participation, and every answer they give.

- `Study`: settings (`DesignSettings` fields, task, language, texts), the engine's frozen
  `StudyDesign` (`design`, `StudyDesign.to_dict()`), its public link (`slug`) and status.
- `Participation`: one participant's session: their list, their trial schedule (the engine's
  `ParticipantSchedule.to_dict()`, gold answers included: it never leaves the server), consent
  and timestamps. Participants are identified by `token_id` (random, also the engine's
  participant id) and, when they come from Prolific, by `pid_hash` (an HMAC of the PID with a
  server secret, one participation per PID and study). The raw PID is never stored: a
  researcher reconciles payments by pasting Prolific's IDs, which are hashed the same way
  (`services.prolific_reconciliation`).
- `Response`: one answer to one trial, unique per (participation, trial_index), so a resent
  answer changes nothing.

No IP address and no user agent is stored anywhere.
"""

import secrets

from django.conf import settings
from django.db import models

from mpp_studio.core.models import BaseModel


def new_slug() -> str:
    """Return a random, unguessable public slug (22 URL-safe characters, 128 bits)."""
    return secrets.token_urlsafe(16)


def new_token_id() -> str:
    """Return a random participant id (32 hex characters)."""
    return secrets.token_hex(16)


def new_completion_code() -> str:
    """Return a random completion code (8 upper-case letters and digits)."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


def new_seed() -> int:
    """Return a random study seed (positive, fits a signed 64-bit column)."""
    return secrets.randbelow(2**31)


class Study(BaseModel):
    """A validation study: built from one or more datasets of the project (pairs or learner
    triplets), designed by `study.design.build_design`, answered on a public link.

    Settings that make the design: `seed`, `items_per_paradigm` (k), `n_lists`,
    `target_responses` (per item), `replication` (lists per item), `catch_per_list`,
    `practice_items` (drawn from items the sample left out, shown first with feedback),
    `catch_pairs` (hand-written catch trials, "good | bad" a line), `task` and `confidence`.
    `design_settings` is the `DesignSettings.to_dict()` the design was built with and
    `design` the `StudyDesign.to_dict()`; both are rebuilt on every settings change
    while the study is a draft and frozen once it opens.

    Item ids in the design are `str(Pair.pk)` of the dataset pair (or triplet) they come from;
    paradigm names are the datasets' paradigm uids (for triplets: the ERRANT error type).
    """

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    class Task(models.TextChoices):
        # Triplets give one 2AFC trial per comparison (or a ranking). A rating study shows one
        # sentence at a time, a pair's good and bad sentence in different lists.
        TWO_AFC = "2afc", "Which sounds more natural (two sentences)"
        RANK3 = "rank3", "Rank three sentences (learner triplets only)"
        RATING = "rating", "Rate one sentence on a scale (acceptability rating; pairs only)"
        MAGNITUDE = "magnitude", "Magnitude estimation against a reference sentence (pairs only)"

    class Language(models.TextChoices):
        EN = "en", "English"
        ZH = "zh", "Chinese (中文)"

    project = models.ForeignKey("accounts.Project", on_delete=models.CASCADE, related_name="studies")
    name = models.CharField(max_length=200)
    datasets = models.ManyToManyField("datasets.Dataset", related_name="studies")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)

    # What the design is made from (DesignSettings).
    seed = models.BigIntegerField(default=new_seed)
    items_per_paradigm = models.PositiveIntegerField(default=5)
    n_lists = models.PositiveIntegerField(default=2)
    target_responses = models.PositiveIntegerField(default=10)
    replication = models.PositiveIntegerField(default=1)
    catch_per_list = models.PositiveIntegerField(default=2)
    practice_items = models.PositiveIntegerField(default=0)
    # Hand-written catch trials, one "good | bad" pair a line (used before generated scrambles).
    catch_pairs = models.TextField(blank=True)
    # Filler items, "good | bad" a line: in every list, mixed with the items, never analysed.
    filler_pairs = models.TextField(blank=True)
    task = models.CharField(max_length=10, choices=Task.choices, default=Task.TWO_AFC)
    confidence = models.BooleanField(default=False)
    # Acceptability ratings: the points of the Likert scale and its labels (one a line: two for
    # the ends, or one per point; empty: the language's defaults), or magnitude estimation's
    # reference sentence and the number it is worth.
    scale_points = models.PositiveSmallIntegerField(default=7)
    scale_labels = models.TextField(blank=True)
    reference_sentence = models.TextField(blank=True)
    reference_value = models.PositiveIntegerField(default=100)
    design_settings = models.JSONField(default=dict, blank=True)  # DesignSettings.to_dict()
    design = models.JSONField(default=dict, blank=True)  # StudyDesign.to_dict(); {} until built

    # What participants see.
    language = models.CharField(max_length=5, choices=Language.choices, default=Language.EN)
    instructions = models.TextField(blank=True)
    consent_text = models.TextField(blank=True)
    consent_version = models.CharField(max_length=50, default="1")

    # Running it.
    lease_ttl_minutes = models.PositiveIntegerField(default=60)
    # Participants each list takes (None: the design's target responses / replication); once
    # every list has that many completed, the study closes itself.
    quota_per_list = models.PositiveIntegerField(null=True, blank=True)
    completion_code = models.CharField(max_length=100, default=new_completion_code)
    prolific_completion_url = models.URLField(max_length=500, blank=True)
    prolific_study_id = models.CharField(
        max_length=100, blank=True, help_text="When set, a participant's STUDY_ID must equal it."
    )
    slug = models.CharField(max_length=64, unique=True, default=new_slug)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    # Analysis (studies.analysis_rules, studies.report): the researcher's exclusion and flag rules
    # (`AnalysisRules` fields; {} means the defaults), and for a re-validation of flagged
    # paradigms the study it follows up and the paradigm uids its items were restricted to.
    analysis_rules = models.JSONField(default=dict, blank=True)
    revalidation_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="revalidations"
    )
    paradigm_filter = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name_plural = "studies"

    def __str__(self) -> str:
        return self.name

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def has_design(self) -> bool:
        """Return True once a design has been built (and stored in `design`)."""
        return bool(self.design)


class Participation(models.Model):
    """One participant's session in a study.

    `token_id` is the participant's random id: the engine's participant id (their `seed` and
    trial order derive from it), the key of analyses and exports, and part of their signed
    token. `pid_hash` is HMAC-SHA256(server secret, PROLIFIC_PID) (null without a PID), unique
    per study; `session_hash` the HMAC of the SESSION_ID it started with (Prolific's one
    submission): a PID may resume from another browser only with that same session.
    `study_id_param` is the STUDY_ID the participant arrived with (the study's, not theirs).

    `schedule` is `ParticipantSchedule.to_dict()` (its `seed` is the participant's seed): every
    trial with its gold answer, paradigm and kind; only `Trial.public_view()` is ever sent to the browser.

    Status: `active` while working (its lease counts for its list until `lease_started_at` +
    the study's TTL), `completed` once the last trial is saved, `abandoned` when the lease
    expired without completion (its slot goes to the next participant; returning renews the
    lease and makes it active again), `withdrawn` when the participant withdrew (their
    responses are deleted).
    """

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        COMPLETED = "completed", "Completed"
        ABANDONED = "abandoned", "Abandoned"
        WITHDRAWN = "withdrawn", "Withdrawn"

    study = models.ForeignKey(Study, on_delete=models.CASCADE, related_name="participations")
    list_index = models.PositiveIntegerField()  # 0-based list of the design
    token_id = models.CharField(max_length=64, unique=True, default=new_token_id)
    pid_hash = models.CharField(max_length=64, null=True, blank=True)
    session_hash = models.CharField(max_length=64, blank=True)
    study_id_param = models.CharField(max_length=100, blank=True)
    schedule = models.JSONField()
    trial_count = models.PositiveIntegerField()
    consent_version = models.CharField(max_length=50)
    consented_at = models.DateTimeField()
    started_at = models.DateTimeField()
    lease_started_at = models.DateTimeField()
    last_seen_at = models.DateTimeField()
    completed_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)

    class Meta:
        ordering = ("study", "started_at", "pk")
        constraints = [
            models.UniqueConstraint(fields=("study", "pid_hash"), name="studies_one_participation_per_pid"),
        ]
        indexes = [models.Index(fields=("study", "status"))]

    def __str__(self) -> str:
        return f"{self.study_id} · {self.token_id[:8]}"

    @property
    def seed(self) -> int:
        """Return the seed the trial order was drawn with (stored in `schedule`: it is an
        unsigned 64-bit number, wider than a database integer column)."""
        return int((self.schedule or {}).get("seed", 0))


class Response(models.Model):
    """One answer: to trial `trial_index` of the participation's schedule.

    `choice` is the displayed index (0 = left/top) of the sentence chosen; for a rank3 trial
    it is the first of `ranking` (the displayed indices, best first; empty for 2AFC); None for
    a rating or magnitude trial, whose answer is `rating` (the scale point, or the number).
    `confidence` is 1..3 when the study asks for it. `rt_ms` is the client's response time
    (from the trial being shown to the answer), `received_at` the server's clock.

    Copied from the schedule when saved, for queries: `item_id` (the Pair pk, or a catch id
    such as "catch-1-2"), `comparison` (a triplet's pairwise trial: "corrected-learner",
    "learner-artificial" or "corrected-artificial"; "" otherwise: the analysis key of a trial
    is `item_id`, or `item_id#comparison` when it has one), `trial_kind` (experimental,
    catch, practice, filler) and `correct` (the answer equals the gold answer: the gold index
    for 2AFC, the gold ranking for rank3; for a "learner-artificial" comparison the expected
    answer is the learner sentence, BLiSS's hypothesis, not a grammaticality label; for a
    rating, it is on the side of the midpoint its sentence is expected at,
    `study.rating_scale.rating_agrees`).
    Everything else about the trial (sentences as shown, roles, paradigm, phenomenon) is
    `participation.schedule["trials"][trial_index]`.
    """

    participation = models.ForeignKey(Participation, on_delete=models.CASCADE, related_name="responses")
    trial_index = models.PositiveIntegerField()
    item_id = models.CharField(max_length=200)
    comparison = models.CharField(max_length=40, blank=True)
    trial_kind = models.CharField(max_length=20)
    choice = models.PositiveSmallIntegerField(null=True, blank=True)
    ranking = models.JSONField(default=list, blank=True)
    rating = models.FloatField(null=True, blank=True)
    confidence = models.PositiveSmallIntegerField(null=True, blank=True)
    correct = models.BooleanField()
    rt_ms = models.PositiveIntegerField(null=True, blank=True)
    received_at = models.DateTimeField()

    class Meta:
        ordering = ("participation", "trial_index")
        constraints = [
            models.UniqueConstraint(
                fields=("participation", "trial_index"), name="studies_one_response_per_trial"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participation_id} #{self.trial_index}"
