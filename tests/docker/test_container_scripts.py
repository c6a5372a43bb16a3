"""The scripts the containers run: the web health check and the gunicorn settings."""

import importlib.util
import runpy
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

# docker/ is a folder of deployment files, not a package: load the script by its path (an
# installed `docker` distribution would otherwise win the import).
_spec = importlib.util.spec_from_file_location("mpp_healthcheck", REPO_ROOT / "docker" / "healthcheck.py")
assert _spec is not None and _spec.loader is not None
healthcheck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(healthcheck)
host_header = healthcheck.host_header
main = healthcheck.main


class Recorder(BaseHTTPRequestHandler):
    """Answers every GET with the status the server was given and records the request headers."""

    def do_GET(self) -> None:
        self.server.seen.append(dict(self.headers))  # type: ignore[attr-defined]
        self.send_response(self.server.status)  # type: ignore[attr-defined]
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class names it)
        """Keep the test output quiet."""


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    """Return a local HTTP server on a free port, answering 200 unless its `status` is changed."""
    httpd = HTTPServer(("127.0.0.1", 0), Recorder)
    httpd.status = 200  # type: ignore[attr-defined]
    httpd.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def url(httpd: HTTPServer) -> str:
    """Return the health URL on the test server."""
    return f"http://127.0.0.1:{httpd.server_address[1]}/healthz"


@pytest.mark.parametrize(
    ("allowed", "host"),
    [
        ("studio.example.org,localhost", "studio.example.org"),
        (" .example.org , localhost", "example.org"),
        ("*", "localhost"),
        ("", "localhost"),
    ],
)
def test_host_header_is_one_django_accepts(allowed: str, host: str) -> None:
    """The Host sent is the first allowed host, wildcards and blanks made concrete."""
    assert host_header(allowed) == host


def test_healthy_server_passes_with_allowed_host_and_https(
    server: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """200 passes; the request names an allowed host and says it came over https."""
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "studio.example.org")
    assert main(url(server)) == 0
    (headers,) = server.seen  # type: ignore[attr-defined]
    assert headers["Host"] == "studio.example.org"
    assert headers["X-Forwarded-Proto"] == "https"


def test_unhealthy_or_absent_server_fails(server: HTTPServer, capsys: pytest.CaptureFixture[str]) -> None:
    """503 (database down) fails, and so does a port nothing listens on; stderr says why."""
    server.status = 503  # type: ignore[attr-defined]
    assert main(url(server)) == 1
    assert "503" in capsys.readouterr().err
    server.shutdown()
    server.server_close()
    assert main(url(server)) == 1
    assert "healthcheck:" in capsys.readouterr().err


def test_gunicorn_settings_log_to_stdout_and_follow_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Logs go to stdout/stderr; the port and the process count come from the environment."""
    monkeypatch.setenv("PORT", "9001")
    monkeypatch.setenv("WEB_CONCURRENCY", "5")
    config = runpy.run_path(str(REPO_ROOT / "docker" / "gunicorn.conf.py"))
    assert config["bind"] == "0.0.0.0:9001"
    assert config["workers"] == 5
    assert config["accesslog"] == config["errorlog"] == "-"
    assert config["timeout"] >= 120
