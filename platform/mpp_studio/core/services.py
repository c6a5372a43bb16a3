"""Writes that belong to no single feature area."""

from django.contrib.auth import get_user_model
from django.db import transaction


@transaction.atomic
def demo_user_ensure(*, username: str, password: str) -> bool:
    """Create a superuser with this name and password unless the name is taken.

    Returns:
        True if the user was created, False if a user of that name already existed (left as is).
    """
    user_model = get_user_model()
    if user_model.objects.filter(username=username).exists():
        return False
    user_model.objects.create_superuser(username=username, email="", password=password)
    return True
