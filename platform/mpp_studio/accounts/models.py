"""Projects (workspaces), their members with roles, and invitations to join them."""

import secrets

from django.conf import settings
from django.db import models

from mpp_studio.accounts.roles import Role
from mpp_studio.core.models import BaseModel


class Project(BaseModel):
    """A workspace: its vocabularies, templates, phrases and datasets are visible to members only."""

    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ("name", "id")

    def __str__(self) -> str:
        return self.name


class Membership(BaseModel):
    """A user's role in one project."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)

    class Meta:
        ordering = ("project", "user__username")
        constraints = [
            models.UniqueConstraint(fields=("project", "user"), name="accounts_membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.project} ({self.role})"


def _new_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(BaseModel):
    """A link that makes whoever signs in with it a member with `role`; used once.

    Open while neither `accepted_at` nor `revoked_at` is set. Revoking keeps the row, so someone
    who follows a revoked link is told so rather than finding nothing.
    """

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    token = models.CharField(max_length=64, unique=True, default=_new_token, editable=False)
    note = models.CharField(max_length=200, blank=True, help_text="Who the link is for.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"invitation to {self.project} as {self.role}"

    @property
    def is_open(self) -> bool:
        """Whether the link can still be accepted (neither used nor revoked)."""
        return self.accepted_at is None and self.revoked_at is None
