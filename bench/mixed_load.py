"""Mixed load: a small lab's real use, all at once, on the embedded default or the real stack.

What runs at the same time, over loopback HTTP against what `scripts/start.sh` starts (Django's
threaded runserver + one Celery worker on the embedded SQLite file and folder queue), or with
`--postgres` on PostgreSQL + Redis (gunicorn + one Celery worker):

1. `--participants` study participants (200), each reading every trial for a random 0..2x
   `--think` seconds before answering (bench/studies.py's participant: consent, run page, trial,
   answer; every fifth sends each answer twice);
2. dataset generations of at least `--generate` pairs in all (100,000) on the worker, through the
   API: every valid shipped paradigm, 1,000 pairs per English and 300 per Chinese one (what the
   library promises), as several datasets with other seeds until the total is reached; each
   followed until its job ends;
3. a released-dataset import of `--import-pairs` BLiMP-format pairs (60,000) posted to the API:
   it must answer 202 at once, and its job must store every pair;
4. `--authors` authors (10), each looping over their template: read it, preview it (10 pairs),
   save a new version, list the project's datasets; until the rest is done.

Checks afterwards: no answer was a server error (5xx) or a dropped connection, anywhere;
every participant has exactly one response per trial (none lost, none doubled); the generation
and the import stored exactly the pairs asked for; every saved template version (201) is stored
once. Prints p50/p95 per route and the totals; exits 1 on any problem.

Run: PYTHONPATH=platform:. .venv/bin/python bench/mixed_load.py
     [--postgres postgres://postgres@127.0.0.1:5432/test --redis redis://127.0.0.1:6379/9]
     [--participants 200] [--think 2] [--authors 10] [--generate 100000] [--import-pairs 60000]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.server_stack import percentile, run, throwaway_database  # noqa: E402
from bench.studies import CHECK as STUDY_CHECK  # noqa: E402
from bench.studies import SETUP as STUDY_SETUP  # noqa: E402
from bench.studies import Tally, participant  # noqa: E402

SETUP = """
import django, json
django.setup()
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from mpp_studio.accounts.models import Project
from mpp_studio.paradigms.models import Template
from mpp_studio.paradigms.models import TemplateVersion
user = get_user_model().objects.get(username="demo")
project = Project.objects.get(memberships__user=user, name__icontains="demo")
valid = [t for t in Template.objects.filter(project=project).order_by("uid")
         if t.latest_version() and not t.latest_version().problems]
english = [t for t in valid if t.language == "en"]
print(json.dumps({"token": Token.objects.get_or_create(user=user)[0].key, "project": project.pk,
                  "english": [t.uid for t in english], "ids": {t.uid: t.pk for t in english},
                  "chinese": [t.uid for t in valid if t.language == "zh"],
                  "versions": {t.pk: t.versions.count() for t in english}}))
"""

COUNT = """
import django, json, sys
django.setup()
from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.paradigms.models import TemplateVersion
ids = json.loads(sys.argv[1])
print(json.dumps({
    "pairs": {str(i): Pair.objects.filter(paradigm__dataset_id=i).count() for i in ids["datasets"]},
    "versions": TemplateVersion.objects.filter(template_id__in=ids["templates"]).count(),
}))
"""


@dataclass
class Answers:
    """Every answer the load got, by route: (status, seconds); problems in words."""

    by_route: dict[str, list[tuple[int, float]]] = field(default_factory=lambda: defaultdict(list))
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def send(
        self, session: requests.Session, route: str, method: str, url: str, **options: object
    ) -> requests.Response | None:
        """Send one request, record its answer under `route`; None for a dropped connection."""
        began = time.perf_counter()
        try:
            response = session.request(method, url, timeout=120, **options)  # type: ignore[arg-type]
        except requests.RequestException as error:
            with self.lock:
                self.by_route[route].append((0, time.perf_counter() - began))
                self.problems.append(f"{route}: {type(error).__name__}: {error}")
            return None
        with self.lock:
            self.by_route[route].append((response.status_code, time.perf_counter() - began))
            if response.status_code >= 500:
                self.problems.append(f"{route}: {response.status_code} {response.text[:200]}")
        return response


def blimp_jsonl(pairs: int) -> bytes:
    """Return `pairs` BLiMP lines in 20 paradigms (the shape of the reproduction in the issue)."""
    lines = []
    for n in range(pairs):
        line = {
            "sentence_good": f"the cat number {n} sleeps .",
            "sentence_bad": f"the cat number {n} sleep .",
            "UID": f"u{n % 20}",
            "linguistics_term": "agreement",
            "pairID": str(n),
        }
        lines.append(json.dumps(line))
    return ("\n".join(lines) + "\n").encode()


def follow_job(
    api: requests.Session,
    base: str,
    project: int,
    dataset: int,
    answers: Answers,
    label: str,
    deadline: float,
) -> dict[str, object]:
    """Poll a dataset until its job has ended (or the deadline); return the dataset's last state."""
    body: dict[str, object] = {}
    while time.monotonic() < deadline:
        got = answers.send(
            api, f"GET dataset ({label} poll)", "GET", f"{base}/api/projects/{project}/datasets/{dataset}/"
        )
        if got is not None and got.ok:
            body = got.json()
            job = body.get("job") or {}
            if isinstance(job, dict) and job.get("finished"):
                return body
        time.sleep(2)
    answers.problems.append(f"{label}: its job had not ended by the deadline")
    return body


def author(
    number: int,
    base: str,
    world: dict[str, object],
    stop: threading.Event,
    answers: Answers,
    saved: list[int],
) -> None:
    """One author editing their template until `stop`: read, preview, save a version, list datasets."""
    api = requests.Session()
    api.headers["Authorization"] = f"Token {world['token']}"
    project = world["project"]
    template_id = world["templates"][number]  # type: ignore[index]
    edit = 0
    while not stop.is_set():
        got = answers.send(
            api, "GET template", "GET", f"{base}/api/projects/{project}/templates/{template_id}/"
        )
        if got is None or not got.ok:
            time.sleep(1)
            continue
        text = got.json()["latest_version"]["source_text"]
        answers.send(
            api,
            "POST preview",
            "POST",
            f"{base}/api/projects/{project}/templates/preview/",
            json={"source_text": text, "n": 10, "seed": edit},
        )
        edit += 1
        new_text = text.rstrip("\n") + f"\n# edit {number}-{edit}\n"
        made = answers.send(
            api,
            "POST version",
            "POST",
            f"{base}/api/projects/{project}/templates/{template_id}/versions/",
            json={"source_text": new_text},
        )
        if made is not None and made.status_code == 201:
            with answers.lock:
                saved.append(template_id)  # type: ignore[arg-type]
        answers.send(api, "GET datasets", "GET", f"{base}/api/projects/{project}/datasets/")
        time.sleep(1.0)  # an author reads the preview before the next change


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--participants", type=int, default=200)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--authors", type=int, default=10)
    parser.add_argument("--generate", type=int, default=100_000, help="pairs to generate in all")
    parser.add_argument("--import-pairs", type=int, default=60_000)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--deadline", type=float, default=1500, help="seconds before the load gives up")
    parser.add_argument("--postgres", default="", metavar="URL", help="PostgreSQL server (with --redis)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/9", metavar="URL")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (real stack)")
    parser.add_argument("--threads", type=int, default=8, help="gunicorn threads per worker (real stack)")
    args = parser.parse_args()
    if args.postgres:
        with throwaway_database(args.postgres) as url:
            return measure(args, url)
    return measure(args, "")


def measure(args: argparse.Namespace, database_url: str) -> int:
    """Run the mixed load; return 0 when nothing failed, was lost or doubled, else 1."""
    var = Path(tempfile.mkdtemp(prefix="mpp-bench-mixed-"))
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        DJANGO_SETTINGS_MODULE="mpp_studio.settings.local",
        DJANGO_DEBUG="false",  # as scripts/start.sh runs it
        MPP_VAR_DIR=str(var),
        # Participants and authors all come from 127.0.0.1: the per-address sign-in and consent
        # limits would count a lab as one person.
        MPP_RATE_LIMIT_STUDY_START="0",
    )
    if database_url:
        import redis

        env.update(DATABASE_URL=database_url, REDIS_URL=args.redis)
        redis.Redis.from_url(args.redis).flushdb()
    print("setting up (migrate, load_demo, a study)…", flush=True)
    run(env, "migrate", "--noinput")
    run(env, "load_demo")
    study = json.loads(run(env, script=STUDY_SETUP).strip().splitlines()[-1])
    world = json.loads(run(env, script=SETUP).strip().splitlines()[-1])
    workers, threads = (args.workers, args.threads) if database_url else (3, 4)  # as scripts/start.sh
    server_command = [
        sys.executable, "-m", "gunicorn", "--pythonpath", "platform", "mpp_studio.wsgi",
        "--bind", f"127.0.0.1:{args.port}", "--workers", str(workers), "--threads", str(threads),
        "--keep-alive", "10", "--timeout", "120", "--log-level", "warning", "--access-logfile", "-",
    ]  # fmt: skip
    worker_command = [sys.executable, "-m", "celery", "-A", "mpp_studio", "worker", "-Q", "cpu,gpu",
                      "--concurrency", "2", "--loglevel", "warning"]  # fmt: skip
    server_log, worker_log = (var / "server.log").open("w"), (var / "worker.log").open("w")
    server = subprocess.Popen(server_command, cwd=ROOT, env=env, stdout=server_log, stderr=subprocess.STDOUT)
    worker = subprocess.Popen(worker_command, cwd=ROOT, env=env, stdout=worker_log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{args.port}"
    answers, tally, saved = Answers(), Tally(), []
    stop = threading.Event()
    try:
        for _ in range(150):
            try:
                if requests.get(f"{base}/healthz", timeout=1).ok:
                    break
            except requests.RequestException:
                time.sleep(0.2)
        else:
            raise SystemExit("the server did not start")
        api = requests.Session()
        api.headers["Authorization"] = f"Token {world['token']}"
        project = world["project"]
        english = world["english"]
        world["templates"] = [world["ids"][uid] for uid in english[10 : 10 + args.authors]]  # type: ignore[index]
        deadline = time.monotonic() + args.deadline
        outcome: dict[str, object] = {}

        plan: list[dict[str, object]] = []
        seed = 0
        while sum(len(r["templates"]) * r["pairs_per_paradigm"] for r in plan) < args.generate:  # type: ignore[arg-type, misc]
            seed += 1
            for language, uids, n in (("en", english, 1_000), ("zh", world["chinese"], 300)):
                if uids:
                    name = f"Load: {language}, seed {seed}"
                    plan.append({"name": name, "templates": uids, "pairs_per_paradigm": n, "seed": seed})

        def generate(number: int, request: dict[str, object]) -> None:
            began = time.perf_counter()
            made = answers.send(
                api,
                "POST dataset (generate)",
                "POST",
                f"{base}/api/projects/{project}/datasets/",
                json=request,
            )
            if made is None or made.status_code != 202:
                answers.problems.append(
                    f"generation: answered {made.status_code if made is not None else 'nothing'}"
                )
                return
            body = follow_job(api, base, project, made.json()["id"], answers, "generation", deadline)
            outcome[f"generated {number}"] = (
                made.json()["id"],
                body.get("pair_count"),
                time.perf_counter() - began,
                (body.get("job") or {}).get("status"),
                len(request["templates"]) * request["pairs_per_paradigm"],  # type: ignore[arg-type, operator]
            )

        def import_release() -> None:
            data = blimp_jsonl(args.import_pairs)
            began = time.perf_counter()
            sent = answers.send(
                api,
                "POST dataset import",
                "POST",
                f"{base}/api/projects/{project}/datasets/import/",
                data={"name": "Load: imported", "source_format": "blimp"},
                files={"files": ("release.jsonl", data, "application/octet-stream")},
            )
            answered = time.perf_counter() - began
            if sent is None or sent.status_code != 202:
                answers.problems.append(
                    f"import: answered {sent.status_code if sent is not None else 'nothing'}"
                )
                return
            body = follow_job(api, base, project, sent.json()["id"], answers, "import", deadline)
            outcome["imported"] = (
                sent.json()["id"],
                body.get("pair_count"),
                time.perf_counter() - began,
                (body.get("job") or {}).get("status"),
                answered,
            )

        began = time.perf_counter()
        background = [threading.Thread(target=generate, args=item) for item in enumerate(plan)]
        background.append(threading.Thread(target=import_release))
        authors = [
            threading.Thread(target=author, args=(n, base, world, stop, answers, saved))
            for n in range(len(world["templates"]))
        ]
        for thread in background + authors:
            thread.start()
        with ThreadPoolExecutor(max_workers=args.participants) as pool:
            for number in range(args.participants):
                pool.submit(participant, base, study["slug"], study["code"], number, args.think, tally)
        participants_done = time.perf_counter() - began
        for thread in background:
            thread.join(timeout=max(1.0, deadline - time.monotonic()))
        stop.set()
        for thread in authors:
            thread.join(timeout=120)
        wall = time.perf_counter() - began
    finally:
        stop.set()
        for process in (server, worker):
            process.terminate()
        for process in (server, worker):
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
        server_log.close()
        worker_log.close()

    check = json.loads(run(env, study["slug"], script=STUDY_CHECK).strip().splitlines()[-1])
    ids = {"datasets": [v[0] for v in outcome.values()], "templates": world["templates"]}
    counts = json.loads(run(env, json.dumps(ids), script=COUNT).strip().splitlines()[-1])

    stack = "PostgreSQL + Redis" if database_url else "embedded default: SQLite file, folder queue"
    stack += f", gunicorn {workers}x{threads}"
    print(
        f"\n{stack}; 1 Celery worker (concurrency 2); {os.cpu_count()} CPUs; wall {wall:.0f} s "
        f"(participants done after {participants_done:.0f} s)"
    )
    print(
        f"{args.participants} participants (think {args.think:g} s): completed {tally.completed}, "
        f"saves {len(tally.saves)} (+{tally.resends} resent), sent again after a 5xx or a dropped "
        f"connection: {tally.retries}"
    )
    if tally.saves:
        ms = [s * 1000 for s in tally.saves]
        p50, p95 = percentile(ms, 0.5), percentile(ms, 0.95)
        print(f"  answer save ms: p50 {p50:.0f}, p95 {p95:.0f}, max {max(ms):.0f}")
    for key, value in sorted(outcome.items()):
        if key.startswith("generated"):
            _, pairs, seconds, status, asked = value  # type: ignore[misc]
            print(f"generation {key.split()[1]}: {pairs:,} of {asked:,} pairs, job {status}, {seconds:.0f} s")
    if "imported" in outcome:
        _, pairs, seconds, status, answered = outcome["imported"]  # type: ignore[misc]
        print(f"import: answered 202 in {answered:.1f} s; {pairs:,} pairs, job {status}, {seconds:.0f} s")
    print(f"authors: {len(world['templates'])}, versions saved {len(saved)}")
    print(f"{'route':34} {'answers':>8} {'5xx':>5} {'p50 ms':>8} {'p95 ms':>8}")
    for route, rows in sorted(answers.by_route.items()):
        seconds = [s * 1000 for status, s in rows if 0 < status < 500]
        errors = sum(1 for status, _ in rows if status >= 500 or status == 0)
        p50 = f"{percentile(seconds, 0.5):.0f}" if seconds else "-"
        p95 = f"{percentile(seconds, 0.95):.0f}" if seconds else "-"
        print(f"{route:34} {len(rows):>8} {errors:>5} {p50:>8} {p95:>8}")
    print(f"database: study {json.dumps(check)}; {json.dumps(counts)}")

    problems = list(answers.problems) + list(tally.errors)
    if tally.retries:
        problems.append(f"{tally.retries} participant answers were a 5xx or a dropped connection")
    if check["responses"] != check["expected_responses"] or check["incomplete"]:
        problems.append("study responses lost or doubled")
    if check["participations"] != args.participants:
        problems.append("participations missing or doubled")
    for key, value in outcome.items():
        stored = counts["pairs"][str(value[0])]  # type: ignore[index]
        wanted = args.import_pairs if key == "imported" else value[4]  # type: ignore[index]
        if stored != wanted or value[3] != "done":  # type: ignore[index]
            problems.append(f"{key}: {stored:,} pairs stored of {wanted:,}, job {value[3]}")  # type: ignore[index]
    if len(outcome) < len(plan) + 1:
        problems.append("a generation or the import did not finish")
    generated = sum(counts["pairs"][str(v[0])] for k, v in outcome.items() if k != "imported")  # type: ignore[index]
    print(f"generated in all: {generated:,} pairs in {len(plan)} datasets")
    original_versions = sum(world["versions"][str(pk)] for pk in world["templates"])  # type: ignore[index]
    if counts["versions"] != len(saved) + original_versions:
        problems.append(f"template versions: {counts['versions']} stored, {len(saved)} saved during the load")
    for problem in problems[:15]:
        print("PROBLEM", problem)
    if problems:
        print("server log (last lines):", *(var / "server.log").read_text().splitlines()[-10:], sep="\n  ")
        print("worker log (last lines):", *(var / "worker.log").read_text().splitlines()[-10:], sep="\n  ")
    else:
        shutil.rmtree(var, ignore_errors=True)  # kept, with its logs, when something went wrong
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
