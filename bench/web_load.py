"""Load test of the authoring side, with a database outage in the middle: how many requests the
web server holds, how it answers while PostgreSQL is unreachable, and whether anything is lost.

What it does:
1. Makes a throwaway database on the `--postgres` server (dropped afterwards), migrates it and
   loads the demo content (`load_demo`: the shipped grammar library in the demo project), adds an
   empty vocabulary for the writes, signs the demo user in `--clients` times (sessions made in
   the database, so the sign-in rate limit is not what is measured) and makes an API token.
2. Starts gunicorn (`--workers` x `--threads`) on 127.0.0.1 with DATABASE_URL pointing through
   a fault proxy (tests/fault_proxy.py) in this process, so the database can be cut.
3. `--clients` threads, each its own signed-in browser session, loop without pause over a mix of
   project pages (dashboard, vocabulary list and detail, template list and detail, datasets),
   API reads (items page, templates) and API writes (a new vocabulary item, unique per request,
   one request in eight).
4. Phases: `--warmup` seconds not counted, `--seconds` of steady load; then, under the same
   load, the database is cut (every connection closed, new ones refused) for `--outage` seconds
   and restored; then `--after` seconds more.
5. Checks: during the outage every answer is a 503 that says the database is unreachable (a 500,
   a traceback or a dropped connection counts as a problem); every write answered 201 is in the
   database afterwards, once; after the restore, requests succeed again without restarting.

Prints per phase: requests, requests/s, status counts, latency p50/p95/p99 of the successful
answers; the time from restore to the first success; writes acknowledged vs rows stored.

Run: PYTHONPATH=platform:. .venv/bin/python bench/web_load.py
     [--postgres postgres://postgres@127.0.0.1:5432/test] [--clients 32] [--workers 4]
     [--threads 8] [--seconds 30] [--outage 5] [--after 15]
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
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.server_stack import percentile, run, throwaway_database  # noqa: E402
from tests.fault_proxy import FaultProxy  # noqa: E402

SETUP = """
import django, json, sys
django.setup()
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from rest_framework.authtoken.models import Token
from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.lexicon.services.vocabularies import vocabulary_create
from mpp_studio.paradigms.models import Template
from mpp_studio.paradigms.services.demo import demo_project_ensure
user = get_user_model().objects.get(username="demo")
project, _ = demo_project_ensure(user=user)
sessions = []
for _ in range(int(sys.argv[1])):
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    sessions.append(store.session_key)
written = vocabulary_create(project=project, name="Load test writes", language="en")
others = Vocabulary.objects.filter(project=project).exclude(pk=written.pk)
vocabularies = list(others.values_list("pk", flat=True))
templates = list(Template.objects.filter(project=project).values_list("pk", flat=True))
print(json.dumps({
    "project": project.pk, "vocabularies": vocabularies, "templates": templates,
    "written": written.pk, "token": Token.objects.get_or_create(user=user)[0].key,
    "sessions": sessions,
}))
"""

WRITTEN = """
import django, json, sys
django.setup()
from mpp_studio.lexicon.models import VocabularyItem
items = VocabularyItem.objects.filter(vocabulary_id=int(sys.argv[1]))
print(json.dumps(list(items.values_list("item_id", flat=True))))
"""


@dataclass
class Answer:
    """One request: when it ended, what it was, its status (0: no answer) and its time."""

    ended: float
    kind: str
    status: int
    seconds: float
    says_database: bool = False
    route: str = ""


@dataclass
class Record:
    answers: list[Answer] = field(default_factory=list)
    acknowledged: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def client(number: int, base: str, world: dict[str, object], stop: threading.Event, record: Record) -> None:
    """One signed-in person making requests back to back until `stop` is set."""
    rng = random.Random(number)
    pages = requests.Session()
    pages.cookies.set("sessionid", str(world["sessions"][number]))  # type: ignore[index]
    api = requests.Session()
    api.headers["Authorization"] = f"Token {world['token']}"
    project = world["project"]
    vocabularies: list[int] = world["vocabularies"]  # type: ignore[assignment]
    templates: list[int] = world["templates"]  # type: ignore[assignment]
    written = world["written"]
    count = 0
    while not stop.is_set():
        count += 1
        choice = rng.random()
        item_id = ""
        if choice < 0.125:
            kind, session, method = "api write", api, "POST"
            item_id = f"c{number}n{count}"
            url = f"/api/projects/{project}/vocabularies/{written}/items/"
        elif choice < 0.35:
            kind, session, method = "api read", api, "GET"
            url = rng.choice(
                [
                    f"/api/projects/{project}/vocabularies/{rng.choice(vocabularies)}/items/",
                    f"/api/projects/{project}/templates/",
                    f"/api/projects/{project}/vocabularies/",
                ]
            )
        else:
            kind, session, method = "page", pages, "GET"
            url = rng.choice(
                [
                    f"/projects/{project}/",
                    f"/projects/{project}/vocabularies/",
                    f"/projects/{project}/vocabularies/{rng.choice(vocabularies)}/",
                    f"/projects/{project}/templates/",
                    f"/projects/{project}/templates/{rng.choice(templates)}/",
                    f"/projects/{project}/datasets/",
                ]
            )
        began = time.perf_counter()
        try:
            if method == "POST":
                response = session.post(base + url, json={"form": item_id, "item_id": item_id}, timeout=60)
            else:
                response = session.get(base + url, timeout=60)
            status = response.status_code
            says_database = status == 503 and "database" in response.text.lower()
        except requests.RequestException:
            status, says_database = 0, False
        ended = time.perf_counter()
        with record.lock:
            route = re.sub(r"/\d+/", "/N/", url)
            record.answers.append(Answer(ended, kind, status, ended - began, says_database, route))
            if item_id and status == 201:
                record.acknowledged.append(item_id)


def summary(name: str, answers: list[Answer], seconds: float) -> str:
    """A line of figures for the answers of one phase."""
    statuses = Counter(a.status for a in answers)
    ok = sorted(a.seconds * 1000 for a in answers if 200 <= a.status < 300)
    text = f"{name}: {len(answers)} requests in {seconds:.1f} s ({len(answers) / max(seconds, 1e-9):.0f}/s); "
    text += "statuses " + ", ".join(f"{s or 'no answer'}: {n}" for s, n in sorted(statuses.items()))
    if ok:
        text += (
            f"; ok latency ms p50 {statistics.median(ok):.0f}, p95 {percentile(ok, 0.95):.0f}, "
            f"p99 {percentile(ok, 0.99):.0f}"
        )
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/test", metavar="URL")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--warmup", type=float, default=5, help="seconds of load not counted")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--outage", type=float, default=5)
    parser.add_argument("--after", type=float, default=15)
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()
    host, port = args.postgres.split("@", 1)[1].split("/", 1)[0].split(":")
    with throwaway_database(args.postgres) as database_url, FaultProxy(host, int(port)) as proxy:
        proxied = database_url.replace(f"@{host}:{port}/", f"@127.0.0.1:{proxy.port}/")
        return measure(args, database_url, proxied, proxy)


def measure(args: argparse.Namespace, database_url: str, proxied_url: str, proxy: FaultProxy) -> int:
    """Run the phases; return 0 when nothing was lost and every outage answer was a clear 503."""
    var = Path(tempfile.mkdtemp(prefix="mpp-bench-web-"))
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        DJANGO_SETTINGS_MODULE="mpp_studio.settings.test",
        MPP_VAR_DIR=str(var),
        DATABASE_URL=database_url,
    )
    run(env, "migrate", "--noinput")
    run(env, "load_demo")
    world = json.loads(run(env, str(args.clients), script=SETUP).strip().splitlines()[-1])
    server_env = dict(env, DATABASE_URL=proxied_url)
    command = [
        sys.executable, "-m", "gunicorn", "--pythonpath", "platform", "mpp_studio.wsgi",
        "--bind", f"127.0.0.1:{args.port}", "--workers", str(args.workers),
        "--threads", str(args.threads), "--keep-alive", "10", "--log-level", "warning",
        "--timeout", "120",
    ]  # fmt: skip
    log = (var / "server.log").open("w")  # a file, never a pipe: a full pipe would stall the server
    server = subprocess.Popen(command, cwd=ROOT, env=server_env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{args.port}"
    record = Record()
    stop = threading.Event()
    problems: list[str] = []
    try:
        for _ in range(150):
            try:
                if requests.get(f"{base}/healthz", timeout=1).ok:
                    break
            except requests.RequestException:
                pass
            time.sleep(0.2)
        else:
            raise SystemExit("the server did not start")
        threads = [
            threading.Thread(target=client, args=(n, base, world, stop, record), daemon=True)
            for n in range(args.clients)
        ]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        time.sleep(args.warmup + args.seconds)
        cut_at = time.perf_counter()
        severed = proxy.cut()
        time.sleep(args.outage)
        restored_at = time.perf_counter()
        proxy.restore()
        time.sleep(args.after)
        stop.set()
        for thread in threads:
            thread.join(timeout=90)
        ended = time.perf_counter()
    finally:
        stop.set()
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:  # graceful shutdown stuck on a request: not measured
            server.kill()
            server.wait(timeout=30)
        log.close()
    written = set(json.loads(run(env, str(world["written"]), script=WRITTEN).strip().splitlines()[-1]))

    answers = sorted(record.answers, key=lambda a: a.ended)
    counted_from = started + args.warmup
    steady = [a for a in answers if counted_from <= a.ended < cut_at]
    # A request that began before the cut and ended after it belongs to the outage.
    outage = [a for a in answers if cut_at <= a.ended < restored_at + 0.001]
    after = [a for a in answers if a.ended >= restored_at]
    print(
        f"{args.clients} clients, gunicorn {args.workers}x{args.threads}, PostgreSQL through a fault "
        f"proxy, {os.cpu_count()} CPUs; mix: pages 65 %, API reads 22.5 %, API writes 12.5 %"
    )
    print(summary("steady", steady, cut_at - counted_from))
    for route in sorted({a.route for a in steady}):
        ok = [a.seconds * 1000 for a in steady if a.route == route and 200 <= a.status < 300]
        if ok:
            p50, p95 = statistics.median(ok), percentile(ok, 0.95)
            print(f"  {route}: {len(ok)}, latency ms p50 {p50:.0f}, p95 {p95:.0f}")
    print(summary(f"outage ({args.outage:g} s, {severed} connections severed)", outage, restored_at - cut_at))
    print(summary("after restore", after, ended - restored_at))
    first_ok = next((a.ended - restored_at for a in after if 200 <= a.status < 300), None)
    last_failure = max((a.ended - restored_at for a in after if not 200 <= a.status < 400), default=0.0)
    print(
        "no success after restore" if first_ok is None else f"first success after restore: {first_ok:.2f} s"
    )
    print(f"last failed answer after restore: {last_failure:.2f} s")
    unclear = [a for a in outage + after if not (200 <= a.status < 400 or a.says_database)]
    print(
        f"outage answers: {sum(a.says_database for a in outage)} clear 503s, "
        f"{sum(200 <= a.status < 300 for a in outage)} successes (served before the cut reached them), "
        f"{len(unclear)} other"
    )
    acknowledged = set(record.acknowledged)
    print(
        f"writes: {len(record.acknowledged)} acknowledged (201), {len(written)} rows stored, "
        f"{len(acknowledged - written)} acknowledged but missing, "
        f"{len(written - acknowledged)} stored without a 201 (commit landed, answer lost in the cut)"
    )
    if unclear:
        for answer in unclear[:10]:
            began = answer.ended - answer.seconds - cut_at
            print(f"unclear: {answer.route} status {answer.status}, began {began:+.2f} s from the cut")
        statuses = Counter(a.status for a in unclear)
        problems.append(f"{len(unclear)} answers in or after the outage were not a clear 503: {statuses}")
    if acknowledged - written:
        problems.append(f"{len(acknowledged - written)} acknowledged writes lost")
    if len(record.acknowledged) != len(acknowledged):
        problems.append("an item id acknowledged twice")
    steady_errors = Counter(a.status for a in steady if not 200 <= a.status < 400)
    if steady_errors:
        problems.append(f"errors before the outage: {steady_errors}")
    if last_failure > 5:
        problems.append(f"requests still failed {last_failure:.1f} s after the restore")
    if first_ok is None:
        problems.append("the server did not recover after the restore")
    for problem in problems:
        print("PROBLEM", problem)
    if problems:
        print("server log (last lines):", *(var / "server.log").read_text().splitlines()[-15:], sep="\n  ")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
