"""Project roles and what each may do: viewers read, editors change content, owners manage members."""

from django.db import models


class Role(models.TextChoices):
    VIEWER = "viewer", "Viewer"
    EDITOR = "editor", "Editor"
    OWNER = "owner", "Owner"


RANK = {Role.VIEWER: 1, Role.EDITOR: 2, Role.OWNER: 3}


def role_allows(role: str | None, needed: str) -> bool:
    """Return whether a member with `role` (None: not a member) may do what `needed` requires."""
    return role is not None and RANK[Role(role)] >= RANK[Role(needed)]
