"""The embedded default's SQLite: WAL, a busy timeout and IMMEDIATE transactions, so concurrent
writers wait their turn; and a lock wait that still runs out answers "busy" (503, Retry-After 2,
code database_busy), never "the database cannot be reached"."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.db import OperationalError
from django.db.backends.sqlite3.base import DatabaseWrapper
from django.test import Client

from mpp_studio.core.database_outage import is_database_busy
from tests.web.conftest import PASSWORD

LOCKED = OperationalError("database is locked")
LIST_PROJECTS = "mpp_studio.accounts.views.project_list_with_counts_for_user"


@pytest.fixture(autouse=True)
def _own_connections_allowed(django_db_blocker: object) -> Iterator[None]:
    """These tests open their own connections to files of their own, not the test database."""
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        yield


def sqlite_connection(path: Path, **options: object) -> DatabaseWrapper:
    """A connection to `path` with the settings' SQLite options (and `options` over them)."""
    settings_dict = dict(settings.DATABASES["default"])
    if settings_dict["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("DATABASE_URL names a server database: these are the embedded default's settings")
    settings_dict.update(NAME=str(path), OPTIONS={**settings_dict["OPTIONS"], **options})
    for key in ("ATOMIC_REQUESTS", "AUTOCOMMIT", "CONN_MAX_AGE", "CONN_HEALTH_CHECKS", "TIME_ZONE", "TEST"):
        settings_dict.setdefault(key, {} if key == "TEST" else None)
    settings_dict.update(AUTOCOMMIT=True, ATOMIC_REQUESTS=False, CONN_MAX_AGE=0, CONN_HEALTH_CHECKS=False)
    return DatabaseWrapper(settings_dict, alias=f"busy-test-{path.name}")


def test_the_embedded_database_writes_ahead_and_waits_for_locks(tmp_path: Path) -> None:
    connection = sqlite_connection(tmp_path / "db.sqlite3")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] == int(settings.MPP_SQLITE_BUSY_TIMEOUT_S * 1000)
    assert connection.transaction_mode == "IMMEDIATE"
    connection.close()


def test_a_writer_waits_for_another_writers_transaction_instead_of_failing(tmp_path: Path) -> None:
    """Two connections as two requests: the second write waits out the first's transaction."""
    path = tmp_path / "db.sqlite3"
    first, second = sqlite_connection(path), sqlite_connection(path)
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE answer (id INTEGER PRIMARY KEY, value TEXT)")
    first.inc_thread_sharing()  # the first "request" runs in its own thread
    holding = threading.Event()

    def hold_the_lock() -> None:
        with first.cursor() as cursor:
            cursor.execute("BEGIN IMMEDIATE")
            cursor.execute("INSERT INTO answer (value) VALUES ('first')")
            holding.set()
            time.sleep(1.0)
            cursor.execute("COMMIT")

    thread = threading.Thread(target=hold_the_lock)
    thread.start()
    assert holding.wait(5)
    started = time.perf_counter()
    with second.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM answer")  # WAL: a reader is not blocked
        assert cursor.fetchone()[0] == 0
        assert time.perf_counter() - started < 0.5
        cursor.execute("INSERT INTO answer (value) VALUES ('second')")
        cursor.execute("SELECT value FROM answer ORDER BY id")
        assert [row[0] for row in cursor.fetchall()] == ["first", "second"]
    assert time.perf_counter() - started >= 0.5  # it waited for the first to commit
    thread.join()
    first.dec_thread_sharing()
    first.close()
    second.close()


def test_a_lock_wait_that_runs_out_is_an_error_the_caller_sees(tmp_path: Path) -> None:
    """With a short timeout the wait ends in "database is locked": the error the 503 below names."""
    path = tmp_path / "db.sqlite3"
    first, second = sqlite_connection(path), sqlite_connection(path, timeout=0.2)
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE answer (id INTEGER PRIMARY KEY)")
        cursor.execute("BEGIN IMMEDIATE")
        with pytest.raises(OperationalError) as info, second.cursor() as other:
            other.execute("INSERT INTO answer DEFAULT VALUES")
        cursor.execute("COMMIT")
    assert is_database_busy(info.value)
    first.close()
    second.close()


@pytest.mark.django_db
def test_a_busy_page_says_busy_not_unreachable(owner: object) -> None:
    client = Client()
    assert client.login(username=owner.get_username(), password=PASSWORD)  # type: ignore[attr-defined]
    with mock.patch(LIST_PROJECTS, side_effect=LOCKED):
        response = client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    text = response.content.decode()
    assert "<h1>The server is busy</h1>" in text
    assert "unreachable" not in text and "cannot be reached" not in text
    assert "database is locked" not in text


@pytest.mark.django_db
def test_a_busy_api_answer_has_its_own_code(owner: object, api_client_for: Callable) -> None:
    client = api_client_for(owner)
    with mock.patch("mpp_studio.accounts.apis.project_list_with_counts_for_user", side_effect=LOCKED):
        response = client.get("/api/projects/")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    [error] = response.json()["errors"]
    assert error["code"] == "database_busy"
    assert "cannot be reached" not in error["message"]


@pytest.mark.django_db
def test_a_busy_json_caller_gets_the_busy_code(owner: object) -> None:
    client = Client()
    assert client.login(username=owner.get_username(), password=PASSWORD)  # type: ignore[attr-defined]
    with mock.patch(LIST_PROJECTS, side_effect=LOCKED):
        response = client.get("/", HTTP_ACCEPT="application/json")
    assert response.status_code == 503 and response.json()["code"] == "database_busy"
