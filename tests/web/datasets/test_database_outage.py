"""A dataset generation survives its database connection being cut mid-job: a real `celery
worker` on the machine's Redis reaches PostgreSQL through tests/fault_proxy.py, which cuts every
connection (and refuses new ones) for a few seconds, twice, while pairs are being stored. The
worker's tasks retry with backoff and the job ends with every pair stored exactly once, equal to
the same dataset generated in this process. Skipped, with the reason, where PostgreSQL or Redis
does not answer.
"""

import re
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from mpp_studio.datasets.models import Dataset, Pair
from tests.fault_proxy import FaultProxy
from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.conftest import run_generation
from tests.web.datasets.stack import PREPARE_SCRIPT, REPORT_SCRIPT, run_script, wait_until
from tests.web.test_services_integration import postgres_database_url, redis_url  # noqa: F401 (fixtures)
from tests.web.worker_faults import query, worker

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

N = 10  # pairs per paradigm: runs of 6 stored in chunks of 3 (stack.PREPARE_SCRIPT)
CUT_S = 5.0  # each outage
# Run by the worker before it starts: a pause per pair made, so that the cuts land mid-job.
SLOW_GENERATOR = """
import time
import generator.generate as generate
original = generate.Generator.record
def slow_record(self, pair, seed):
    time.sleep(0.3)
    return original(self, pair, seed)
generate.Generator.record = slow_record
"""


def through_proxy(database_url: str, port: int) -> str:
    """Return the database URL with the proxy's port."""
    parts = urlsplit(database_url)
    return parts._replace(netloc=re.sub(r":\d+$", f":{port}", parts.netloc)).geturl()


def test_database_cut_twice_mid_generation_every_pair_stored_once(
    postgres_database_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
    tmp_path: Path,
    make_dataset: Callable[..., Dataset],
) -> None:
    queue = f"test-db-outage-{uuid.uuid4().hex[:12]}"  # a private queue: no other worker takes these
    env = subprocess_env(tmp_path / "var", DATABASE_URL=postgres_database_url, REDIS_URL=redis_url)
    run_manage(env, "migrate", "--noinput")
    created = run_script(env, PREPARE_SCRIPT, "Outage test", queue, str(N))
    dataset_id = int(created["dataset"])  # type: ignore[call-overload]
    log_path = tmp_path / "worker.log"

    def log() -> str:
        return log_path.read_text(errors="replace") if log_path.exists() else ""

    def stored() -> int:
        [(count,)] = query(
            postgres_database_url,
            "SELECT count(*) FROM datasets_pair p JOIN datasets_datasetparadigm d ON p.paradigm_id = d.id"
            " WHERE d.dataset_id = %s",
            dataset_id,
        )
        return int(str(count))

    def job_status() -> str:
        [(status,)] = query(
            postgres_database_url,
            "SELECT j.status FROM jobs_job j JOIN datasets_dataset d ON d.job_id = j.id WHERE d.id = %s",
            dataset_id,
        )
        return str(status)

    host, port = urlsplit(postgres_database_url).hostname, urlsplit(postgres_database_url).port
    with FaultProxy(str(host), int(port or 5432)) as proxy:
        worker_env = {**env, "DATABASE_URL": through_proxy(postgres_database_url, proxy.port)}
        with worker(worker_env, log_path, queue, SLOW_GENERATOR):
            for threshold in (3, 9):  # each cut while a run is storing its pairs
                wait_until(lambda t=threshold: stored() >= t, 120, f"{threshold} pairs stored", log)
                proxy.cut()
                at_cut = stored()
                time.sleep(CUT_S)
                assert stored() == at_cut  # nothing reached the database while it was cut
                assert job_status() == "running"
                proxy.restore()
            assert stored() < 2 * N, "the job ended before the last cut"
            wait_until(lambda: job_status() in ("done", "failed", "cancelled"), 180, "the job to end", log)

    assert proxy.stats.cuts == 2 and proxy.stats.severed >= 2
    assert "the database cannot be reached" in log()  # the tasks met the outage and retried
    report = run_script(env, REPORT_SCRIPT, str(dataset_id))
    job = report["job"]
    assert job["status"] == "done", job  # type: ignore[index]
    assert (job["done"], job["total"]) == (2 * N, 2 * N)  # type: ignore[index]
    assert report["paradigms"] == [["en_sv_agreement", "done", N, []], ["zh_classifier_noun", "done", N, []]]
    pairs = report["pairs"]
    keys = [(row[0], row[1]) for row in pairs]  # type: ignore[attr-defined]
    assert len(keys) == len(set(keys)) == 2 * N, "a pair is missing or stored twice"

    reference = make_dataset("en", "zh", n=N, seed=0)
    run_generation(reference)
    expected = [
        list(row)
        for row in Pair.objects.filter(paradigm__dataset=reference)
        .order_by("paradigm__uid", "index")
        .values_list("paradigm__uid", "index", "sentence_good", "sentence_bad")
    ]
    assert pairs == expected
