"""Participants and sign-in while Redis, which holds the rate-limit counters and lockouts, is
down (a redis-server of the test's own, stopped): every page works, the limits fail open with a
logged warning, nothing answers 500."""

import logging
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from mpp_studio.core import ratelimit
from mpp_studio.studies.models import Response, Study
from mpp_studio.studies.services import pid_hash
from tests.web.conftest import PASSWORD
from tests.web.studies.conftest import gold_answer
from tests.web.studies.test_participant import joined, post_json
from tests.web.worker_faults import PrivateRedis, private_redis  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down(private_redis: PrivateRedis) -> Iterator[None]:  # noqa: F811
    """The cache on the test's own Redis, which is then stopped."""
    private_redis.stop()
    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": private_redis.url,
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
    with override_settings(CACHES=caches, MPP_RATE_LIMIT_STUDY_START="1/m", MPP_RATE_LIMIT_ANSWER="1/m"):
        yield


def test_participants_go_on_while_redis_is_down(
    redis_down: None, study: Study, caplog: pytest.LogCaptureFixture
) -> None:
    with pytest.raises(ratelimit.CACHE_ERRORS):
        cache.get("anything")  # Redis really is down
    with caplog.at_level(logging.WARNING, logger="mpp_studio.core.ratelimit"):
        client = Client(REMOTE_ADDR="198.51.100.23")
        first, urls = joined(client, study, pid="R1")
        second, _ = joined(Client(REMOTE_ADDR="198.51.100.23"), study, pid="R2")  # over 1/m: not counted
        assert client.get(urls["run"]).status_code == 200
        assert client.get(urls["trial"]).json()["trial"]["trial_index"] == 0
        for index in range(2):  # over the 1/m answer limit: not counted either
            assert post_json(client, urls["answer"], gold_answer(first, index)).status_code == 201
    assert Response.objects.filter(participation=first).count() == 2
    assert second.pid_hash == pid_hash("R2")
    assert "rate limit study_start not applied: the cache is unreachable" in caplog.text


def test_sign_in_works_while_redis_is_down(
    redis_down: None, editor: object, caplog: pytest.LogCaptureFixture
) -> None:
    client = Client(REMOTE_ADDR="198.51.100.23")
    with caplog.at_level(logging.WARNING):
        wrong = client.post("/accounts/login/", {"username": "ed", "password": "wrong"})
        right = client.post("/accounts/login/", {"username": "ed", "password": PASSWORD})
        token = Client().post("/api/token/", {"username": "ed", "password": PASSWORD})
    assert wrong.status_code == 200 and "do not match" in wrong.content.decode()
    assert right.status_code == 302
    assert token.status_code == 200 and token.json()["token"]
    assert "sign-in lockout not checked: the cache is unreachable" in caplog.text
    assert "failed sign-in not counted: the cache is unreachable" in caplog.text
