"""Helpers for the fault tests: real `celery worker` processes that a test kills, the processes
under them, a private redis-server a test may stop and start again, and plain SQL reads.

Used by the kill tests of scoring (tests/web/evaluation/test_integration.py), learner triplets
(tests/web/learner/test_integration.py) and dataset generation (tests/web/datasets/
test_worker_faults.py), and by the Redis restart and Redis-down tests.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path

import psycopg
import pytest

from tests.web.conftest import REPO_ROOT
from tests.web.datasets.stack import QUIET, free_port

# Runs a celery worker after `prelude` (Python code given in the MPP_WORKER_PRELUDE variable: a
# test's patch, e.g. a pause per task so that a kill lands mid-job). The worker looks for the
# messages of dead workers every second (kombu: every 10 x 10 s by default), so a message held
# by a killed worker comes back as soon as the visibility timeout has passed.
WORKER_SCRIPT = """
import os, sys
exec(os.environ.get("MPP_WORKER_PRELUDE", ""))
from mpp_studio.celery import app
options = dict(app.conf.broker_transport_options or {})
options.update(unacked_restore_interval=1, unacked_restore_throttle=1)
app.conf.broker_transport_options = options
from celery.bin.celery import main
sys.argv = ["celery", *sys.argv[1:]]
sys.exit(main())
"""


@contextmanager
def worker(
    env: Mapping[str, str], log_path: Path, queue: str, prelude: str = ""
) -> Iterator[subprocess.Popen[bytes]]:
    """Run a prefork worker with one child (as the GPU worker runs) on `queue`, in its own process
    group, appending to `log_path`; yield its process and end the whole group afterwards."""
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [
                *(sys.executable, "-c", WORKER_SCRIPT, "-A", "mpp_studio", "worker", "-c", "1"),
                *(*QUIET, "-Q", queue),
            ],
            cwd=REPO_ROOT,
            env={**env, "MPP_WORKER_PRELUDE": prelude},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        # The pool process may outlive its parent's SIGKILL for a moment: end the group for good.
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def children(pid: int) -> list[int]:
    """Return the ids of the processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # "pid (name) state ppid ...": the name may hold spaces, so split after the ")".
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def query(url: str, sql: str, *args: object) -> list[tuple[object, ...]]:
    """Return the rows of one SQL statement run on the database at `url`."""
    with psycopg.connect(url) as conn:
        return conn.execute(sql, args).fetchall()  # type: ignore[arg-type]


class PrivateRedis:
    """A redis-server of the test's own on a free port, persisting as production runs it
    (docker/compose.yml: `--appendonly yes`), which the test may stop and start again."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        """Start the server on the same port and folder (its append-only file read back)."""
        assert self.process is None, "redis-server is already running"
        self.folder.mkdir(parents=True, exist_ok=True)
        log = (self.folder / "redis.log").open("ab")
        command = [
            *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""),
            *("--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.folder)),
        ]
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        self.starts += 1
        deadline = time.monotonic() + 30
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"redis-server did not start:\n{self.log()}")
            time.sleep(0.1)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stop the server with `sig` (SIGTERM: it writes its file; SIGKILL: a crash)."""
        if self.process is None:
            return
        self.process.send_signal(sig)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def log(self) -> str:
        """Return the server's log."""
        path = self.folder / "redis.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A running redis-server of this test's own (skipped where redis-server is not installed)."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed: the Redis restart tests need their own server")
    server = PrivateRedis(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop(signal.SIGKILL)
