"""The real stack on this machine: PostgreSQL at 127.0.0.1:5432 and Redis at 127.0.0.1:6379.

Each test skips, with the reason, only when its service does not answer.
"""

import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import redis
from psycopg import sql

from tests.web.conftest import run_manage, subprocess_env

PG_HOST, PG_PORT = "127.0.0.1", 5432
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
# Database 15, so that a test run never mixes with a developer's queues on database 0.
REDIS_TEST_URL = f"redis://{REDIS_HOST}:{REDIS_PORT}/15"

pytestmark = pytest.mark.integration


def _postgres_user() -> str:
    """Return the first role that can connect (trust auth), or skip the test."""
    errors = []
    for user in ("postgres", "root"):
        try:
            with psycopg.connect(host=PG_HOST, port=PG_PORT, user=user, dbname="test", connect_timeout=3):
                return user
        except psycopg.Error as exc:
            errors.append(f"{user}: {' '.join(str(exc).split())}")
    pytest.skip(f"PostgreSQL not reachable at {PG_HOST}:{PG_PORT}: {'; '.join(errors)}")


@pytest.fixture
def postgres_database_url() -> Iterator[str]:
    """Create a throwaway database, yield its DATABASE_URL, and drop it afterwards."""
    user = _postgres_user()
    name = f"mpp_it_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(host=PG_HOST, port=PG_PORT, user=user, dbname="test", autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield f"postgres://{user}@{PG_HOST}:{PG_PORT}/{name}"
    finally:
        with psycopg.connect(host=PG_HOST, port=PG_PORT, user=user, dbname="test", autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture
def redis_url() -> str:
    try:
        redis.Redis(host=REDIS_HOST, port=REDIS_PORT, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis not reachable at {REDIS_HOST}:{REDIS_PORT}: {exc}")
    return REDIS_TEST_URL


def test_postgres_migrate_and_load_demo_twice(
    postgres_database_url: str, library_dir: Path, tmp_path: Path
) -> None:
    """Migrations apply on PostgreSQL, and load_demo run twice stores each file version once."""
    env = subprocess_env(tmp_path / "var", DATABASE_URL=postgres_database_url)
    run_manage(env, "migrate", "--noinput")
    first = run_manage(env, "load_demo", "--library", str(library_dir))
    second = run_manage(env, "load_demo", "--library", str(library_dir))

    assert "4 imported, 0 already up to date, 0 skipped" in first.stdout
    assert "0 imported, 4 already up to date, 0 skipped" in second.stdout
    with psycopg.connect(postgres_database_url) as conn:
        counts = conn.execute(
            "SELECT (SELECT count(*) FROM lexicon_libraryvocabulary),"
            " (SELECT count(*) FROM paradigms_librarytemplate),"
            " (SELECT count(*) FROM paradigms_librarytemplate WHERE vocabulary_id IS NOT NULL),"
            " (SELECT count(*) FROM auth_user WHERE username = 'demo' AND is_superuser)"
        ).fetchone()
    assert counts == (2, 2, 2, 1)
    assert not (tmp_path / "var" / "db.sqlite3").exists()


def test_postgres_healthz_and_check(postgres_database_url: str, tmp_path: Path) -> None:
    """`manage.py check --database default` passes against PostgreSQL."""
    env = subprocess_env(tmp_path / "var", DATABASE_URL=postgres_database_url)
    result = run_manage(env, "check", "--database", "default")
    assert "no issues" in result.stdout


def test_redis_worker_runs_ping_end_to_end(celery_round_trip, redis_url: str, tmp_path: Path) -> None:
    """A real worker consumes `core.ping` from Redis and returns its result through Redis."""
    var_dir = tmp_path / "var"
    result = celery_round_trip(subprocess_env(var_dir, REDIS_URL=redis_url))
    assert result == {"echo": "hello", "database": "sqlite"}
    assert not (var_dir / "celery").exists()  # the embedded broker was not used
