"""What the server load benchmarks share: management commands and scripts in a subprocess, a
throwaway PostgreSQL database, percentiles. Imported as `bench.server_stack` (the scripts put the
repository root on sys.path)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(env: dict[str, str], *args: str, script: str | None = None) -> str:
    """Run `manage.py args` (or the Python `script` with `args`) under `env`; return its stdout,
    or stop the benchmark with its output when it fails."""
    command = [sys.executable, *(["-c", script] if script else [str(ROOT / "manage.py")]), *args]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def percentile(values: list[float], share: float) -> float:
    """Return the value below which `share` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@contextlib.contextmanager
def throwaway_database(server_url: str) -> Iterator[str]:
    """Yield the URL of a new database on the server `server_url` names; drop it afterwards."""
    import psycopg
    from psycopg import sql

    name = f"mpp_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield server_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
