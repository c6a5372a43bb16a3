"""A learner triplet run survives its Redis being restarted twice mid-run: a real `celery worker`
on PostgreSQL (127.0.0.1:5432) and a redis-server of the test's own, started with an append-only
file as production runs it, killed (SIGKILL) and started again on the same port and folder.
Skipped with the reason where PostgreSQL does not answer or redis-server is not installed.

The chunks' messages wait in Redis while it is down and are read back from its file; the chunk
running at each restart goes on and is stored. Every chunk ends up done once in effect: the
dataset's pairs and report are those of the same run made chunk by chunk in one process.
"""

import signal
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.stack import run_script, wait_until
from tests.web.learner.test_integration import MAX_ATTEMPTS, PREPARE_SCRIPT, REFERENCE_SCRIPT, SLOW_PIPELINE
from tests.web.test_services_integration import postgres_database_url  # noqa: F401 (fixture)
from tests.web.worker_faults import PrivateRedis, private_redis, query, worker  # noqa: F401

pytestmark = [pytest.mark.integration]

CHUNK_SIZE = 20  # the 351 demo pairs make 18 chunks


def test_redis_killed_twice_mid_run_every_chunk_done_once(
    postgres_database_url: str,  # noqa: F811
    private_redis: PrivateRedis,  # noqa: F811
    tmp_path: Path,
) -> None:
    queue = f"test-learner-{uuid.uuid4().hex[:12]}"
    env = subprocess_env(
        tmp_path / "var",
        DATABASE_URL=postgres_database_url,
        REDIS_URL=private_redis.url,
        MPP_BROKER_VISIBILITY_TIMEOUT="10",
        MPP_REQUEUE_INTERVAL="2",
    )
    run_manage(env, "migrate", "--noinput")
    created = run_script(env, PREPARE_SCRIPT, queue, str(CHUNK_SIZE))
    run_id, job_id, n_chunks = int(created["run"]), int(created["job"]), int(created["chunks"])  # type: ignore[call-overload]
    log_path = tmp_path / "worker.log"

    def log() -> str:
        text = log_path.read_text(errors="replace") if log_path.exists() else ""
        return f"{text}\n--- redis ---\n{private_redis.log()}"

    def done_chunks() -> int:
        [(count,)] = query(
            postgres_database_url,
            "SELECT count(*) FROM learner_tripletchunk WHERE run_id = %s AND status = 'done'",
            run_id,
        )
        return int(str(count))

    def job_status() -> str:
        [(status,)] = query(postgres_database_url, "SELECT status FROM jobs_job WHERE id = %s", job_id)
        return str(status)

    def started_chunks() -> set[int]:
        """The chunks a task has begun (an attempt counted) and not yet stored."""
        rows = query(
            postgres_database_url,
            "SELECT index FROM learner_tripletchunk"
            " WHERE run_id = %s AND status = 'pending' AND attempts > 0",
            run_id,
        )
        return {int(str(index)) for (index,) in rows}

    def stored(chunks: set[int]) -> bool:
        rows = query(
            postgres_database_url,
            "SELECT count(*) FROM learner_tripletchunk"
            " WHERE run_id = %s AND status = 'done' AND index = ANY(%s)",
            run_id,
            sorted(chunks),
        )
        return int(str(rows[0][0])) == len(chunks)

    kills = 0
    with worker({**env, "SLOW_CHUNK_S": "2"}, log_path, queue, SLOW_PIPELINE):
        for threshold in (3, 8):
            while True:
                # Kill Redis while a chunk runs: killed between two chunks, nothing runs to go on.
                wait_until(
                    lambda t=threshold: done_chunks() >= t and bool(started_chunks()),
                    120,
                    f"{threshold} chunks done and one running",
                    log,
                )
                private_redis.stop(signal.SIGKILL)
                kills += 1
                running = started_chunks()
                if running:
                    break
                private_redis.start()  # the chunk ended in the moment between the look and the kill
            # The chunk running goes on while Redis is away, and is stored.
            wait_until(lambda r=running: stored(r), 60, f"chunk {sorted(running)} stored, Redis down", log)
            private_redis.start()
        assert done_chunks() < n_chunks, "the run ended before the last restart"
        wait_until(lambda: job_status() in ("done", "failed", "cancelled"), 180, "the run's job to end", log)
    assert log().count("Connection to broker lost") == kills

    compared: dict[str, Any] = run_script(env, REFERENCE_SCRIPT, str(created["project"]), str(run_id))
    workers, here = compared["workers"], compared["here"]
    assert workers["job"] == here["job"]
    assert workers["job"][0] == "done"
    indexes = [row[1] for row in workers["pairs"]]
    assert len(indexes) == len(set(indexes)), "a triplet was stored twice"
    assert workers["pairs"] == here["pairs"]
    # Chunk rows: [index, first pair, last pair, status, report, attempts].
    assert [row[:5] for row in workers["chunks"]] == [[*row[:3], "done", row[4]] for row in here["chunks"]]
    assert all(1 <= row[5] <= MAX_ATTEMPTS for row in workers["chunks"])
    assert workers["report"] == here["report"]
