"""Sign-in lockout and the sign-in rate limit, on the sign-in page and `POST /api/token/`: locked
after N failures (even with the right password), a message in plain words that does not tell
whether the user name exists, the cool-off ends (time frozen by patching the one clock), a success
clears the count, and nothing about attempts or addresses reaches the database."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.db import models
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from mpp_studio.accounts.lockout import policy
from mpp_studio.core import ratelimit
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ADDRESS = "203.0.113.77"


class Clock:
    """A frozen clock that tests move by hand."""

    def __init__(self) -> None:
        self.moment = 1_800_000_000.0

    def __call__(self) -> float:
        return self.moment


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    frozen = Clock()
    monkeypatch.setattr(ratelimit, "now", frozen)
    yield frozen


def sign_in(client: Client, username: str, password: str) -> Any:
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ADDRESS)


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_locked_after_n_failures_even_with_the_right_password(owner: Any, clock: Clock) -> None:
    client = Client()
    failures = policy().failures
    assert failures == 5
    for _ in range(failures - 1):
        response = sign_in(client, "olga", "wrong")
        assert response.status_code == 200
        assert "do not match" in response.content.decode()
    locked = sign_in(client, "olga", "wrong")
    assert locked.status_code == 429
    assert locked["Retry-After"] == str(15 * 60)
    text = locked.content.decode()
    assert "Too many failed sign-ins" in text
    assert "15 minutes" in text
    # The right password during the cool-off is refused too.
    refused = sign_in(client, "olga", PASSWORD)
    assert refused.status_code == 429
    assert not signed_in(client)
    # Another client (another address) is not locked out of the same account.
    other = Client()
    assert other.post(reverse("login"), {"username": "olga", "password": PASSWORD}).status_code == 302


def test_an_unknown_user_name_is_answered_exactly_like_a_real_one(owner: Any, clock: Clock) -> None:
    answers = {}
    for name in ("olga", "nobody-here"):
        client = Client()
        for _ in range(policy().failures):
            response = sign_in(client, name, "wrong")
        # The page differs only in its CSRF token and the user name typed back into the form.
        page = re.sub(r"[A-Za-z0-9]{64}", "TOKEN", response.content.decode()).replace(name, "NAME")
        answers[name] = (response.status_code, response["Retry-After"], page)
    assert answers["olga"] == answers["nobody-here"]


def test_the_cool_off_ends(owner: Any, clock: Clock) -> None:
    client = Client()
    for _ in range(policy().failures):
        sign_in(client, "olga", "wrong")
    clock.moment += 14 * 60
    still = sign_in(client, "olga", PASSWORD)
    assert still.status_code == 429
    assert "1 minute" in still.content.decode()
    clock.moment += 61
    assert sign_in(client, "olga", PASSWORD).status_code == 302
    assert signed_in(client)


def test_a_success_clears_the_count(owner: Any, clock: Clock) -> None:
    client = Client()
    for _ in range(policy().failures - 1):
        sign_in(client, "olga", "wrong")
    assert sign_in(client, "olga", PASSWORD).status_code == 302
    client.logout()
    for _ in range(policy().failures - 1):
        assert sign_in(client, "olga", "wrong").status_code == 200
    assert sign_in(client, "olga", PASSWORD).status_code == 302


@override_settings(MPP_LOGIN_LOCKOUT_FAILURES=2, MPP_LOGIN_LOCKOUT_SECONDS=60)
def test_the_settings_tune_the_lockout(owner: Any, clock: Clock) -> None:
    client = Client()
    assert sign_in(client, "olga", "wrong").status_code == 200
    locked = sign_in(client, "olga", "wrong")
    assert locked.status_code == 429
    assert locked["Retry-After"] == "60"


@override_settings(MPP_LOGIN_LOCKOUT_FAILURES=0)
def test_lockout_can_be_turned_off(owner: Any, clock: Clock) -> None:
    client = Client()
    for _ in range(8):
        assert sign_in(client, "olga", "wrong").status_code == 200
    assert sign_in(client, "olga", PASSWORD).status_code == 302


def test_the_api_token_endpoint_locks_too(owner: Any, clock: Clock) -> None:
    api = APIClient(REMOTE_ADDR=ADDRESS)
    url = reverse("accounts_api:token")
    for _ in range(policy().failures - 1):
        response = api.post(url, {"username": "olga", "password": "wrong"}, format="json")
        assert response.status_code == 400
    locked = api.post(url, {"username": "olga", "password": "wrong"}, format="json")
    assert locked.status_code == 429
    assert locked["Retry-After"] == str(15 * 60)
    assert "Too many failed sign-ins" in locked.json()["errors"][0]["message"]
    refused = api.post(url, {"username": "olga", "password": PASSWORD}, format="json")
    assert refused.status_code == 429
    assert "token" not in refused.json()
    # Failures on the API and on the page count together.
    assert sign_in(Client(), "olga", PASSWORD).status_code == 429
    clock.moment += 15 * 60 + 1
    granted = api.post(url, {"username": "olga", "password": PASSWORD}, format="json")
    assert granted.status_code == 200
    assert granted.json()["token"]


def test_sign_in_attempts_are_rate_limited_per_address(owner: Any, clock: Clock) -> None:
    clock.moment = 1_800_000_000.0  # the start of a minute window
    client = Client()
    # Different user names: the lockout (per user name) never triggers, the address limit does.
    for number in range(10):
        assert sign_in(client, f"someone{number}", "wrong").status_code == 200
    limited = sign_in(client, "olga", PASSWORD)
    assert limited.status_code == 429
    assert limited["Retry-After"] == "60"
    assert "Too many requests" in limited.content.decode()
    assert not signed_in(client)
    api = APIClient(REMOTE_ADDR=ADDRESS)
    token = api.post(reverse("accounts_api:token"), {"username": "olga", "password": PASSWORD})
    assert token.status_code == 429
    assert token["Retry-After"] == "60"
    assert "Too many requests" in token.json()["errors"][0]["message"]
    # Another address is not limited; and after the window this one recovers.
    assert Client().post(reverse("login"), {"username": "olga", "password": PASSWORD}).status_code == 302
    clock.moment += 60
    assert sign_in(client, "olga", PASSWORD).status_code == 302


def test_twice_the_rate_does_not_pass_at_a_window_boundary(owner: Any, clock: Clock) -> None:
    """10 attempts just before a minute ends, then more just after: a count per fixed minute
    would take 10 more at once; the sliding window waits until the burst's bucket has left."""
    clock.moment = 1_800_000_000.0 + 59.5
    client = Client()
    for number in range(10):
        assert sign_in(client, f"someone{number}", "wrong").status_code == 200
    clock.moment += 1.0  # the next minute
    refused = sign_in(client, "someone-else", "wrong")
    assert refused.status_code == 429
    assert refused["Retry-After"] == "50"  # the bucket [50 s, 60 s) leaves the window at 110 s
    clock.moment += 50
    assert sign_in(client, "later", "wrong").status_code == 200


def test_the_admin_sign_in_is_rate_limited_per_address(owner: Any, clock: Clock) -> None:
    client = Client()
    url = reverse("admin:login")
    assert url == reverse("admin_login")
    for number in range(10):
        attempt = {"username": f"someone{number}", "password": "wrong"}
        assert client.post(url, attempt, REMOTE_ADDR=ADDRESS).status_code == 200
    limited = client.post(url, {"username": "olga", "password": PASSWORD}, REMOTE_ADDR=ADDRESS)
    assert limited.status_code == 429 and limited["Retry-After"] == "60"
    assert "Too many requests" in limited.content.decode()
    assert not signed_in(client)


@override_settings(MPP_RATE_LIMIT_LOGIN="")
def test_the_sign_in_rate_limit_can_be_turned_off(owner: Any, clock: Clock) -> None:
    client = Client()
    for number in range(15):
        assert sign_in(client, f"someone{number}", "wrong").status_code == 200


def test_the_address_behind_a_trusted_proxy() -> None:
    request = type(
        "R", (), {"META": {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 5.6.7.8"}}
    )()
    assert ratelimit.client_address(request) == "10.0.0.2"  # type: ignore[arg-type]
    with override_settings(MPP_TRUSTED_PROXY_COUNT=1):
        assert ratelimit.client_address(request) == "5.6.7.8"  # type: ignore[arg-type]
    assert ratelimit.address_prefix("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert ratelimit.address_prefix("::ffff:192.0.2.1") == "192.0.2.1"
    assert ratelimit.address_prefix("unknown") == ""
    assert ratelimit.parse_rate("20/m") == ratelimit.Rate(20, 60)
    assert ratelimit.parse_rate("5/30") == ratelimit.Rate(5, 30)
    assert ratelimit.parse_rate("0") is None
    with pytest.raises(ValueError, match="COUNT/PERIOD"):
        ratelimit.parse_rate("lots")


def test_no_address_or_attempt_is_stored_in_the_database(owner: Any, clock: Clock) -> None:
    from django.core.cache import cache

    client = Client()
    for _ in range(policy().failures + 1):
        sign_in(client, "olga", "wrong")
    APIClient(REMOTE_ADDR=ADDRESS).post(reverse("accounts_api:token"), {"username": "olga", "password": "x"})
    for model in apps.get_models():
        for field in model._meta.get_fields():
            assert not isinstance(field, models.GenericIPAddressField), (model, field.name)
            assert "ip" not in field.name.lower().split("_"), (model, field.name)
        text_fields = [
            f.name
            for f in model._meta.concrete_fields
            if isinstance(f, (models.CharField, models.TextField, models.JSONField))
        ]
        for values in model.objects.values_list(*text_fields) if text_fields else []:
            assert not any(ADDRESS in str(value) for value in values), (model, values)
    # Nor does the cache keep it in the clear: its keys are hashes.
    keys = list(getattr(cache, "_cache", {}).keys())
    assert keys
    assert not any(ADDRESS in str(key) or "olga" in str(key) for key in keys)


def test_with_redis_url_the_cache_is_redis(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    import runpy
    from pathlib import Path

    base = Path(__file__).resolve().parents[3] / "platform" / "mpp_studio" / "settings" / "base.py"
    monkeypatch.setenv("MPP_VAR_DIR", str(tmp_path / "var"))
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert runpy.run_path(str(base))["CACHES"]["default"]["BACKEND"].endswith("LocMemCache")
    monkeypatch.setenv("REDIS_URL", "redis://cache.internal:6379/2")
    cache = runpy.run_path(str(base))["CACHES"]["default"]
    assert cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert cache["LOCATION"] == "redis://cache.internal:6379/2"


def test_the_lockout_holds_in_redis_across_processes(owner: Any, clock: Clock) -> None:
    """On the real Redis (what gunicorn workers share): locked, and the count is there for every
    process, since a fresh cache connection sees it."""
    import uuid

    import redis
    from django.core.cache import caches

    from tests.web.test_services_integration import REDIS_HOST, REDIS_PORT, REDIS_TEST_URL

    try:
        redis.Redis(host=REDIS_HOST, port=REDIS_PORT, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis not reachable at {REDIS_HOST}:{REDIS_PORT}: {exc}")
    backend = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_TEST_URL,
        "KEY_PREFIX": f"mpp-test-{uuid.uuid4().hex[:8]}",
    }
    with override_settings(CACHES={"default": backend}):
        try:
            client = Client()
            for _ in range(policy().failures):
                response = sign_in(client, "olga", "wrong")
            assert response.status_code == 429
            caches.close_all()
            assert sign_in(Client(), "olga", PASSWORD).status_code == 429
            clock.moment += 15 * 60 + 1
            assert sign_in(Client(), "olga", PASSWORD).status_code == 302
        finally:
            # Only this test's keys: clear() would empty the whole Redis database.
            server = redis.Redis.from_url(REDIS_TEST_URL)
            for key in server.scan_iter(f"{backend['KEY_PREFIX']}:*"):
                server.delete(key)
