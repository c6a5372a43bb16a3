"""A scoring run survives its worker being killed: real `celery worker` processes on the machine's
Redis (127.0.0.1:6379) and PostgreSQL (127.0.0.1:5432), each skipped with the reason where its
service does not answer.

The run scores a generated dataset with a tiny local GPT-2 in chunks of two pairs. The first
worker's pool process is killed with SIGKILL (as the out-of-memory killer would), then the whole
worker (its process group, as a crashed machine) once some chunks are stored and others are
not; a second worker then finishes the job, Redis handing back the message the dead worker held
(a short visibility timeout here; an hour by default). Every
sentence ends up scored exactly once, with the numbers the engine gives in this process.
"""

import json
import os
import signal
import uuid
from pathlib import Path

import pytest

from scoring.items import Sentence
from scoring.registry import load_scorer
from scoring.settings import ScorerSettings
from tests.web.conftest import run_manage, subprocess_env
from tests.web.datasets.stack import run_script, wait_until
from tests.web.evaluation.outcome_cases import CASES
from tests.web.test_services_integration import postgres_database_url, redis_url  # noqa: F401 (fixtures)
from tests.web.worker_faults import children, query, worker

pytestmark = [pytest.mark.integration]

CHUNK_SIZE = 4  # sentences per task: two pairs
SLOW_SCORE_S = "0.8"  # the first worker's pause per chunk, so that it dies mid-run

# Users, a project with vocabularies, phrases and templates, a dataset generated in this process
# (its generation tasks are not sent), the tiny GPT-2 registered and a run created, whose chunk
# tasks are sent to MPP_SCORING_QUEUE when its transaction commits. argv: model folder, chunk size.
PREPARE_SCRIPT = """
import json, sys
from unittest import mock
import django
django.setup()
from django.contrib.auth import get_user_model
from mpp_studio.accounts.models import Membership, Project
from mpp_studio.datasets.services import dataset_create
from mpp_studio.datasets.tasks import generate_paradigm
from mpp_studio.evaluation.services import language_model_create, run_create
from mpp_studio.evaluation.services.sentences import dataset_pairs
from tests.web.datasets.conftest import prepare_project, run_generation

user = get_user_model().objects.create_user("ling", password="pw")
project = Project.objects.create(name="Scoring study", created_by=user)
Membership.objects.create(project=project, user=user, role="owner")
templates = prepare_project(project)
with mock.patch.object(generate_paradigm, "delay"):
    dataset = dataset_create(project=project, name="Agreement", templates=[templates["en"], templates["zh"]],
                             pairs_per_paradigm=10, seed=0, created_by=user)
run_generation(dataset)
dataset.job.refresh_from_db()
assert dataset.job.status == "done", dataset.job.message
model = language_model_create(project=project, name="tiny-gpt2", source=sys.argv[1], created_by=user)
run = run_create(project=project, name="Kill test", language_models=[model], datasets=[dataset],
                 chunk_size=int(sys.argv[2]), created_by=user)
keys = {k for p in dataset_pairs(dataset) for k in (p.good_key, p.bad_key)}
print(json.dumps({"run": run.pk, "job": run.job_id, "config": run.configs.get().pk, "unique": len(keys),
                  "chunks": run.chunks.count(), "pairs": sum(1 for _ in dataset_pairs(dataset))}))
"""

# Run by the worker before it starts: its CausalScorer pauses SLOW_SCORE_S seconds per call (0: none).
SLOW_SCORER = """
import os, time
import scoring.causal as causal
pause = float(os.environ.get("SLOW_SCORE_S", "0"))
original = causal.CausalScorer.score
def slow_score(self, sentences, progress=None):
    time.sleep(pause)
    return original(self, sentences, progress)
causal.CausalScorer.score = slow_score
"""


def test_killed_worker_mid_run_every_sentence_scored_once(
    postgres_database_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
    tmp_path: Path,
    tiny_gpt2_folder: Path,
) -> None:
    queue = f"test-scoring-{uuid.uuid4().hex[:12]}"  # a private queue: no other worker takes these
    env = subprocess_env(
        tmp_path / "var",
        DATABASE_URL=postgres_database_url,
        REDIS_URL=redis_url,
        MPP_SCORING_QUEUE=queue,
        MPP_BROKER_VISIBILITY_TIMEOUT="5",
    )
    run_manage(env, "migrate", "--noinput")
    created = run_script(env, PREPARE_SCRIPT, str(tiny_gpt2_folder), str(CHUNK_SIZE))
    run_id, job_id, config_id = int(created["run"]), int(created["job"]), int(created["config"])  # type: ignore[call-overload]
    n_chunks = int(created["chunks"])  # type: ignore[call-overload]
    assert n_chunks == int(created["pairs"]) // 2 and n_chunks >= 8  # type: ignore[call-overload]
    log_path = tmp_path / "worker.log"

    def log() -> str:
        return log_path.read_text(errors="replace")

    def done_chunks() -> int:
        return int(
            query(
                postgres_database_url,
                "SELECT count(*) FROM evaluation_scoringchunk WHERE run_id = %s AND status = 'done'",
                run_id,
            )[0][0]  # type: ignore[call-overload]
        )

    def job() -> tuple[object, ...]:
        return query(
            postgres_database_url,
            "SELECT status, progress_done, progress_total, message FROM jobs_job WHERE id = %s",
            job_id,
        )[0]

    def in_flight() -> list[int]:
        rows = query(
            postgres_database_url,
            "SELECT id FROM evaluation_scoringchunk"
            " WHERE run_id = %s AND status = 'pending' AND attempts > 0",
            run_id,
        )
        return [int(row[0]) for row in rows]  # type: ignore[call-overload]

    # 1. A worker scores some chunks; its pool process is killed (as the kernel's out-of-memory
    # killer would): the chunk it held goes back to the queue and a new pool process goes on.
    # Then the whole worker is killed, children and all, in the middle of the run.
    redelivered: list[int] = []
    with worker({**env, "SLOW_SCORE_S": SLOW_SCORE_S}, log_path, queue, SLOW_SCORER) as first:
        wait_until(lambda: done_chunks() >= 2, 180, "two chunks to be stored", log)
        redelivered += in_flight()
        for child in children(first.pid):
            os.kill(child, signal.SIGKILL)
        wait_until(lambda: done_chunks() >= 5, 180, "five chunks to be stored", log)
        redelivered += in_flight()
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    stored_at_kill = done_chunks()
    assert 5 <= stored_at_kill < n_chunks, f"killed after {stored_at_kill} of {n_chunks} chunks"
    assert job()[0] == "running"
    assert "exited with 'signal 9 (SIGKILL)'" in log()  # the pool process's death was seen

    # 2. A new worker finishes the job, including the chunk the dead one held.
    with worker(env, log_path, queue, SLOW_SCORER):
        wait_until(lambda: job()[0] in ("done", "failed", "cancelled"), 240, "the run's job to end", log)
    status, done, total, message = job()
    assert status == "done", message
    assert done == total == 2 * int(created["pairs"])  # type: ignore[call-overload]
    assert str(message).startswith(f"Scored the {created['pairs']} pairs of 1 dataset with 1 configuration")

    # Every sentence of the dataset scored exactly once, every chunk done.
    [(rows, distinct)] = query(
        postgres_database_url,
        "SELECT count(*), count(DISTINCT sentence_key) FROM evaluation_sentencescore WHERE config_id = %s",
        config_id,
    )
    assert rows == distinct == created["unique"]
    # Every pair recorded once, with its two sentences' stored numbers.
    [(recorded, distinct_pairs, unmatched)] = query(
        postgres_database_url,
        "SELECT count(*), count(DISTINCT p.pair_id), count(*) FILTER (WHERE g.lp_sum <> p.good_sum"
        " OR b.lp_sum <> p.bad_sum OR g.n_tokens <> p.good_tokens OR b.n_tokens <> p.bad_tokens)"
        " FROM evaluation_pairscore p JOIN evaluation_pairkey k ON k.pair_id = p.pair_id"
        " JOIN evaluation_sentencescore g ON g.config_id = p.config_id AND g.sentence_key = k.good_key"
        " JOIN evaluation_sentencescore b ON b.config_id = p.config_id AND b.sentence_key = k.bad_key"
        " WHERE p.config_id = %s",
        config_id,
    )
    assert (recorded, distinct_pairs, unmatched) == (created["pairs"], created["pairs"], 0)
    statuses = query(
        postgres_database_url,
        "SELECT status, count(*) FROM evaluation_scoringchunk WHERE run_id = %s GROUP BY status",
        run_id,
    )
    assert statuses == [("done", n_chunks)]
    for chunk_id in redelivered:  # the chunks held by the killed processes were delivered again
        [(attempts,)] = query(
            postgres_database_url, "SELECT attempts FROM evaluation_scoringchunk WHERE id = %s", chunk_id
        )
        assert int(attempts) >= 2  # type: ignore[call-overload]
    assert log().count("Task evaluation.score_chunk[") >= n_chunks

    # The workers' numbers are the engine's, computed here.
    stored = query(
        postgres_database_url, "SELECT data FROM evaluation_sentencescore WHERE config_id = %s", config_id
    )
    scorer = load_scorer(ScorerSettings(method="causal", model=str(tiny_gpt2_folder)))
    datas = [row[0] if isinstance(row[0], dict) else json.loads(str(row[0])) for row in stored]
    sentences = [Sentence(d["text"], tuple(tuple(s) for s in d["word_spans"]) or None) for d in datas]  # type: ignore[index,misc]
    expected = scorer.score(sentences)  # type: ignore[arg-type]
    for data, score in zip(datas, expected, strict=True):
        assert data["tokens"] == score.tokens  # type: ignore[index]
        assert data["logprobs"] == pytest.approx(score.logprobs, abs=1e-5)  # type: ignore[index]
    assert not (tmp_path / "var" / "db.sqlite3").exists()  # PostgreSQL held everything


# Hand-made pair scores on the edges of the tie rule, recorded for the run's configuration;
# prints where PostgreSQL decides a pair unlike the engine, and whether the counted report is
# the engine's report of the same pairs. argv: run id.
OUTCOMES_SCRIPT = """
import json, sys
import django
django.setup()
from mpp_studio.evaluation import results
from mpp_studio.evaluation.models import ScoringRun
from scoring import metrics
from tests.web.evaluation.outcome_cases import outcome_mismatches, store_cases

run = ScoringRun.objects.get(pk=int(sys.argv[1]))
config, dataset = run.configs.get(), run.datasets.get()
stored = store_cases(config, dataset)
same = []
LINKINGS = ("sum", "mean", "bpt", "slln:alpha=0.5", "lognorm:beta=1", "penlp:alpha=0.8", "slor")
LINKINGS += ("morcela:beta=0.5,gamma=4",)  # each written as the platform gives it back
for reduction in LINKINGS:
    scored = results.scored_pairs(dataset, config, reduction=reduction)
    items = [p.pair_scores() for p in scored if p.outcome is not None]
    expected = metrics.pair_report(
        items, reduction=reduction, higher_is_better=reduction != "bpt", bootstrap=0
    ).to_dict()
    same.append(results.pair_report(dataset, config, reduction=reduction).to_dict() == expected)
print(json.dumps({"stored": stored, "mismatches": outcome_mismatches(config), "same": same}))
"""


def test_postgres_decides_every_pair_as_the_engine(
    postgres_database_url: str,  # noqa: F811
    tmp_path: Path,
    tiny_gpt2_folder: Path,
) -> None:
    """The outcome written in SQL (pair_outcomes.with_outcome) on PostgreSQL's floats: every
    edge case of the tie rule, under every linking function and tolerance, as scoring.metrics
    decides."""
    env = subprocess_env(tmp_path / "var", DATABASE_URL=postgres_database_url)
    run_manage(env, "migrate", "--noinput")
    created = run_script(env, PREPARE_SCRIPT, str(tiny_gpt2_folder), str(CHUNK_SIZE))
    checked = run_script(env, OUTCOMES_SCRIPT, str(created["run"]))
    assert checked == {"stored": len(CASES), "mismatches": [], "same": [True] * 8}
