"""Redis down while people use the site: a real web server (`manage.py runserver`) on PostgreSQL
(127.0.0.1:5432) and a redis-server of the test's own, which the test stops. Skipped with the
reason where PostgreSQL does not answer or redis-server is not installed.

With Redis stopped, signing in (page and API token) works, the rate limits and the lockout
failing open; starting a dataset generation (page and API) and a learner triplet run (API)
saves the job and answers with the plain-words warning that the queue is unreachable, never a
500. `manage.py requeue_jobs` says the messages still wait. Once Redis is back, a worker sends
the kept messages when it connects, and every job finishes, each pair stored once.
"""

import subprocess
import sys
from pathlib import Path

import pytest
import requests

from mpp_studio.jobs.queueing import QUEUE_UNREACHABLE_MESSAGE
from tests.web.conftest import REPO_ROOT, run_manage, subprocess_env
from tests.web.datasets.stack import run_script, wait_until, web_server
from tests.web.test_services_integration import postgres_database_url  # noqa: F401 (fixture)
from tests.web.worker_faults import PrivateRedis, private_redis, query, worker  # noqa: F401

pytestmark = [pytest.mark.integration]

N = 6  # pairs per paradigm
NOT_THE_READ = "kind <> 'learner_corpus_read'"  # the jobs made while Redis is down
PASSWORD = "pw-while-redis-is-down"

# A user, a project with vocabularies, phrases and templates, and the demo learner corpus.
# Prints {"project", "templates": [ids], "corpus"}.
PREPARE_SCRIPT = f"""
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from mpp_studio.accounts.models import Membership, Project
from tests.web.datasets.conftest import prepare_project
from tests.web.learner.conftest import DEMO_META, DEMO_TSV, upload

user = get_user_model().objects.create_user("ling", password="{PASSWORD}")
project = Project.objects.create(name="Outage study", created_by=user)
Membership.objects.create(project=project, user=user, role="owner")
templates = prepare_project(project)
corpus = upload(project, user, DEMO_TSV, DEMO_META, name="Demo learners").corpus
print(json.dumps({{"project": project.pk, "templates": [templates["en"].pk, templates["zh"].pk],
                  "corpus": corpus.pk}}))
"""


def requeue_command(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run `manage.py requeue_jobs` and return how it ended (exit 1 while messages wait)."""
    return subprocess.run(
        [sys.executable, str(REPO_ROOT / "manage.py"), "requeue_jobs"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_jobs_started_while_redis_is_down_start_once_it_is_back(
    postgres_database_url: str,  # noqa: F811
    private_redis: PrivateRedis,  # noqa: F811
    tmp_path: Path,
) -> None:
    env = subprocess_env(
        tmp_path / "var",
        DATABASE_URL=postgres_database_url,
        REDIS_URL=private_redis.url,
        MPP_REQUEUE_INTERVAL="2",
        DJANGO_SETTINGS_MODULE="tests.web.jobs.redis_cache_settings",  # the cache on Redis too
    )
    run_manage(env, "migrate", "--noinput")
    created = run_script(env, PREPARE_SCRIPT)
    project, corpus = created["project"], created["corpus"]
    private_redis.stop()

    with web_server(env, tmp_path / "web.log") as base:
        # Sign in on the page: a wrong password is counted nowhere but still refused; the right
        # one signs in (rate limit and lockout fail open, with a warning in the log).
        page = requests.Session()
        page.get(f"{base}/accounts/login/", timeout=30).raise_for_status()
        form = {"csrfmiddlewaretoken": page.cookies["csrftoken"], "username": "ling"}
        wrong = page.post(f"{base}/accounts/login/", data={**form, "password": "nope"}, timeout=30)
        assert wrong.status_code == 200, wrong.text[:2000]
        assert "That user name and password do not match" in wrong.text
        signed_in = page.post(
            f"{base}/accounts/login/", data={**form, "password": PASSWORD}, allow_redirects=False, timeout=30
        )
        assert signed_in.status_code == 302, signed_in.text[:2000]

        # A dataset from the page: saved, and the next page says the queue is unreachable.
        new_url = f"{base}/projects/{project}/datasets/new/"
        page.get(new_url, timeout=30).raise_for_status()
        posted = page.post(
            new_url,
            data={
                "csrfmiddlewaretoken": page.cookies["csrftoken"],
                "name": "Made from the page",
                "templates": created["templates"],
                "pairs_per_paradigm": N,
                "seed": 0,
                "unique": "",
            },
            allow_redirects=False,
            timeout=60,
        )
        assert posted.status_code == 302, posted.text[:3000]
        assert posted.headers["X-MPP-Queue"] == "unreachable"
        detail = page.get(base + posted.headers["Location"], timeout=30)
        assert detail.status_code == 200
        assert QUEUE_UNREACHABLE_MESSAGE in detail.text
        assert "Queued" in detail.text

        # The API: a token (lockout fails open), a dataset and a learner run, each 202 with the warning.
        token = requests.post(
            f"{base}/api/token/", data={"username": "ling", "password": PASSWORD}, timeout=30
        )
        assert token.status_code == 200, token.text
        auth = {"Authorization": f"Token {token.json()['token']}"}
        by_api = requests.post(
            f"{base}/api/projects/{project}/datasets/",
            json={
                "name": "Made by the API",
                "templates": ["en_sv_agreement", "zh_classifier_noun"],
                "pairs_per_paradigm": N,
                "seed": 0,
            },
            headers=auth,
            timeout=60,
        )
        assert by_api.status_code == 202, by_api.text
        assert by_api.json()["queue_warning"] == QUEUE_UNREACHABLE_MESSAGE
        assert by_api.json()["job"]["status"] == "queued"
        learner = requests.post(
            f"{base}/api/projects/{project}/learner/corpora/{corpus}/runs/",
            json={"chunk_size": 100},
            headers=auth,
            timeout=60,
        )
        assert learner.status_code == 202, learner.text
        assert learner.json()["queue_warning"] == QUEUE_UNREACHABLE_MESSAGE
        [(kept,)] = query(postgres_database_url, "SELECT count(*) FROM jobs_unsentmessage")
        [(chunks,)] = query(postgres_database_url, "SELECT count(*) FROM learner_tripletchunk")
        assert kept == 2 + 2 + int(str(chunks))  # two paradigms per dataset, every learner chunk
        # (The corpus's own read job ran before Redis went down.)
        assert query(postgres_database_url, f"SELECT DISTINCT status FROM jobs_job WHERE {NOT_THE_READ}") == [
            ("queued",)
        ]
        still_down = requeue_command(env)
        assert still_down.returncode == 1, still_down.stdout + still_down.stderr
        assert f"Sent 0 kept task message(s); {kept} still waiting." in still_down.stdout

        # Redis is back: a worker starts, sends the kept messages, and every job finishes.
        private_redis.start()
        log_path = tmp_path / "worker.log"

        def log() -> str:
            return log_path.read_text(errors="replace") if log_path.exists() else ""

        def open_jobs() -> int:
            [(count,)] = query(
                postgres_database_url, "SELECT count(*) FROM jobs_job WHERE status IN ('queued', 'running')"
            )
            return int(str(count))

        with worker(env, log_path, "cpu"):
            wait_until(lambda: open_jobs() == 0, 240, "every job to end", log)
            # The web server, which kept messages, sends the next one straight to the queue again.
            after = requests.post(
                f"{base}/api/projects/{project}/datasets/",
                json={
                    "name": "Made after the outage",
                    "templates": ["en_sv_agreement"],
                    "pairs_per_paradigm": N,
                },
                headers=auth,
                timeout=60,
            )
            assert after.status_code == 202, after.text
            assert "queue_warning" not in after.json() and "X-MPP-Queue" not in after.headers
            wait_until(lambda: open_jobs() == 0, 120, "the new job to end", log)
        assert "requeued" in log()
        statuses = query(
            postgres_database_url,
            f"SELECT kind, status, message FROM jobs_job WHERE {NOT_THE_READ} ORDER BY id",
        )
        assert [row[1] for row in statuses] == ["done", "done", "done", "done"], statuses
        assert query(postgres_database_url, "SELECT count(*) FROM jobs_unsentmessage") == [(0,)]
        per_dataset = query(
            postgres_database_url,
            "SELECT d.name, count(*), count(DISTINCT (p.paradigm_id, p.index)) FROM datasets_pair p"
            " JOIN datasets_datasetparadigm g ON p.paradigm_id = g.id JOIN datasets_dataset d"
            " ON g.dataset_id = d.id WHERE d.name IN ('Made by the API', 'Made from the page')"
            " GROUP BY d.name ORDER BY d.name",
        )
        assert per_dataset == [("Made by the API", 2 * N, 2 * N), ("Made from the page", 2 * N, 2 * N)]
        # The two datasets were made with the same seed and templates: the same pairs.
        pairs = query(
            postgres_database_url,
            "SELECT d.name, g.uid, p.index, p.sentence_good, p.sentence_bad FROM datasets_pair p"
            " JOIN datasets_datasetparadigm g ON p.paradigm_id = g.id JOIN datasets_dataset d"
            " ON g.dataset_id = d.id WHERE d.name IN ('Made by the API', 'Made from the page')"
            " ORDER BY g.uid, p.index, d.name",
        )
        assert [row[1:] for row in pairs[0::2]] == [row[1:] for row in pairs[1::2]]
        assert requeue_command(env).returncode == 0
    web_log = (tmp_path / "web.log").read_text(errors="replace")
    assert " 500 " not in web_log and "Traceback" not in web_log, web_log
    assert "the cache is unreachable" in web_log  # failing open is logged
