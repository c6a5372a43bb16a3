"""A dataset generation survives its worker being killed and its Redis being restarted: real
`celery worker` processes on PostgreSQL (127.0.0.1:5432) and Redis, each skipped with the reason
where its service does not answer.

Each paradigm is generated in runs of 6 pairs stored in chunks of 3 (stack.PREPARE_SCRIPT), and
the first worker pauses a little per pair, so that every fault lands mid-job. Whatever happens,
the dataset ends with every pair present exactly once and equal to the same dataset generated in
this process with the same seed: generation is deterministic and a rerun keeps stored pairs.
"""

import os
import signal
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from mpp_studio.datasets.models import Dataset, Pair
from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.conftest import run_generation
from tests.web.datasets.stack import PREPARE_SCRIPT, REPORT_SCRIPT, run_script, wait_until
from tests.web.test_services_integration import postgres_database_url, redis_url  # noqa: F401 (fixtures)
from tests.web.worker_faults import PrivateRedis, children, private_redis, query, worker  # noqa: F401

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

N = 10  # pairs per paradigm (the zh template makes at most 11): 2 runs, chunks of 3, 3, 3 and 1
# Run by the worker before it starts: a pause per pair made (SLOW_PAIR_S seconds, 0: none).
SLOW_GENERATOR = """
import os, time
import generator.generate as generate
pause = float(os.environ.get("SLOW_PAIR_S", "0"))
original = generate.Generator.record
def slow_record(self, pair, seed):
    time.sleep(pause)
    return original(self, pair, seed)
generate.Generator.record = slow_record
"""


def reference_pairs(make_dataset: Callable[..., Dataset]) -> list[list[object]]:
    """Return [uid, index, good, bad] of the same dataset generated in this process (seed 0)."""
    dataset = make_dataset("en", "zh", n=N, seed=0)
    run_generation(dataset)
    return [
        list(row)
        for row in Pair.objects.filter(paradigm__dataset=dataset)
        .order_by("paradigm__uid", "index")
        .values_list("paradigm__uid", "index", "sentence_good", "sentence_bad")
    ]


class Generation:
    """Reads, straight from PostgreSQL, how far the worker got with one dataset."""

    def __init__(self, database_url: str, dataset_id: int) -> None:
        self.database_url = database_url
        self.dataset_id = dataset_id

    def stored(self) -> int:
        """Return the number of pair rows stored."""
        [(count,)] = query(
            self.database_url,
            "SELECT count(*) FROM datasets_pair p JOIN datasets_datasetparadigm d ON p.paradigm_id = d.id"
            " WHERE d.dataset_id = %s",
            self.dataset_id,
        )
        return int(str(count))

    def job_status(self) -> str:
        """Return the status of the dataset's job."""
        [(status,)] = query(
            self.database_url,
            "SELECT j.status FROM jobs_job j JOIN datasets_dataset d ON d.job_id = j.id WHERE d.id = %s",
            self.dataset_id,
        )
        return str(status)

    def finished(self) -> bool:
        """Return whether the job has ended (done, failed or cancelled)."""
        return self.job_status() in ("done", "failed", "cancelled")


def check_complete(report: dict[str, object], expected: list[list[object]]) -> None:
    """Assert the worker's dataset is done, each pair stored once, equal to the reference."""
    job = report["job"]
    assert job["status"] == "done", job  # type: ignore[index]
    assert (job["done"], job["total"]) == (2 * N, 2 * N)  # type: ignore[index]
    assert job["message"] == f"Generated {2 * N} pairs in 2 paradigms."  # type: ignore[index]
    assert report["paradigms"] == [["en_sv_agreement", "done", N, []], ["zh_classifier_noun", "done", N, []]]
    pairs = report["pairs"]
    keys = [(row[0], row[1]) for row in pairs]  # type: ignore[attr-defined]
    assert len(keys) == len(set(keys)) == 2 * N, "a pair is missing or stored twice"
    assert pairs == expected
    assert len(report["jsonl"]) == 2 * N  # type: ignore[arg-type]


def test_killed_worker_mid_generation_every_pair_stored_once(
    postgres_database_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
    tmp_path: Path,
    make_dataset: Callable[..., Dataset],
) -> None:
    queue = f"test-datasets-{uuid.uuid4().hex[:12]}"  # a private queue: no other worker takes these
    env = subprocess_env(
        tmp_path / "var",
        DATABASE_URL=postgres_database_url,
        REDIS_URL=redis_url,
        MPP_BROKER_VISIBILITY_TIMEOUT="10",
    )
    run_manage(env, "migrate", "--noinput")
    log_path = tmp_path / "worker.log"

    def log() -> str:
        return log_path.read_text(errors="replace") if log_path.exists() else ""

    created = run_script(env, PREPARE_SCRIPT, "Kill test", queue, str(N))
    generation = Generation(postgres_database_url, int(created["dataset"]))  # type: ignore[call-overload]

    # 1. A worker stores some pairs; its pool process is killed (as the out-of-memory killer
    # would): the run it held goes back to the queue and a new pool process goes on with it.
    # Then the whole worker is killed, children and all, in the middle of the job.
    with worker({**env, "SLOW_PAIR_S": "0.5"}, log_path, queue, SLOW_GENERATOR) as first:
        wait_until(lambda: generation.stored() >= 3, 120, "a chunk to be stored", log)
        pool = children(first.pid)
        assert pool, "the worker has no pool process"
        for child in pool:
            os.kill(child, signal.SIGKILL)
        at_first_kill = generation.stored()
        wait_until(lambda: generation.stored() >= at_first_kill + 6, 120, "two more chunks", log)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    at_second_kill = generation.stored()
    assert at_first_kill < at_second_kill < 2 * N, f"killed after {at_second_kill} of {2 * N} pairs"
    assert generation.job_status() == "running"
    assert "exited with 'signal 9 (SIGKILL)'" in log()  # the pool process's death was seen

    # 2. A new worker finishes the job, including the run the dead one held.
    with worker(env, log_path, queue):
        wait_until(generation.finished, 180, "the dataset's job to end", log)
    report = run_script(env, REPORT_SCRIPT, str(generation.dataset_id))
    check_complete(report, reference_pairs(make_dataset))
    assert not (tmp_path / "var" / "db.sqlite3").exists()  # PostgreSQL held everything


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_redis_restarted_mid_generation_every_pair_stored_once(
    postgres_database_url: str,  # noqa: F811
    private_redis: PrivateRedis,  # noqa: F811
    tmp_path: Path,
    make_dataset: Callable[..., Dataset],
    stop_signal: int,
) -> None:
    """Redis (the test's own, persisting as in production) stops twice while the worker
    generates and comes back on the same port and folder. The first outage outlasts a run: the
    run's next message cannot be sent and is kept in the database; the worker, reconnected,
    sends it. The second is short: a run goes on through it. The job finishes either way."""
    queue = f"test-datasets-{uuid.uuid4().hex[:12]}"
    env = subprocess_env(
        tmp_path / "var",
        DATABASE_URL=postgres_database_url,
        REDIS_URL=private_redis.url,
        MPP_BROKER_VISIBILITY_TIMEOUT="10",
        MPP_REQUEUE_INTERVAL="2",
    )
    run_manage(env, "migrate", "--noinput")
    log_path = tmp_path / "worker.log"

    def log() -> str:
        text = log_path.read_text(errors="replace") if log_path.exists() else ""
        return f"{text}\n--- redis ---\n{private_redis.log()}"

    def kept() -> int:
        [(count,)] = query(postgres_database_url, "SELECT count(*) FROM jobs_unsentmessage")
        return int(str(count))

    created = run_script(env, PREPARE_SCRIPT, "Restart test", queue, str(N))
    generation = Generation(postgres_database_url, int(created["dataset"]))  # type: ignore[call-overload]
    with worker({**env, "SLOW_PAIR_S": "0.4"}, log_path, queue, SLOW_GENERATOR):
        # 1. Down while a run stores pairs, until the run ends and its next message is kept.
        wait_until(lambda: generation.stored() >= 3, 120, "a chunk stored", log)
        private_redis.stop(stop_signal)
        wait_until(lambda: kept() >= 1, 60, "the run's next message to be kept, Redis down", log)
        at_restart = generation.stored()
        assert at_restart < 2 * N
        private_redis.start()
        # 2. Down a moment while the next run stores pairs: that run goes on through it.
        wait_until(lambda: generation.stored() >= at_restart + 3, 120, "a chunk stored after", log)
        private_redis.stop(stop_signal)
        down_at = generation.stored()
        wait_until(lambda: generation.stored() >= down_at + 3, 60, "a chunk stored, Redis down", log)
        assert generation.stored() < 2 * N, "the job ended before the second restart"
        private_redis.start()
        wait_until(generation.finished, 180, "the dataset's job to end", log)
    assert private_redis.starts == 3
    assert log().count("Connection to broker lost") == 2
    assert "for later: the task queue is unreachable" in log()  # the kept message ...
    assert "requeued 1 kept task message(s)" in log() or "requeued 2 kept task message(s)" in log()
    assert kept() == 0  # ... sent again
    report = run_script(env, REPORT_SCRIPT, str(generation.dataset_id))
    check_complete(report, reference_pairs(make_dataset))
