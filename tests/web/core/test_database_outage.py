"""A database that cannot be reached: pages answer a 503 page in words, the API a 503 in its error
layout, /healthz a 503 with the reason; never a traceback, and a form is never half-saved.

The outage is simulated here by making one database call raise what Django raises when the
connection is gone; tests/web/test_database_outage_integration.py cuts a real PostgreSQL connection.
"""

import runpy
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client

from mpp_studio.accounts.models import Membership, Project
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db

GONE = OperationalError("server closed the connection unexpectedly\n\tThis probably means the server died")
LIST_PROJECTS = "mpp_studio.accounts.views.project_list_with_counts_for_user"


def signed_in(user: object) -> Client:
    client = Client()
    assert client.login(username=user.get_username(), password=PASSWORD)  # type: ignore[attr-defined]
    return client


def assert_outage_page(response: object) -> None:
    assert response.status_code == 503  # type: ignore[attr-defined]
    assert response["Retry-After"] == "30"  # type: ignore[index]
    text = response.content.decode()  # type: ignore[attr-defined]
    assert "<h1>The database is unreachable</h1>" in text
    assert "Nothing you saved before is lost; what you just sent was not saved." in text
    assert "try again in a minute" in text
    assert "Traceback" not in text and "server closed the connection" not in text


def test_a_page_answers_503_in_words(owner: object) -> None:
    client = signed_in(owner)
    with mock.patch(LIST_PROJECTS, side_effect=GONE):
        response = client.get("/")
    assert_outage_page(response)
    assert response["Content-Type"].startswith("text/html")
    assert client.get("/").status_code == 200  # the next request, with the database back, works


def test_an_interface_error_is_an_outage_too(owner: object) -> None:
    client = signed_in(owner)
    with mock.patch(LIST_PROJECTS, side_effect=InterfaceError("connection already closed")):
        assert_outage_page(client.get("/"))


def test_the_api_answers_503_in_its_error_layout(owner: object, api_client_for: Callable) -> None:
    client = api_client_for(owner)
    with mock.patch("mpp_studio.accounts.apis.project_list_with_counts_for_user", side_effect=GONE):
        response = client.get("/api/projects/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    [error] = response.json()["errors"]
    assert error["field"] == "" and error["code"] == "database_unavailable"
    assert error["message"].startswith("The database cannot be reached right now.")


def test_api_authentication_losing_the_database_is_a_503(owner: object, api_client_for: Callable) -> None:
    """DRF reads the token from the database before the view runs: that error is handled too."""
    client = api_client_for(owner)
    with mock.patch(
        "rest_framework.authentication.TokenAuthentication.authenticate_credentials", side_effect=GONE
    ):
        response = client.get("/api/projects/")
    assert response.status_code == 503
    assert response.json()["errors"][0]["code"] == "database_unavailable"


def test_a_script_asking_for_json_gets_json(owner: object) -> None:
    client = signed_in(owner)
    with mock.patch(LIST_PROJECTS, side_effect=GONE):
        response = client.get("/", HTTP_ACCEPT="application/json")
    assert response.status_code == 503
    assert response.json()["code"] == "database_unavailable"
    assert "try again in a minute" in response.json()["error"]


def test_a_script_sending_json_gets_json(owner: object) -> None:
    client = signed_in(owner)
    with mock.patch(LIST_PROJECTS, side_effect=GONE):
        response = client.post("/", data="{}", content_type="application/json")
    assert response.status_code == 503 and response.json()["code"] == "database_unavailable"


def test_an_error_outside_the_view_reaches_the_same_answer(owner: object) -> None:
    """The session is saved after the view, in a middleware: handler500 turns that into the 503."""
    client = Client(raise_request_exception=False)
    with mock.patch(
        "django.contrib.sessions.backends.db.SessionStore.save",
        side_effect=InterfaceError("connection closed"),
    ):
        response = client.post("/accounts/login/", {"username": owner.get_username(), "password": PASSWORD})  # type: ignore[attr-defined]
    assert_outage_page(response)


def test_other_errors_stay_a_plain_500(owner: object) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(owner)  # type: ignore[arg-type]
    with mock.patch(LIST_PROJECTS, side_effect=RuntimeError("a bug")):
        response = client.get("/")
    assert response.status_code == 500
    assert "database" not in response.content.decode().lower()


def test_a_form_post_losing_the_database_midway_saves_nothing(owner: object) -> None:
    """The project row is written, then the database drops before its owner's membership: the
    transaction is rolled back, so no project without an owner is left behind."""
    client = signed_in(owner)
    projects_before = Project.objects.count()
    with mock.patch.object(Membership.objects, "create", side_effect=GONE):
        response = client.post("/projects/new/", {"name": "Half saved?", "description": ""})
    assert_outage_page(response)
    assert Project.objects.count() == projects_before
    assert not Project.objects.filter(name="Half saved?").exists()
    again = client.post("/projects/new/", {"name": "Half saved?", "description": ""})
    assert again.status_code == 302
    assert Project.objects.filter(name="Half saved?").count() == 1


def test_healthz_gives_the_reason_on_one_line() -> None:
    with mock.patch("mpp_studio.core.views.connection.cursor", side_effect=GONE):
        response = Client().get("/healthz")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response.json() == {
        "status": "error",
        "db": "error: server closed the connection unexpectedly This probably means the server died",
    }


def test_healthz_reports_a_closed_connection() -> None:
    with mock.patch(
        "mpp_studio.core.views.connection.cursor", side_effect=InterfaceError("connection already closed")
    ):
        response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["db"] == "error: connection already closed"


BASE_SETTINGS = Path(__file__).resolve().parents[3] / "platform" / "mpp_studio" / "settings" / "base.py"


@pytest.mark.parametrize(
    ("env", "options"),
    [
        ({"DATABASE_URL": "postgres://u@db:5432/mpp"}, {"connect_timeout": 5}),
        ({"DATABASE_URL": "postgres://u@db:5432/mpp", "MPP_DB_CONNECT_TIMEOUT": "2"}, {"connect_timeout": 2}),
        ({"DATABASE_URL": "postgres://u@db:5432/mpp?connect_timeout=9"}, {"connect_timeout": 9}),
        ({}, {}),  # the local SQLite file: nothing to connect to
    ],
)
def test_a_server_database_gives_up_connecting_after_a_few_seconds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str], options: dict[str, int]
) -> None:
    for name in ("DATABASE_URL", "MPP_DB_CONNECT_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MPP_VAR_DIR", str(tmp_path / "var"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    database = runpy.run_path(str(BASE_SETTINGS))["DATABASES"]["default"]
    assert {k: v for k, v in database.get("OPTIONS", {}).items() if k == "connect_timeout"} == options
    assert database.get("CONN_HEALTH_CHECKS", False) is bool(env)


def test_a_server_database_connection_detects_a_vanished_host(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """TCP keepalives and a send timeout bound the wait for a database host that disappeared
    without a reset; libpq accepts every parameter (a real connection to the local server when
    there is one)."""
    monkeypatch.setenv("MPP_VAR_DIR", str(tmp_path / "var"))
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test?keepalives_idle=45")
    options = runpy.run_path(str(BASE_SETTINGS))["DATABASES"]["default"]["OPTIONS"]
    assert options["keepalives"] == 1 and options["keepalives_idle"] == 45  # the URL's wins
    assert (options["keepalives_interval"], options["keepalives_count"]) == (10, 3)
    assert options["tcp_user_timeout"] == 60_000
    psycopg = pytest.importorskip("psycopg")
    server = {"host": "127.0.0.1", "port": 5432, "user": "postgres", "dbname": "test", "connect_timeout": 3}
    try:
        psycopg.connect(**server).close()
    except psycopg.OperationalError as error:
        pytest.skip(f"no PostgreSQL at 127.0.0.1:5432 for this check: {error}")
    connection = psycopg.connect(**{**options, **server})  # an unknown parameter would raise
    with connection:
        assert connection.execute("select 1").fetchone() == (1,)
        assert "keepalives_idle=45" in connection.info.dsn and "tcp_user_timeout=60000" in connection.info.dsn
