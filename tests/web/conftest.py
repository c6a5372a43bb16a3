"""Fixtures for the platform tests: a tiny grammar library, users, and real worker processes."""

import contextlib
import io
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

# The browser test modules import helpers from tests/web/browser.py before `pytest_plugins` loads it.
pytest.register_assert_rewrite("tests.web.browser", "tests.web.paradigms.editor_browser")

EN_NOUNS_CSV = """\
id,form,lemma,pos,number
n1,cat,cat,NN,sg
n2,cats,cat,NN,pl
n3,dog,dog,NN,sg
n4,dogs,dog,NN,pl
n5,bird,bird,NN,sg
n6,birds,bird,NN,pl
n7,horse,horse,NN,sg
n8,horses,horse,NN,pl
v1,sleep,sleep,VB,
v2,run,run,VB,
v3,jump,jump,VB,
v4,swim,swim,VB,
"""
EN_NOUNS_SCHEMA = "language: en\nfeatures:\n  number:\n    type: category\n    values: [sg, pl]\n"
ZH_NOUNS_TSV = (
    "id\tform\tlemma\tpos\tclassifier\n"
    "z1\t书\t书\tN\t本\nz2\t猫\t猫\tN\t只\nz3\t狗\t狗\tN\t只|条\nz4\t鱼\t鱼\tN\t条\n"
    "z5\t纸\t纸\tN\t张\nz6\t桌子\t桌子\tN\t张\nz7\t杂志\t杂志\tN\t本\nz8\t鸟\t鸟\tN\t只\n"
    "z9\t河\t河\tN\t条\nz10\t床\t床\tN\t张\n"
    "c1\t本\t本\tCL\t本\nc2\t只\t只\tCL\t只\nc3\t条\t条\tCL\t条\nc4\t张\t张\tCL\t张\n"
)
# 4 singular nouns x 4 verbs: 16 different good sentences.
SV_AGREEMENT_YAML = """\
uid: en_sv_agreement
version: "1"
phenomenon: subject_verb_agreement
language: en
description: The verb agrees in number with its subject.
source: BLiMP regular_plural_subject_verb_agreement_1
example: {good: The cat sleeps., bad: The cat sleep.}
vocabulary: ../../vocabularies/en_nouns.csv
good:
  - {direct: the}
  - {id: subj, lexical: {pos: NN, number: sg}}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
  - {direct: "."}
bad:
  - {same: "1"}
  - {same: subj}
  - {same: verb, form: VBP}
  - {same: "4"}
"""
# Each noun with its own classifier, against any other classifier: 11 different good phrases.
ZH_CLASSIFIER_YAML = """\
uid: zh_classifier_noun
phenomenon: classifiers
language: zh
description: 量词与名词搭配。
example: {good: 一本书, bad: 一只书}
vocabulary: ../vocabularies/zh_nouns.tsv
good:
  - {direct: 一}
  - {id: cl, lexical: {pos: CL}, matched: noun, on: classifier}
  - {id: noun, lexical: {pos: N}}
bad:
  - {same: "1"}
  - {id: wrong, lexical: {pos: CL}, mismatched: noun, on: classifier}
  - {same: noun}
"""
# Valid YAML, but `number: dual` is not a value the vocabulary's schema declares (line 8).
INVALID_TEMPLATE_YAML = """\
uid: en_invalid_agreement
phenomenon: subject_verb_agreement
language: en
description: Asks for a number the vocabulary does not have.
vocabulary: ../../vocabularies/en_nouns.csv
good:
  - {direct: the}
  - {id: subj, lexical: {pos: NN, number: dual}}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
bad:
  - {same: "1"}
  - {same: subj}
  - {same: verb, form: VBP}
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


@pytest.fixture
def loaded_library(library_dir: Path, db: None) -> Path:
    """The tiny library, imported (two valid paradigms); returns its folder."""
    from django.core.management import call_command

    call_command("load_demo", "--library", str(library_dir), stdout=io.StringIO())
    return library_dir


@pytest.fixture
def library_with_problems(library_dir: Path) -> Path:
    """The tiny library plus an invalid template (line 8) and a file that is not YAML (line 3)."""
    (library_dir / "en" / "agreement" / "invalid.yaml").write_text(INVALID_TEMPLATE_YAML, encoding="utf-8")
    (library_dir / "en" / "broken.yaml").write_text(
        "uid: en_broken\nphenomenon: [unclosed\n", encoding="utf-8"
    )
    return library_dir


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


# -- People and projects -------------------------------------------------------------------------
# Every platform test builds its people here: `owner`, `editor` and `viewer` of `project`, and
# `outsider`, who owns `other_project` and must never see `project`'s data (403/404).

PASSWORD = "correct-horse-battery-9"


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    """Empty the cache (rate-limit counters, lockouts) around every test: all test clients share
    one address, so counts must not carry from one test to the next."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _uploads_in_tmp(tmp_path: Path, settings: Any) -> None:
    """Uploads kept for background jobs go to the test's own folder, never the repository's var/."""
    settings.MPP_UPLOAD_DIR = tmp_path / "uploads"


@contextlib.contextmanager
def import_jobs_run_now() -> Iterator[None]:
    """Patch each import task's `delay_on_commit` to run its job at once, inside the request, as a
    worker would after it (the tests' transaction never commits, so the real on-commit send would
    never happen): released datasets, vocabulary files (imported, or read and applied as updates),
    ZhoBLiMP projects, library paradigms, learner corpora."""
    from unittest import mock

    from mpp_studio.datasets.services import dataset_import_run
    from mpp_studio.datasets.tasks import import_files
    from mpp_studio.learner.services import corpus_read
    from mpp_studio.learner.tasks import read_corpus
    from mpp_studio.lexicon.services.import_jobs import vocabulary_import_run
    from mpp_studio.lexicon.services.updates import vocabulary_update_apply_run, vocabulary_update_read_run
    from mpp_studio.lexicon.tasks import apply_vocabulary_update, import_vocabulary, read_vocabulary_update
    from mpp_studio.paradigms.services.library_into_project import library_templates_import_run
    from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_run
    from mpp_studio.paradigms.tasks import import_library, import_zhoblimp

    runs: list[tuple[Any, Callable[[int], None]]] = [
        (import_files, lambda dataset_id: dataset_import_run(dataset_id=dataset_id)),
        (import_vocabulary, lambda import_id: vocabulary_import_run(import_id=import_id)),
        (read_vocabulary_update, lambda update_id: vocabulary_update_read_run(update_id=update_id)),
        (apply_vocabulary_update, lambda update_id: vocabulary_update_apply_run(update_id=update_id)),
        (import_zhoblimp, lambda import_id: zhoblimp_import_run(import_id=import_id)),
        (import_library, lambda import_id: library_templates_import_run(import_id=import_id)),
        (read_corpus, lambda corpus_id: corpus_read(corpus_id=corpus_id)),
    ]
    with contextlib.ExitStack() as stack:
        for task, run in runs:
            stack.enter_context(mock.patch.object(task, "delay_on_commit", run))
        yield


@pytest.fixture
def run_jobs_now() -> Iterator[None]:
    """Run the background jobs a request queues (imports of datasets, vocabularies, ZhoBLiMP
    projects and library paradigms; learner corpus reads) at once, inside the request: for page
    and API tests that follow a job to its end."""
    with import_jobs_run_now():
        yield


@pytest.fixture
def import_worker() -> Iterator[None]:
    """For tests on a live server (a browser): each import job a request queues for the paradigms
    and lexicon apps (vocabulary files and updates, ZhoBLiMP projects, library paradigms, the
    recount of templates after a vocabulary change) runs in a thread of
    its own once the request commits, as a worker would take the message, a second later (so that
    the page that follows the job shows it waiting, then updates itself)."""
    import threading
    import time
    from unittest import mock

    from django.db import connection

    from mpp_studio.lexicon.services.import_jobs import vocabulary_import_run
    from mpp_studio.lexicon.services.updates import vocabulary_update_apply_run, vocabulary_update_read_run
    from mpp_studio.lexicon.tasks import apply_vocabulary_update, import_vocabulary, read_vocabulary_update
    from mpp_studio.paradigms.services.library_into_project import library_templates_import_run
    from mpp_studio.paradigms.services.recount import templates_recount_run
    from mpp_studio.paradigms.services.zhoblimp_import import zhoblimp_import_run
    from mpp_studio.paradigms.tasks import import_library, import_zhoblimp, recount_templates

    def in_a_thread(run: Callable[..., None], argument: str = "import_id") -> Callable[[int], None]:
        def work(row_id: int) -> None:
            time.sleep(1.0)
            try:
                run(**{argument: row_id})
            finally:
                connection.close()

        return lambda row_id: threading.Thread(target=work, args=(row_id,)).start()

    with contextlib.ExitStack() as stack:
        for task, run, argument in (
            (import_vocabulary, vocabulary_import_run, "import_id"),
            (read_vocabulary_update, vocabulary_update_read_run, "update_id"),
            (apply_vocabulary_update, vocabulary_update_apply_run, "update_id"),
            (import_zhoblimp, zhoblimp_import_run, "import_id"),
            (import_library, library_templates_import_run, "import_id"),
            (recount_templates, templates_recount_run, "project_id"),
        ):
            stack.enter_context(mock.patch.object(task, "delay", in_a_thread(run, argument)))
        yield


@pytest.fixture
def make_user(db: None) -> Callable[..., object]:
    from django.contrib.auth import get_user_model

    def make(username: str, **extra: object) -> object:
        return get_user_model().objects.create_user(username, password=PASSWORD, **extra)

    return make


@pytest.fixture
def owner(make_user: Callable[..., object]) -> object:
    return make_user("olga")


@pytest.fixture
def editor(make_user: Callable[..., object]) -> object:
    return make_user("ed")


@pytest.fixture
def viewer(make_user: Callable[..., object]) -> object:
    return make_user("vic")


@pytest.fixture
def outsider(make_user: Callable[..., object]) -> object:
    return make_user("otto")


@pytest.fixture
def project(owner: object, editor: object, viewer: object) -> object:
    from mpp_studio.accounts.models import Membership, Project
    from mpp_studio.accounts.roles import Role

    project = Project.objects.create(name="Agreement study", created_by=owner)
    for user, role in ((owner, Role.OWNER), (editor, Role.EDITOR), (viewer, Role.VIEWER)):
        Membership.objects.create(project=project, user=user, role=role)
    return project


@pytest.fixture
def other_project(outsider: object) -> object:
    from mpp_studio.accounts.models import Membership, Project
    from mpp_studio.accounts.roles import Role

    project = Project.objects.create(name="Someone else's", created_by=outsider)
    Membership.objects.create(project=project, user=outsider, role=Role.OWNER)
    return project


@pytest.fixture
def api_client_for() -> Callable[[object], object]:
    """Return a function giving a DRF APIClient authenticated with the user's token."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    def client_for(user: object) -> APIClient:
        client = APIClient()
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return client_for
