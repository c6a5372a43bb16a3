"""With no REDIS_URL, a real `celery worker` process consumes tasks through the filesystem."""

from pathlib import Path

from tests.web.conftest import subprocess_env


def test_embedded_worker_consumes_task_without_redis(celery_round_trip, tmp_path: Path) -> None:
    """Producer and worker are separate processes sharing only var/celery/ folders."""
    var_dir = tmp_path / "var"
    result = celery_round_trip(subprocess_env(var_dir))
    assert result == {"echo": "hello", "database": "sqlite"}
    assert (var_dir / "celery" / "results").is_dir()
    assert any((var_dir / "celery" / "results").iterdir())
