"""Fixtures for the platform tests: a tiny grammar library, users, and real worker processes."""

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

EN_NOUNS_CSV = "id,form,lemma,pos,number\nn1,cat,cat,N,sg\nn2,cats,cat,N,pl\n"
EN_NOUNS_SCHEMA = "language: en\nfeatures:\n  number:\n    type: category\n    values: [sg, pl]\n"
ZH_NOUNS_TSV = "id\tform\tlemma\tpos\tclassifier\nz1\t书\t书\tN\t本\nz2\t猫\t猫\tN\t只\n"
SV_AGREEMENT_YAML = """\
uid: en_sv_agreement
version: 1
phenomenon: subject_verb_agreement
language: en
description: The verb agrees in number with its subject.
vocabulary: ../../vocabularies/en_nouns.csv
"""
ZH_CLASSIFIER_YAML = """\
uid: zh_classifier_noun
phenomenon: classifiers
language: zh
description: 量词与名词搭配。
vocabulary: ../vocabularies/zh_nouns.tsv
"""


def write_library(root: Path) -> Path:
    """Write a two-language grammar library under `root` and return `root`.

    Vocabularies: en_nouns.csv (with a schema) and zh_nouns.tsv. Templates: en/agreement/
    sv_agreement.yaml and zh/classifier.yaml. Also a YAML file without a uid (not a template).
    """
    files = {
        "vocabularies/en_nouns.csv": EN_NOUNS_CSV,
        "vocabularies/en_nouns.schema.yaml": EN_NOUNS_SCHEMA,
        "vocabularies/zh_nouns.tsv": ZH_NOUNS_TSV,
        "en/agreement/sv_agreement.yaml": SV_AGREEMENT_YAML,
        "zh/classifier.yaml": ZH_CLASSIFIER_YAML,
        "en/notes.yaml": "title: reading list\n",
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    return write_library(tmp_path / "library")


def subprocess_env(var_dir: Path, **extra: str) -> dict[str, str]:
    """Return an environment for a manage.py or celery child: our paths, no inherited stack."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        PYTHONPATH=os.pathsep.join([str(REPO_ROOT / "platform"), str(REPO_ROOT)]),
        DJANGO_SETTINGS_MODULE="mpp_studio.settings.test",
        MPP_VAR_DIR=str(var_dir),
    )
    env.update(extra)
    return env


def run_manage(env: Mapping[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run `manage.py <args>` in a child process; fail the test with its output if it fails."""
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "manage.py"), *args],
        cwd=REPO_ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, f"manage.py {' '.join(args)}:\n{result.stdout}{result.stderr}"
    return result


WORKER_ARGS = [
    *("-m", "celery", "-A", "mpp_studio", "worker", "-c", "1", "-l", "info"),
    *("--without-gossip", "--without-mingle", "--without-heartbeat"),
]

PING_SCRIPT = """
import json, sys
import django
django.setup()
from mpp_studio.core.tasks import ping
result = ping.apply_async(args=[sys.argv[1]], queue=sys.argv[2])
print(json.dumps(result.get(timeout=float(sys.argv[3]))))
"""


@pytest.fixture
def celery_round_trip(tmp_path: Path) -> Iterator[Callable[[Mapping[str, str]], dict[str, str]]]:
    """Return a function that starts a real worker, sends `core.ping` from another process and
    returns the task's result. Each call uses its own queue; workers are stopped afterwards.
    """
    workers: list[subprocess.Popen[bytes]] = []

    def round_trip(env: Mapping[str, str]) -> dict[str, str]:
        queue = f"test-{uuid.uuid4().hex[:12]}"
        log_path = tmp_path / f"worker-{queue}.log"
        with log_path.open("wb") as log:
            worker = subprocess.Popen(
                [sys.executable, *WORKER_ARGS, "-Q", queue],
                cwd=REPO_ROOT,
                env=dict(env),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        workers.append(worker)
        sent = subprocess.run(
            [sys.executable, "-c", PING_SCRIPT, "hello", queue, "90"],
            cwd=REPO_ROOT,
            env=dict(env),
            capture_output=True,
            text=True,
            timeout=120,
        )
        worker_log = log_path.read_text(errors="replace")
        assert sent.returncode == 0, f"producer:\n{sent.stderr}\nworker:\n{worker_log}"
        assert "Task core.ping[" in worker_log, worker_log
        return json.loads(sent.stdout.strip().splitlines()[-1])

    yield round_trip

    for worker in workers:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
