"""A scoring run survives its database connection being cut mid-run: a real `celery worker` on
the machine's Redis scores a generated dataset with a tiny local GPT-2 in chunks of two pairs,
reaching PostgreSQL through tests/fault_proxy.py, which cuts every connection (and refuses new
ones) for a few seconds, three times. The tasks retry with backoff; the run ends done with every
sentence scored exactly once, and the outages never count as a chunk's attempts (the limit that
stops a chunk which keeps killing its worker). Skipped, with the reason, where PostgreSQL or
Redis does not answer.
"""

import re
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.fault_proxy import FaultProxy
from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.stack import run_script, wait_until
from tests.web.evaluation.test_integration import PREPARE_SCRIPT
from tests.web.test_services_integration import postgres_database_url, redis_url  # noqa: F401 (fixtures)
from tests.web.worker_faults import query, worker

pytestmark = [pytest.mark.integration]

CHUNK_SIZE = 4  # sentences per task: two pairs
CUTS = 3
CUT_S = 4.0  # each outage
# Run by the worker before it starts: a pause per chunk scored, so that the cuts land mid-run.
SLOW_SCORER = """
import time
import scoring.causal as causal
original = causal.CausalScorer.score
def slow_score(self, sentences, progress=None):
    time.sleep(0.5)
    return original(self, sentences, progress)
causal.CausalScorer.score = slow_score
"""


def test_database_cut_mid_run_every_sentence_scored_once_no_attempt_counted(
    postgres_database_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
    tmp_path: Path,
    tiny_gpt2_folder: Path,
) -> None:
    queue = f"test-db-outage-{uuid.uuid4().hex[:12]}"  # a private queue: no other worker takes these
    env = subprocess_env(
        tmp_path / "var", DATABASE_URL=postgres_database_url, REDIS_URL=redis_url, MPP_SCORING_QUEUE=queue
    )
    run_manage(env, "migrate", "--noinput")
    created = run_script(env, PREPARE_SCRIPT, str(tiny_gpt2_folder), str(CHUNK_SIZE))
    run_id, job_id, config_id = int(created["run"]), int(created["job"]), int(created["config"])  # type: ignore[call-overload]
    n_chunks = int(created["chunks"])  # type: ignore[call-overload]
    assert n_chunks >= 8
    log_path = tmp_path / "worker.log"

    def log() -> str:
        return log_path.read_text(errors="replace") if log_path.exists() else ""

    def done_chunks() -> int:
        [(count,)] = query(
            postgres_database_url,
            "SELECT count(*) FROM evaluation_scoringchunk WHERE run_id = %s AND status = 'done'",
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
        with worker({**env, "DATABASE_URL": through}, log_path, queue, SLOW_SCORER):
            for threshold in range(1, 1 + 2 * CUTS, 2):  # after chunk 1, 3 and 5
                wait_until(lambda t=threshold: done_chunks() >= t, 180, f"{threshold} chunks stored", log)
                proxy.cut()
                at_cut = done_chunks()
                time.sleep(CUT_S)
                assert done_chunks() == at_cut  # nothing reached the database while it was cut
                assert job()[0] == "running"
                proxy.restore()
            assert done_chunks() < n_chunks, "the run ended before the last cut"
            wait_until(lambda: job()[0] in ("done", "failed", "cancelled"), 240, "the run's job to end", log)

    assert proxy.stats.cuts == CUTS
    assert "the database cannot be reached" in log()  # the tasks met the outages and retried
    status, done, total, message = job()
    assert status == "done", message
    assert done == total == 2 * int(created["pairs"])  # type: ignore[call-overload]
    [(rows, distinct)] = query(
        postgres_database_url,
        "SELECT count(*), count(DISTINCT sentence_key) FROM evaluation_sentencescore WHERE config_id = %s",
        config_id,
    )
    assert rows == distinct == created["unique"], "a sentence is missing or stored twice"
    attempts = query(
        postgres_database_url,
        "SELECT status, max(attempts) FROM evaluation_scoringchunk WHERE run_id = %s GROUP BY status",
        run_id,
    )
    # Every chunk done, none charged an attempt for an outage (a chunk whose give-back came after
    # its own completion may read 0).
    assert len(attempts) == 1 and attempts[0][0] == "done" and int(str(attempts[0][1])) <= 1, attempts
