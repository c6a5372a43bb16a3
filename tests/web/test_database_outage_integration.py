"""The database connection dropped and restored under a real gunicorn: requests made while it is
down get a clear 503 (page, API, /healthz), a form post is never half-saved, and once it is back
the same requests succeed without restarting the server; a database that answers nothing at
all (a dropped network) costs a request MPP_DB_CONNECT_TIMEOUT seconds, not a hang.

The machine's PostgreSQL (127.0.0.1:5432) is never stopped: the server reaches a throwaway
database through tests/fault_proxy.py, which cuts every connection and refuses new ones.
Skipped, with the reason, where PostgreSQL does not answer.
"""

import re
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import requests

from tests.fault_proxy import FaultProxy
from tests.web.conftest import REPO_ROOT, run_manage, subprocess_env
from tests.web.datasets.stack import free_port, run_script
from tests.web.test_services_integration import postgres_database_url  # noqa: F401 (fixture)

pytestmark = [pytest.mark.integration]

PASSWORD = "pw-for-the-outage-test"
CYCLES = 3  # cut-and-restore rounds with requests while it is cut
REQUEST_TIMEOUT_S = 30

# A user with an API token and one project; prints {"token": key}.
PREPARE_SCRIPT = f"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from mpp_studio.accounts.services import project_create
user = get_user_model().objects.create_user("ling", password="{PASSWORD}")
project_create(name="Before the outage", created_by=user)
print(json.dumps({{"token": Token.objects.create(user=user).key}}))
"""


def through(url: str, port: int) -> str:
    """Return the database URL with its port replaced (the proxy's), unencrypted so that the
    proxy can see the statements it is told to cut on."""
    parts = urlsplit(url)
    netloc = re.sub(r":\d+$", f":{port}", parts.netloc)
    return urlunsplit((parts.scheme, netloc, parts.path, "sslmode=disable", ""))


@contextmanager
def gunicorn(env: Mapping[str, str], log_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run gunicorn (two sync workers, as deployed: each keeps its database connection between
    requests) and yield its base URL and process."""
    port = free_port()
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                *(sys.executable, "-m", "gunicorn", "--pythonpath", "platform", "--workers", "2"),
                *("--bind", f"127.0.0.1:{port}", "--timeout", "60", "mpp_studio.wsgi"),
            ],
            cwd=REPO_ROOT,
            env=dict(env),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:  # each worker loads the project on its first request: slow on a busy machine
                if requests.get(f"{base}/healthz", timeout=REQUEST_TIMEOUT_S).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"gunicorn did not start:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.3)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def sign_in(base: str) -> requests.Session:
    session = requests.Session()
    session.get(f"{base}/accounts/login/", timeout=REQUEST_TIMEOUT_S).raise_for_status()
    answer = session.post(
        f"{base}/accounts/login/",
        data={"username": "ling", "password": PASSWORD, "csrfmiddlewaretoken": session.cookies["csrftoken"]},
        headers={"Referer": f"{base}/accounts/login/"},
        timeout=REQUEST_TIMEOUT_S,
        allow_redirects=False,
    )
    assert answer.status_code == 302, answer.text
    return session


def new_project(session: requests.Session, base: str, name: str) -> requests.Response:
    return session.post(
        f"{base}/projects/new/",
        data={"name": name, "description": "", "csrfmiddlewaretoken": session.cookies["csrftoken"]},
        headers={"Referer": f"{base}/projects/new/"},
        timeout=REQUEST_TIMEOUT_S,
        allow_redirects=False,
    )


def projects_named(database_url: str, name: str) -> tuple[int, int]:
    """Return (projects with this name, memberships of those projects), read directly."""
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT count(DISTINCT p.id), count(m.id) FROM accounts_project p"
            " LEFT JOIN accounts_membership m ON m.project_id = p.id WHERE p.name = %s",
            (name,),
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def assert_outage_page(response: requests.Response) -> None:
    assert response.status_code == 503, response.text[:500]
    assert response.headers["Retry-After"] == "30"
    assert "<h1>The database is unreachable</h1>" in response.text
    assert "Nothing you saved before is lost" in response.text and "try again in a minute" in response.text
    assert "Traceback" not in response.text


def test_requests_fail_clearly_while_the_database_is_cut_and_succeed_once_it_is_back(
    postgres_database_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    direct_env = subprocess_env(tmp_path / "var", DATABASE_URL=postgres_database_url)
    run_manage(direct_env, "migrate", "--noinput")
    token = str(run_script(direct_env, PREPARE_SCRIPT)["token"])
    api_headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    host, port = urlsplit(postgres_database_url).hostname, urlsplit(postgres_database_url).port

    with FaultProxy(str(host), int(port or 5432)) as proxy:
        env = {
            **direct_env,
            "DATABASE_URL": through(postgres_database_url, proxy.port),
            "MPP_DB_CONNECT_TIMEOUT": "2",
        }
        with gunicorn(env, tmp_path / "gunicorn.log") as (base, server):
            session = sign_in(base)

            def everything_answers() -> None:
                assert requests.get(f"{base}/healthz", timeout=REQUEST_TIMEOUT_S).json() == {
                    "status": "ok",
                    "db": "ok",
                }
                page = session.get(f"{base}/", timeout=REQUEST_TIMEOUT_S)
                assert page.status_code == 200 and "Before the outage" in page.text
                api = requests.get(f"{base}/api/projects/", headers=api_headers, timeout=REQUEST_TIMEOUT_S)
                assert api.status_code == 200 and api.json()["count"] >= 1

            for _ in range(3):  # every gunicorn worker has opened its persistent connection
                everything_answers()

            for cycle in range(CYCLES):
                assert proxy.cut() >= 1  # the workers' live connections, at least
                health = requests.get(f"{base}/healthz", timeout=REQUEST_TIMEOUT_S)
                assert health.status_code == 503 and health.headers["Retry-After"] == "30"
                assert health.json()["status"] == "error" and health.json()["db"].startswith("error: ")
                assert "\n" not in health.json()["db"]
                assert_outage_page(session.get(f"{base}/", timeout=REQUEST_TIMEOUT_S))
                api = requests.get(f"{base}/api/projects/", headers=api_headers, timeout=REQUEST_TIMEOUT_S)
                assert api.status_code == 503 and api.headers["Retry-After"] == "30"
                [error] = api.json()["errors"]
                assert error["field"] == "" and error["code"] == "database_unavailable"
                assert_outage_page(new_project(session, base, f"Sent while cut {cycle}"))
                proxy.restore()
                everything_answers()  # the first requests after the restore already succeed
                assert projects_named(postgres_database_url, f"Sent while cut {cycle}") == (0, 0)

            # A drop nobody noticed (no request while it was cut): the workers' kept connections
            # are dead, and CONN_HEALTH_CHECKS replaces them before the next request uses one.
            proxy.cut()
            proxy.restore()
            for _ in range(3):
                everything_answers()

            # The connection drops between the project's INSERT and its owner's membership: the
            # transaction dies with the connection, so there is no project without an owner.
            proxy.cut_on(b'INSERT INTO "accounts_membership"')
            assert_outage_page(new_project(session, base, "Cut midway"))
            assert proxy.stats.triggers == [b'INSERT INTO "accounts_membership"']
            proxy.restore()
            assert projects_named(postgres_database_url, "Cut midway") == (0, 0)
            assert new_project(session, base, "Cut midway").status_code == 302  # the user's retry
            assert projects_named(postgres_database_url, "Cut midway") == (1, 1)

            # A dropped network that answers nothing (no refusal): connecting gives up after
            # MPP_DB_CONNECT_TIMEOUT seconds, so requests get their 503 instead of hanging.
            proxy.cut(mode="blackhole")
            health = requests.get(f"{base}/healthz", timeout=REQUEST_TIMEOUT_S)
            assert health.status_code == 503 and "timeout" in health.json()["db"], health.text
            assert_outage_page(session.get(f"{base}/", timeout=REQUEST_TIMEOUT_S))
            proxy.restore()
            everything_answers()

            assert server.poll() is None  # never restarted
            stats = proxy.stats
            assert stats.cuts == stats.restores == CYCLES + 3
            assert stats.refused >= CYCLES  # connections tried while it was cut
            assert stats.blackholed >= 2
