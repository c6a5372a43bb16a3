"""Background jobs: status, progress and the reason of a failure live on a database row."""

from django.conf import settings
from django.db import models

from mpp_studio.accounts.models import Project
from mpp_studio.core.models import BaseModel


class Job(BaseModel):
    """One unit of background work (a dataset generation, later scoring), as the user sees it."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    FINISHED = (Status.DONE, Status.FAILED, Status.CANCELLED)

    class ProgressUnit(models.TextChoices):
        COUNT = "count", "Units of work (pairs, items; the page names them)"
        # Not bytes: progress_total is a PositiveIntegerField, and a 2 GiB import would overflow it.
        KIB = "kib", "KiB of the files read"

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=50, help_text="What the job does, e.g. dataset_generate.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    progress_unit = models.CharField(
        max_length=5,
        choices=ProgressUnit.choices,
        default=ProgressUnit.COUNT,
        help_text="What progress_done and progress_total count.",
    )
    message = models.TextField(blank=True, help_text="What the job is doing now, or why it failed.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"

    @property
    def percent(self) -> int:
        """Return progress as a whole percentage (0 when the total is not known yet)."""
        if not self.progress_total:
            return 100 if self.status == self.Status.DONE else 0
        return min(100, round(100 * self.progress_done / self.progress_total))

    @property
    def finished(self) -> bool:
        return self.status in self.FINISHED


class UnsentMessage(BaseModel):
    """A task message the broker could not take when it was sent (Redis down), kept until
    `jobs.queueing.requeue_unsent` sends it."""

    task = models.CharField(max_length=200, help_text="The task's registered name.")
    args = models.JSONField(default=list)
    kwargs = models.JSONField(default=dict)
    options = models.JSONField(default=dict, help_text="apply_async options, e.g. the queue.")
    error = models.TextField(blank=True, help_text="Why the broker did not take it.")

    class Meta:
        ordering = ("pk",)

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)!r} (unsent)"
