"""A learner triplet run survives its database connection being cut mid-run: a real `celery
worker` on the machine's Redis makes triplets from the demo corpus in chunks of 20 pairs,
reaching PostgreSQL through tests/fault_proxy.py, which cuts every connection (and refuses new
ones) for a few seconds, twice. The run ends done, each triplet stored once, equal to the same run
made chunk by chunk in one process, and no chunk charged an attempt for an outage. Skipped, with
the reason, where PostgreSQL or Redis does not answer.
"""

import re
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.fault_proxy import FaultProxy
from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.stack import run_script, wait_until
from tests.web.learner.test_integration import PREPARE_SCRIPT, REFERENCE_SCRIPT, SLOW_PIPELINE
from tests.web.test_services_integration import postgres_database_url, redis_url  # noqa: F401 (fixtures)
from tests.web.worker_faults import query, worker

pytestmark = [pytest.mark.integration]

CHUNK_SIZE = 20  # pairs per task: the demo corpus makes 18 chunks
CUT_S = 4.0  # each outage


def test_database_cut_mid_run_every_triplet_stored_once(
    postgres_database_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    queue = f"test-db-outage-{uuid.uuid4().hex[:12]}"  # a private queue: no other worker takes these
    env = subprocess_env(tmp_path / "var", DATABASE_URL=postgres_database_url, REDIS_URL=redis_url)
    run_manage(env, "migrate", "--noinput")
    created = run_script(env, PREPARE_SCRIPT, queue, str(CHUNK_SIZE))
    run_id, job_id = int(created["run"]), int(created["job"])  # type: ignore[call-overload]
    n_chunks = int(created["chunks"])  # type: ignore[call-overload]
    assert n_chunks >= 10
    log_path = tmp_path / "worker.log"

    def log() -> str:
        return log_path.read_text(errors="replace") if log_path.exists() else ""

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

    host, port = urlsplit(postgres_database_url).hostname, urlsplit(postgres_database_url).port
    with FaultProxy(str(host), int(port or 5432)) as proxy:
        parts = urlsplit(postgres_database_url)
        through = parts._replace(netloc=re.sub(r":\d+$", f":{proxy.port}", parts.netloc)).geturl()
        worker_env = {**env, "DATABASE_URL": through, "SLOW_CHUNK_S": "0.5"}
        with worker(worker_env, log_path, queue, SLOW_PIPELINE):
            for threshold in (2, 6):
                wait_until(lambda t=threshold: done_chunks() >= t, 120, f"{threshold} chunks stored", log)
                proxy.cut()
                at_cut = done_chunks()
                time.sleep(CUT_S)
                assert done_chunks() == at_cut  # nothing reached the database while it was cut
                assert job()[0] == "running"
                proxy.restore()
            assert done_chunks() < n_chunks, "the run ended before the last cut"
            wait_until(lambda: job()[0] in ("done", "failed", "cancelled"), 180, "the run's job to end", log)

    assert proxy.stats.cuts == 2
    assert "the database cannot be reached" in log()  # the tasks met the outages and retried
    status, done, total, message = job()
    assert status == "done", message
    assert done == total == n_chunks

    compared: dict[str, Any] = run_script(env, REFERENCE_SCRIPT, str(created["project"]), str(run_id))
    workers, here = compared["workers"], compared["here"]
    assert workers["job"] == here["job"]
    stored, expected = workers["pairs"], here["pairs"]  # [type, index, good, bad, record]
    assert stored, "the run made no triplets"
    indexes = [row[1] for row in stored]
    assert len(indexes) == len(set(indexes)), "a triplet was stored twice"
    assert stored == expected
    assert workers["report"] == here["report"]
    # Chunk rows: [index, first pair, last pair, status, report, attempts]; an outage is never an
    # attempt (a chunk whose give-back came after its own completion may read 0).
    assert [row[:5] for row in workers["chunks"]] == [row[:5] for row in here["chunks"]]
    assert all(int(row[5]) <= 1 for row in workers["chunks"]), workers["chunks"]
