"""Login lockout: after MPP_LOGIN_LOCKOUT_FAILURES failed sign-ins for one user name from one
client (its address prefix, hashed), that pair is refused for MPP_LOGIN_LOCKOUT_SECONDS, even
with the right password; a successful sign-in clears the count.

Why not django-axes: it keeps attempts (with raw IP addresses) in database tables by default, and
its models would ship `ip_address` columns even when unused. This is a few cache entries keyed
by an HMAC of (user name, address prefix) with the secret key, expiring with the cool-off; no
address, user name or attempt ever reaches the database.

The check sits in the authentication backend, so every path that calls `authenticate()` is
covered: the sign-in page, `POST /api/token/` and the admin's sign-in. Unknown user names count
and lock exactly like real ones, so the answer never tells whether a user name exists.
"""

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from mpp_studio.core import ratelimit

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LockoutPolicy:
    """How many failures lock a user name (per client) and for how many seconds."""

    failures: int
    seconds: int


def policy() -> LockoutPolicy:
    """Return the lockout policy from the settings (failures 0: lockout off)."""
    return LockoutPolicy(
        failures=int(getattr(settings, "MPP_LOGIN_LOCKOUT_FAILURES", 5)),
        seconds=int(getattr(settings, "MPP_LOGIN_LOCKOUT_SECONDS", 15 * 60)),
    )


def _subject(username: str, request: HttpRequest | None) -> str:
    # Case-folded: "Alice" and "alice" are one count, whatever the user model does.
    name = (username or "").strip().casefold()
    address = ratelimit.client_key(request) if request is not None else ""
    return ratelimit.secret_hash("login", name, address)


def _failures_key(subject: str) -> str:
    return f"lockout:failures:{subject}"


def _until_key(subject: str) -> str:
    return f"lockout:until:{subject}"


def locked_for(username: str, request: HttpRequest | None) -> int:
    """Return the seconds this user name (from this client) stays locked, 0 when it is not."""
    try:
        until = cache.get(_until_key(_subject(username, request)))
    except ratelimit.CACHE_ERRORS as exc:  # fail open: sign-in works while Redis is down
        logger.warning("sign-in lockout not checked: the cache is unreachable (%s)", exc)
        return 0
    if until is None:
        return 0
    remaining = float(until) - ratelimit.now()
    return max(1, int(remaining + 0.999)) if remaining > 0 else 0


def record_failure(username: str, request: HttpRequest | None) -> int:
    """Count one failed sign-in; return the seconds locked when this one reached the limit, else 0."""
    rules = policy()
    if rules.failures <= 0:
        return 0
    subject = _subject(username, request)
    key = _failures_key(subject)
    try:
        # Failures older than the cool-off are forgotten: the count lives that long after the last.
        cache.add(key, 0, timeout=rules.seconds)
        try:
            count = cache.incr(key)
        except ValueError:
            cache.set(key, 1, timeout=rules.seconds)
            count = 1
        cache.touch(key, timeout=rules.seconds)
        if count < rules.failures:
            return 0
        cache.set(_until_key(subject), ratelimit.now() + rules.seconds, timeout=rules.seconds + 5)
        cache.delete(key)
    except ratelimit.CACHE_ERRORS as exc:
        logger.warning("failed sign-in not counted: the cache is unreachable (%s)", exc)
        return 0
    return rules.seconds


def record_success(username: str, request: HttpRequest | None) -> None:
    """Forget the failed sign-ins of this user name from this client."""
    try:
        cache.delete(_failures_key(_subject(username, request)))
    except ratelimit.CACHE_ERRORS as exc:
        logger.warning("failed sign-ins not cleared: the cache is unreachable (%s)", exc)


def lockout_message(seconds: int) -> str:
    """Return the plain-words message shown while sign-in is locked (the same for every user name)."""
    return (
        "Too many failed sign-ins with this user name. Signing in is paused for "
        f"{ratelimit.wait_words(seconds)}; please try again after that. If you have forgotten your "
        "password, ask the person who runs this MPP Studio to reset it."
    )


class LockoutBackend(ModelBackend):
    """Django's model backend behind the lockout: a locked user name is refused (even with the
    right password), a failure is counted, a success clears the count."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        """Return the user when the password is right and the user name is not locked; None
        otherwise (PermissionDenied, which stops every backend, while it is locked)."""
        if username is None:
            username = str(kwargs.get(self._username_field(), "") or "")
        if locked_for(username, request):
            raise PermissionDenied("sign-in locked")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            record_failure(username, request)
        else:
            record_success(username, request)
        return user

    @staticmethod
    def _username_field() -> str:
        from django.contrib.auth import get_user_model

        return str(get_user_model().USERNAME_FIELD)
