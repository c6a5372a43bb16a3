"""Helpers for tests that run the real pieces as separate processes: a Celery worker, a web server,
and scripts that prepare a project or read back what the worker stored.

Every process gets its environment from `tests.web.conftest.subprocess_env` (its own MPP_VAR_DIR,
and DATABASE_URL / REDIS_URL only where a test passes them).
"""

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from tests.web.conftest import REPO_ROOT

# As tests.web.conftest.WORKER_ARGS: logs at info level, no cluster chatter between workers.
QUIET = ("-l", "info", "--without-gossip", "--without-mingle", "--without-heartbeat")

# Prepares users, a project with vocabularies, phrases and templates (tests.web.datasets.conftest
# .prepare_project); with a dataset name, also creates the dataset, whose tasks are sent when its
# transaction commits. Each task is asked for runs of 6 pairs in chunks of 3, so every paradigm
# continues through several messages. argv: dataset name ("" for none), queue ("" for the
# default routing), pairs per paradigm. Prints {"project": id, "dataset": id or null}.
PREPARE_SCRIPT = """
import json, sys
from unittest import mock
import django
django.setup()
from django.contrib.auth import get_user_model
from mpp_studio.accounts.models import Membership, Project
from mpp_studio.celery import app
from mpp_studio.datasets.services import dataset_create
from mpp_studio.datasets.tasks import generate_paradigm
from tests.web.datasets.conftest import prepare_project

name, queue, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
if queue:
    app.conf.task_routes = {"datasets.generate_paradigm": {"queue": queue}}
user = get_user_model().objects.create_user("ling", password="pw-for-the-browser")
project = Project.objects.create(name="Agreement study", created_by=user)
Membership.objects.create(project=project, user=user, role="owner")
templates = prepare_project(project)
dataset = None
if name:
    def small_runs(paradigm_id):
        small = {"chunk_size": 3, "pairs_per_run": 6}
        return generate_paradigm.apply_async(args=(paradigm_id,), kwargs=small)
    with mock.patch.object(generate_paradigm, "delay", small_runs):
        dataset = dataset_create(
            project=project, name=name, templates=[templates["en"], templates["zh"]],
            pairs_per_paradigm=n, seed=0, created_by=user,
        )
print(json.dumps({"project": project.pk, "dataset": dataset.pk if dataset else None}))
"""

# Prints what the worker stored for a dataset: its job, paradigms and every pair.
REPORT_SCRIPT = """
import json, sys
import django
django.setup()
from mpp_studio.datasets.exports import jsonl_lines
from mpp_studio.datasets.models import Dataset, Pair

dataset = Dataset.objects.select_related("job").get(pk=int(sys.argv[1]))
job = dataset.job
print(json.dumps({
    "job": {"status": job.status, "done": job.progress_done, "total": job.progress_total,
            "message": job.message, "started": job.started_at is not None},
    "paradigms": [[p.uid, p.status, p.produced, p.problems] for p in dataset.paradigms.order_by("uid")],
    "pairs": [list(row) for row in Pair.objects.filter(paradigm__dataset=dataset)
              .order_by("paradigm__uid", "index")
              .values_list("paradigm__uid", "index", "sentence_good", "sentence_bad")],
    "jsonl": [line.decode() for line in jsonl_lines(dataset)],
}, ensure_ascii=False))
"""


def run_script(env: Mapping[str, str], script: str, *args: str) -> dict[str, object]:
    """Run a script in a child Python and return the JSON its last line prints."""
    result = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=REPO_ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, f"script failed:\n{result.stdout}\n{result.stderr}"
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@contextmanager
def worker(
    env: Mapping[str, str], log_path: Path, queues: str, concurrency: int = 1
) -> Iterator[Callable[[], str]]:
    """Run a real `celery worker` on `queues` while the block runs; yields a reader of its log."""
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "mpp_studio",
                "worker",
                "-c",
                str(concurrency),
                *QUIET,
                "-Q",
                queues,
            ],
            cwd=REPO_ROOT,
            env=dict(env),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        yield lambda: log_path.read_text(errors="replace")
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_until(check: Callable[[], bool], timeout: float, what: str, log: Callable[[], str]) -> None:
    """Poll `check` every half second until it is true; fail with the worker's log after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.5)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}; worker log:\n{log()}")


def sqlite_job_finished(database: Path, dataset_id: int) -> bool:
    """Return whether the dataset's job has ended, reading the SQLite file directly."""
    if not database.exists():
        return False
    with sqlite3.connect(database, timeout=5) as conn:
        row = conn.execute(
            "SELECT j.status FROM jobs_job j JOIN datasets_dataset d ON d.job_id = j.id WHERE d.id = ?",
            (dataset_id,),
        ).fetchone()
    return row is not None and row[0] in ("done", "failed", "cancelled")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(url: str) -> bool:
    """Return whether an HTTP server answers `url` with any status (a 503 is an answer too)."""
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


@contextmanager
def web_server(env: Mapping[str, str], log_path: Path) -> Iterator[str]:
    """Run the web server as scripts/start.sh does and yield its base URL once it answers.

    That is gunicorn, several processes of a few threads each (MPP_WEB_WORKERS, MPP_WEB_THREADS;
    fewer here than start.sh's 3 x 4 by default), static files from the whitenoise middleware,
    and the settings of `env` (start.sh's local settings when it names none). Its log (access
    lines and the application's warnings) goes to `log_path`. At the end it is stopped with
    SIGTERM, gunicorn's graceful shutdown, and killed with its workers only if that hangs.
    """
    port = free_port()
    server_env = dict(env)
    server_env.setdefault("DJANGO_SETTINGS_MODULE", "mpp_studio.settings.local")
    workers = server_env.setdefault("MPP_WEB_WORKERS", "2")
    threads = server_env.setdefault("MPP_WEB_THREADS", "4")
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                *("--pythonpath", "platform", "mpp_studio.wsgi"),
                *("--bind", f"127.0.0.1:{port}"),
                *("--workers", workers, "--threads", threads, "--timeout", "120"),
                # A request still running at the end has this long; the tests wait for none.
                *("--graceful-timeout", "10"),
                *("--access-logfile", "-", "--log-level", "warning"),
            ],
            cwd=REPO_ROOT,
            env=server_env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the workers go with it if killed
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        # gunicorn binds the port before its workers have loaded Django: wait for an answer.
        while not _answers(f"{base}/healthz"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the web server did not start:\n{log_path.read_text()}")
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
