"""Load test: 200 simulated participants take a validation study at once, over loopback HTTP.

What it does:
1. Makes a fresh database (a SQLite file in a temporary folder, or a throwaway database on the
   `--postgres` server, dropped afterwards), migrates
   it, and creates an open two-list study over an invented pair dataset (3 paradigms; 4 items
   per paradigm, 2 catch trials per list: 8 trials a participant).
2. Starts the web server in another process (gunicorn with `--workers`, or Django's threaded
   `runserver`) on 127.0.0.1.
3. From this process, `--participants` threads each act as one Prolific participant: open the
   study link, consent (CSRF cookie and token as a browser sends them), open the session page,
   then for every trial GET the trial JSON and POST the answer, timing each POST (the save).
   Every fifth participant sends each answer twice (a retry after a lost reply), which must be
   answered 200 with the first answer kept. A 5xx (SQLite busy) is sent again after a growing
   wait, as the page's script does; the save time runs until the server confirmed. At the end
   each participant GETs the completion page.
4. Checks the database: every participant has exactly one participation and exactly one
   response per trial (none lost, none doubled), and the two lists hold the same number.

It prints the save latency (p50, p95, p99, max), the saves per second and any error.

With `--think S` each participant waits a random 0..2S seconds before each answer (reading), as
people do; without it every participant answers as fast as the server replies (a stress test:
the latency is then mostly queueing for the CPUs).

Run: PYTHONPATH=platform:. .venv/bin/python bench/studies.py [--participants 200] [--workers 4]
     [--think 2] [--server gunicorn|runserver] [--postgres postgres://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.server_stack import percentile, run, throwaway_database  # noqa: E402

SETUP = """
import django, json
django.setup()
from django.contrib.auth import get_user_model
from mpp_studio.accounts.models import Project
from mpp_studio.studies.services import study_create, study_open
from tests.web.studies.conftest import make_pair_dataset
user = get_user_model().objects.create_user("bench")
project = Project.objects.create(name="Load test", created_by=user)
study = study_create(project=project, datasets=[make_pair_dataset(project)], name="Load",
                     items_per_paradigm=4, n_lists=2, target_responses=100, catch_per_list=2, seed=1)
study_open(study=study)
print(json.dumps({"slug": study.slug, "code": study.completion_code}))
"""

CHECK = """
import django, json, sys
django.setup()
from collections import Counter
from mpp_studio.studies.models import Participation, Response, Study
study = Study.objects.get(slug=sys.argv[1])
rows = Participation.objects.filter(study=study)
short = [p.token_id for p in rows if Response.objects.filter(participation=p).count() != p.trial_count]
print(json.dumps({
    "participations": rows.count(),
    "completed": rows.filter(status="completed").count(),
    "responses": Response.objects.filter(participation__study=study).count(),
    "expected_responses": sum(p.trial_count for p in rows),
    "incomplete": short[:5],
    "lists": dict(sorted(Counter(str(p.list_index) for p in rows).items())),
}))
"""


@dataclass
class Tally:
    """What the participants saw, collected from every thread."""

    saves: list[float] = field(default_factory=list)
    resends: int = 0
    retries: int = 0
    errors: list[str] = field(default_factory=list)
    completed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


def send(
    session: requests.Session, url: str, payload: dict[str, object], token: str, tally: Tally
) -> requests.Response:
    """POST an answer as the page's script does: after a 5xx (a busy database) or a network
    failure it is sent again after a growing wait, so the time measured is the time until the
    server confirmed the save."""
    wait = 0.5
    while True:
        try:
            response = session.post(url, json=payload, headers={"X-CSRFToken": token})
            if response.status_code < 500:
                return response
        except requests.ConnectionError:
            pass  # a keep-alive connection the server closed as it was reused: sent again
        with tally.lock:
            tally.retries += 1
        time.sleep(wait)
        wait = min(wait * 2, 8)


def participant(base: str, slug: str, code: str, number: int, think: float, tally: Tally) -> None:
    """One participant's whole session; problems go to the tally."""
    session = requests.Session()
    pid = f"BENCH{number:05d}"
    rng = random.Random(number)
    try:
        start = f"{base}/s/{slug}/"
        page = session.get(start, params={"PROLIFIC_PID": pid, "STUDY_ID": "S", "SESSION_ID": f"X{number}"})
        page.raise_for_status()
        token = session.cookies.get("csrftoken", "")
        consent = session.post(
            start,
            data={
                "csrfmiddlewaretoken": token,
                "consent": "yes",
                "consent_version": re.search(r'name="consent_version" value="([^"]*)"', page.text).group(1),  # type: ignore[union-attr]
                "PROLIFIC_PID": pid,
                "STUDY_ID": "S",
                "SESSION_ID": f"X{number}",
            },
            headers={"Referer": start},
            allow_redirects=False,
        )
        if consent.status_code != 302:
            raise RuntimeError(f"consent answered {consent.status_code}")
        run_url = base + consent.headers["Location"]
        session.get(run_url).raise_for_status()
        trial = session.get(run_url + "trial/").json()
        resend = number % 5 == 0
        while not trial["done"]:
            time.sleep(rng.uniform(0, 2 * think))  # reading the sentences
            view = trial["trial"]
            choice: object = rng.randrange(2) if view["task"] == "2afc" else rng.sample(range(3), 3)
            payload = {
                "trial_index": view["trial_index"],
                "choice": choice,
                "confidence": None,
                "rt_ms": 1200,
            }
            began = time.perf_counter()
            saved = send(session, run_url + "answer/", payload, token, tally)
            elapsed = time.perf_counter() - began
            if saved.status_code != 201:
                raise RuntimeError(
                    f"trial {view['trial_index']}: save answered {saved.status_code} {saved.text}"
                )
            with tally.lock:
                tally.saves.append(elapsed)
            if resend:
                again = send(session, run_url + "answer/", payload, token, tally)
                if again.status_code != 200 or again.json()["created"] is not False:
                    raise RuntimeError(f"a resent answer was answered {again.status_code}")
                with tally.lock:
                    tally.resends += 1
            body = saved.json()
            trial = body["next"]
        done = session.get(run_url + "done/")
        if code not in done.text:
            raise RuntimeError("no completion code at the end")
        with tally.lock:
            tally.completed += 1
    except Exception as error:  # every participant's problem is reported, none stops the others
        tally.error(f"{pid}: {type(error).__name__}: {error}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--participants", type=int, default=200)
    parser.add_argument("--server", choices=("gunicorn", "runserver"), default="gunicorn")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=8, help="gunicorn threads per worker")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a participant reads a trial (0: none, a stress test)",
    )
    parser.add_argument(
        "--postgres",
        default="",
        metavar="URL",
        help="a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/test: a throwaway database "
        "is made on it and dropped afterwards (default: a fresh SQLite file)",
    )
    args = parser.parse_args()
    if args.postgres:
        with throwaway_database(args.postgres) as url:
            return measure(args, url)
    return measure(args, "")


def measure(args: argparse.Namespace, database_url: str) -> int:
    """Run the load test on the database `database_url` (SQLite when empty); return 0 when no
    response was lost or doubled, 1 otherwise."""

    var = Path(tempfile.mkdtemp(prefix="mpp-bench-studies-"))
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        DJANGO_SETTINGS_MODULE="mpp_studio.settings.test",
        MPP_VAR_DIR=str(var),
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    run(env, "migrate", "--noinput")
    study = json.loads(run(env, script=SETUP).strip().splitlines()[-1])
    if args.server == "gunicorn":
        command = [
            sys.executable, "-m", "gunicorn", "--pythonpath", "platform", "mpp_studio.wsgi",
            "--bind", f"127.0.0.1:{args.port}", "--workers", str(args.workers),
            "--threads", str(args.threads), "--keep-alive", "10", "--log-level", "warning",
        ]  # fmt: skip
    else:
        command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{args.port}", "--noreload"]
    log = (var / "server.log").open("w")  # a file, never a pipe: a full pipe would stall the server
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{args.port}"
    try:
        for _ in range(100):
            try:
                if requests.get(f"{base}/healthz", timeout=1).ok:
                    break
            except requests.RequestException:
                time.sleep(0.2)
        else:
            raise SystemExit("the server did not start")
        tally = Tally()
        began = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.participants) as pool:
            for number in range(args.participants):
                pool.submit(participant, base, study["slug"], study["code"], number, args.think, tally)
        wall = time.perf_counter() - began
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    check = json.loads(run(env, study["slug"], script=CHECK).strip().splitlines()[-1])

    database = "PostgreSQL" if database_url else "SQLite"
    server_text = f"gunicorn {args.workers}x{args.threads}" if args.server == "gunicorn" else "runserver"
    print(
        f"{args.participants} participants at once, {server_text}, {database}, {os.cpu_count()} CPUs, "
        f"think time {args.think:g} s"
    )
    print(f"completed: {tally.completed}; saves: {len(tally.saves)} (+{tally.resends} resent, ", end="")
    print(f"{tally.retries} sent again after a 5xx or a network failure); wall {wall:.1f} s")
    if tally.saves:
        ms = [s * 1000 for s in tally.saves]
        print(
            f"save latency ms: p50 {statistics.median(ms):.0f}, p95 {percentile(ms, 0.95):.0f}, "
            f"p99 {percentile(ms, 0.99):.0f}, max {max(ms):.0f}; {len(ms) / wall:.0f} saves/s"
        )
    print(f"database: {json.dumps(check)}")
    problems = list(tally.errors)
    if check["responses"] != check["expected_responses"] or check["incomplete"]:
        problems.append("responses lost or doubled")
    if check["participations"] != args.participants or len(set(check["lists"].values())) > 1:
        problems.append("participations missing, doubled or unbalanced")
    for problem in problems[:10]:
        print("PROBLEM", problem)
    if problems:
        print("server log (last lines):", *(var / "server.log").read_text().splitlines()[-15:], sep="\n  ")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
