"""Who a request acts for, typed: `request.user` is a `User` or the `AnonymousUser`, and the views
that require signing in narrow it once, here, before handing it to the services that record who
did what."""

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from rest_framework.request import Request

# A request's user: signed in, or the anonymous user of a page open to anyone. Services that
# record who started something take it (or None, for commands and tasks) and keep only a
# signed-in user.
RequestUser = User | AnonymousUser


def signed_in_user(request: HttpRequest | Request) -> User:
    """Return the request's signed-in user, on a page or API endpoint that requires signing in.

    Raises:
        PermissionDenied: if no one is signed in; `login_required` and the API's permission
            classes turn such requests away before the view runs, so this never happens there.
    """
    user = request.user
    if not user.is_authenticated:
        raise PermissionDenied("This needs a signed-in user.")
    return user


def signed_in_or_none(user: RequestUser | None) -> User | None:
    """Return `user` when signed in; None for the anonymous user and for no user at all."""
    return user if user is not None and user.is_authenticated else None
