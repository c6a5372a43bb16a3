"""A learner triplet run survives its worker being killed: real `celery worker` processes on the
machine's Redis (127.0.0.1:6379) and PostgreSQL (127.0.0.1:5432), each skipped with the reason
where its service does not answer.

The run makes triplets from the demo corpus (TSV + metadata) in chunks of 20 pairs. The first
worker's pool process is killed with SIGKILL (as the out-of-memory killer would), then the whole
worker (its process group, as a crashed machine) once some chunks are stored and others are not;
a second worker finishes the run, Redis handing back the message the dead worker held (a short
visibility timeout here). Every chunk ends up done once in effect: the dataset's pairs and the
merged yield report are those of the same run made chunk by chunk in one process, and those of
`run_pipeline` over all the pairs at once.
"""

import json
import os
import signal
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.stack import run_script, wait_until
from tests.web.test_services_integration import postgres_database_url, redis_url  # noqa: F401 (fixtures)
from tests.web.worker_faults import children, query, worker

pytestmark = [pytest.mark.integration]

CHUNK_SIZE = 20  # pairs per task: the 351 demo pairs make 18 chunks
SLOW_CHUNK_S = "0.8"  # the first worker's pause per chunk (a chunk takes ~0.2 s), so it dies mid-run
MAX_ATTEMPTS = 3  # services.MAX_ATTEMPTS: a chunk started more often fails the run

# A user, a project and the demo corpus uploaded, then a run created whose chunk tasks are sent,
# when its transaction commits, to argv[1] (a private queue in place of `cpu`, which is where
# learner chunks go by default). argv: queue, chunk size.
PREPARE_SCRIPT = """
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from mpp_studio.accounts.models import Membership, Project
from mpp_studio.celery import app
from mpp_studio.learner.services import run_create
from mpp_studio.learner.tasks import make_triplets_chunk
from tests.web.learner.conftest import DEMO_META, DEMO_TSV, upload

queue, chunk_size = sys.argv[1], int(sys.argv[2])
from celery.app import routes
default = routes.Router(routes.prepare(app.conf.task_routes), app.amqp.queues, True, app=app)
assert default.route({}, make_triplets_chunk.name)["queue"].name == "cpu"  # before the test's route
app.conf.task_routes = {"learner.*": {"queue": queue}}
user = get_user_model().objects.create_user("ling", password="pw")
project = Project.objects.create(name="Learner study", created_by=user)
Membership.objects.create(project=project, user=user, role="owner")
corpus = upload(project, user, DEMO_TSV, DEMO_META, name="Demo learners").corpus
run = run_create(corpus=corpus, chunk_size=chunk_size, created_by=user)
print(json.dumps({"run": run.pk, "job": run.job_id, "dataset": run.dataset_id, "project": project.pk,
                  "pairs": corpus.pair_count, "chunks": run.chunks.count()}))
"""

# Run by the worker before it starts: its pipeline pauses SLOW_CHUNK_S seconds per chunk (0:
# none). The service imports run_pipeline when its first task runs, after this patch.
SLOW_PIPELINE = """
import os, time
import triplets.pipeline as pipeline
pause = float(os.environ.get("SLOW_CHUNK_S", "0"))
original = pipeline.run_pipeline
def slow_pipeline(*args, **kwargs):
    time.sleep(pause)
    return original(*args, **kwargs)
pipeline.run_pipeline = slow_pipeline
"""

# The same corpus uploaded again and the same run made chunk by chunk in this process (no
# broker); then what the workers stored and what this process made, side by side, and the
# engine's run_pipeline over all the corpus pairs at once. argv: project, worker run.
REFERENCE_SCRIPT = """
import json, sys
import django
django.setup()
from triplets.pipeline import run_pipeline
from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import Pair
from mpp_studio.learner.models import LearnerPairRecord, TripletRun
from mpp_studio.learner.services import learner_pair, run_settings
from tests.web.learner.conftest import DEMO_META, DEMO_TSV, make_run, upload

project = Project.objects.get(pk=int(sys.argv[1]))
workers = TripletRun.objects.select_related("job").get(pk=int(sys.argv[2]))
corpus = upload(project, None, DEMO_TSV, DEMO_META, name="Demo learners").corpus
here = make_run(corpus, chunk_size=workers.chunk_size, seed=workers.seed, strict=workers.strict,
                max_tries=workers.max_tries)

def pairs(run):
    return [list(row) for row in Pair.objects.filter(paradigm__dataset=run.dataset_id).order_by("index")
            .values_list("paradigm__uid", "index", "sentence_good", "sentence_bad", "record")]

def chunks(run):
    return [list(row) for row in run.chunks.order_by("index")
            .values_list("index", "first_index", "last_index", "status", "report", "attempts")]

def described(run):
    return {"job": [run.job.status, run.job.progress_done, run.job.progress_total, run.job.message],
            "report": run.report, "pairs": pairs(run), "chunks": chunks(run)}

records = LearnerPairRecord.objects.filter(corpus=workers.corpus).order_by("index")
engine = run_pipeline([learner_pair(r) for r in records], run_settings(workers))
print(json.dumps({"workers": described(workers), "here": described(here),
                  "engine": {"records": [t.record() for t in engine.triplets],
                             "report": engine.report.to_dict()}}, ensure_ascii=False))
"""


def canonical(record: object) -> str:
    """Return the record as JSON with sorted keys (PostgreSQL's jsonb keeps no key order)."""
    return json.dumps(record, sort_keys=True)


def test_killed_worker_mid_run_every_chunk_done_once(
    postgres_database_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    queue = f"test-learner-{uuid.uuid4().hex[:12]}"  # a private queue: no other worker takes these
    env = subprocess_env(
        tmp_path / "var",
        DATABASE_URL=postgres_database_url,
        REDIS_URL=redis_url,
        MPP_BROKER_VISIBILITY_TIMEOUT="5",
    )
    run_manage(env, "migrate", "--noinput")
    created = run_script(env, PREPARE_SCRIPT, queue, str(CHUNK_SIZE))
    run_id, job_id = int(created["run"]), int(created["job"])  # type: ignore[call-overload]
    n_pairs, n_chunks = int(created["pairs"]), int(created["chunks"])  # type: ignore[call-overload]
    assert n_chunks == -(-n_pairs // CHUNK_SIZE) and n_chunks >= 10
    log_path = tmp_path / "worker.log"

    def log() -> str:
        return log_path.read_text(errors="replace")

    def done_chunks() -> int:
        [(count,)] = query(
            postgres_database_url,
            "SELECT count(*) FROM learner_tripletchunk WHERE run_id = %s AND status = 'done'",
            run_id,
        )
        return int(str(count))

    def job() -> tuple[object, ...]:
        return query(
            postgres_database_url,
            "SELECT status, progress_done, progress_total, message FROM jobs_job WHERE id = %s",
            job_id,
        )[0]

    def in_flight() -> list[int]:
        rows = query(
            postgres_database_url,
            "SELECT id FROM learner_tripletchunk WHERE run_id = %s AND status = 'pending' AND attempts > 0",
            run_id,
        )
        return [int(row[0]) for row in rows]  # type: ignore[call-overload]

    # 1. A worker makes some chunks; its pool process is killed (as the kernel's out-of-memory
    # killer would): the chunk it held goes back to the queue and a new pool process goes on.
    # Then the whole worker is killed, children and all, in the middle of the run.
    redelivered: list[int] = []
    with worker({**env, "SLOW_CHUNK_S": SLOW_CHUNK_S}, log_path, queue, SLOW_PIPELINE) as first:
        # Killed while a chunk runs; the chunks started but not done right after a kill are
        # those the killed process held (a new pool process takes seconds to start one).
        wait_until(lambda: done_chunks() >= 2 and bool(in_flight()), 90, "two chunks stored", log)
        for child in children(first.pid):
            os.kill(child, signal.SIGKILL)
        redelivered += in_flight()
        wait_until(lambda: done_chunks() >= 5 and bool(in_flight()), 90, "five chunks stored", log)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
        redelivered += in_flight()
    stored_at_kill = done_chunks()
    assert 5 <= stored_at_kill < n_chunks, f"killed after {stored_at_kill} of {n_chunks} chunks"
    assert job()[0] == "running"
    assert "exited with 'signal 9 (SIGKILL)'" in log()  # the pool process's death was seen

    # 2. A new worker finishes the run, including the chunk the dead one held.
    with worker(env, log_path, queue, SLOW_PIPELINE):
        wait_until(lambda: job()[0] in ("done", "failed", "cancelled"), 90, "the run's job to end", log)
    status, done, total, message = job()
    assert status == "done", message
    assert done == total == n_chunks
    assert log().count("Task learner.make_triplets_chunk[") >= n_chunks

    # 3. What the workers stored is what one process makes of the same corpus and settings.
    compared: dict[str, Any] = run_script(env, REFERENCE_SCRIPT, str(created["project"]), str(run_id))
    workers, here, engine = compared["workers"], compared["here"], compared["engine"]
    assert workers["job"] == here["job"]
    assert str(message).startswith("Made ") and f"from {n_pairs:,} pairs" in str(message)

    stored, expected = workers["pairs"], here["pairs"]  # [type, index, good, bad, record]
    assert stored, "the run made no triplets"
    indexes = [row[1] for row in stored]
    assert len(indexes) == len(set(indexes)), "a triplet was stored twice"
    assert [row[1] for row in expected] == indexes  # none missing, none extra
    assert stored == expected  # the same records (their "chunk" included) under the same indexes

    # Every chunk done, with the report of its single run here; the killed ones started again.
    # Chunk rows: [index, first pair, last pair, status, report, attempts].
    chunks, reference_chunks = workers["chunks"], here["chunks"]
    assert [row[:4] for row in chunks] == [[*row[:3], "done"] for row in reference_chunks]
    assert [row[4] for row in chunks] == [row[4] for row in reference_chunks]
    attempts = {int(row[0]): int(row[5]) for row in chunks}
    assert all(1 <= n <= MAX_ATTEMPTS for n in attempts.values()), attempts
    rows = query(postgres_database_url, "SELECT id, index FROM learner_tripletchunk WHERE run_id=%s", run_id)
    index_of = {int(str(pk)): int(str(index)) for pk, index in rows}
    assert redelivered, "no chunk was in flight when the processes were killed"
    for chunk_id in redelivered:  # the chunks held by the killed processes were delivered again
        assert attempts[index_of[chunk_id]] >= 2, (chunk_id, attempts)

    # The merged yield report is the one made here, and the engine's over all pairs at once.
    report = workers["report"]
    assert report == here["report"]
    assert report == engine["report"]
    assert report["pairs_in"] == n_pairs
    assert sum(report["triplets"].values()) == len(stored)
    records = [{k: v for k, v in row[4].items() if k != "chunk"} for row in stored]
    assert sorted(records, key=canonical) == sorted(engine["records"], key=canonical)
    assert not (tmp_path / "var" / "db.sqlite3").exists()  # PostgreSQL held everything
