"""200 participants starting at once, each twice, from 16 threads of another process: every PID
gets exactly one participation and the two lists stay balanced (100 and 100). On a SQLite file
(the default database) and, where it answers, on the machine's PostgreSQL."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.conftest import REPO_ROOT, run_manage, subprocess_env
from tests.web.test_services_integration import postgres_database_url  # noqa: F401  # a fixture

SCRIPT = Path(__file__).with_name("concurrent_starts.py")


def _run(env: dict[str, str]) -> dict[str, object]:
    run_manage(env, "migrate", "--noinput")
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "200"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _check(outcome: dict[str, object]) -> None:
    assert outcome["errors"] == []
    assert outcome["participations"] == 200
    assert outcome["distinct_pids"] == 200
    assert outcome["lists"] == {"0": 100, "1": 100}
    [[position, word]] = outcome["first_item_words"]  # type: ignore[misc]
    assert position == "subj" and word.startswith("n")


def test_concurrent_starts_on_sqlite(tmp_path: Path) -> None:
    _check(_run(subprocess_env(tmp_path / "var")))


@pytest.mark.integration
def test_concurrent_starts_on_postgres(tmp_path: Path, postgres_database_url: str) -> None:  # noqa: F811
    _check(_run(subprocess_env(tmp_path / "var", DATABASE_URL=postgres_database_url)))
