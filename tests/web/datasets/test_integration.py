"""Datasets generated end to end by a real `celery worker` process.

With the machine's Redis (127.0.0.1:6379) and PostgreSQL (127.0.0.1:5432), each skipped with the
reason where its service does not answer; and with the embedded default: no REDIS_URL, kombu's
filesystem queue and a SQLite file. The worker's pairs are compared with the same dataset made
in this process: generation is the same wherever it runs.
"""

import uuid
from collections.abc import Callable
from pathlib import Path

import orjson
import psycopg
import pytest

from mpp_studio.datasets.models import Dataset, Pair
from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.conftest import run_generation
from tests.web.datasets.stack import (
    PREPARE_SCRIPT,
    REPORT_SCRIPT,
    run_script,
    sqlite_job_finished,
    wait_until,
)
from tests.web.datasets.stack import worker as worker_process
from tests.web.test_services_integration import postgres_database_url, redis_url  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

N = 10  # pairs per paradigm: each paradigm takes 2 runs of 6 pairs (chunks of 3)


def reference_pairs(make_dataset: Callable[..., Dataset]) -> list[list[object]]:
    """The same dataset generated in this process (seed 0, both templates)."""
    dataset = make_dataset("en", "zh", n=N, seed=0)
    run_generation(dataset)
    return [
        list(row)
        for row in Pair.objects.filter(paradigm__dataset=dataset)
        .order_by("paradigm__uid", "index")
        .values_list("paradigm__uid", "index", "sentence_good", "sentence_bad")
    ]


def check_report(report: dict[str, object], expected: list[list[object]]) -> None:
    job = report["job"]
    assert job == {  # type: ignore[comparison-overlap]
        "status": "done",
        "done": 2 * N,
        "total": 2 * N,
        "message": f"Generated {2 * N} pairs in 2 paradigms.",
        "started": True,
    }
    assert report["paradigms"] == [["en_sv_agreement", "done", N, []], ["zh_classifier_noun", "done", N, []]]
    assert report["pairs"] == expected
    records = [orjson.loads(line) for line in report["jsonl"]]  # type: ignore[attr-defined]
    assert [(r["UID"], int(r["pairID"]), r["sentence_good"], r["sentence_bad"]) for r in records] == [
        tuple(row) for row in expected
    ]


def test_redis_worker_generates_a_dataset_into_postgres(
    postgres_database_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
    tmp_path: Path,
    make_dataset: Callable[..., Dataset],
) -> None:
    env = subprocess_env(tmp_path / "var", DATABASE_URL=postgres_database_url, REDIS_URL=redis_url)
    run_manage(env, "migrate", "--noinput")
    queue = f"test-datasets-{uuid.uuid4().hex[:12]}"  # a private queue: no other worker takes these
    with worker_process(env, tmp_path / "worker.log", queue, concurrency=2) as log:
        created = run_script(env, PREPARE_SCRIPT, "Redis set", queue, str(N))
        dataset_id = int(created["dataset"])  # type: ignore[call-overload]

        def finished() -> bool:
            with psycopg.connect(postgres_database_url) as conn:
                row = conn.execute(
                    "SELECT j.status FROM jobs_job j JOIN datasets_dataset d ON d.job_id = j.id"
                    " WHERE d.id = %s",
                    (dataset_id,),
                ).fetchone()
            return row is not None and row[0] in ("done", "failed", "cancelled")

        wait_until(finished, 180, "the dataset's job to finish", log)
        assert log().count("Task datasets.generate_paradigm[") >= 4  # two runs per paradigm
    report = run_script(env, REPORT_SCRIPT, str(dataset_id))
    check_report(report, reference_pairs(make_dataset))
    assert not (tmp_path / "var" / "celery").exists()  # the embedded queue was not used


def test_embedded_worker_generates_a_dataset_without_redis(
    tmp_path: Path, make_dataset: Callable[..., Dataset]
) -> None:
    """No REDIS_URL, no DATABASE_URL: the filesystem queue and a SQLite file, as scripts/start.sh runs."""
    var_dir = tmp_path / "var"
    env = subprocess_env(var_dir)
    run_manage(env, "migrate", "--noinput")
    with worker_process(env, tmp_path / "worker.log", "cpu,gpu", concurrency=2) as log:  # as start.sh
        created = run_script(env, PREPARE_SCRIPT, "Embedded set", "", str(N))
        dataset_id = int(created["dataset"])  # type: ignore[call-overload]
        wait_until(
            lambda: sqlite_job_finished(var_dir / "db.sqlite3", dataset_id),
            180,
            "the dataset's job to finish",
            log,
        )
    report = run_script(env, REPORT_SCRIPT, str(dataset_id))
    check_report(report, reference_pairs(make_dataset))
    assert (var_dir / "celery" / "queue").is_dir()
