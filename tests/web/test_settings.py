"""Settings read the environment: DATABASE_URL and REDIS_URL switch to the real stack."""

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

REPO_ROOT = Path(__file__).resolve().parents[2]
BASE_SETTINGS = REPO_ROOT / "platform" / "mpp_studio" / "settings" / "base.py"


@pytest.fixture
def load_base(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Return a function that runs settings/base.py afresh under the given environment."""

    def load(**env: str) -> dict[str, object]:
        for name in ("DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG", "DJANGO_ALLOWED_HOSTS", "MPP_TOKENIZERS"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("MPP_VAR_DIR", str(tmp_path / "var"))
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(str(BASE_SETTINGS))

    return load


def test_settings_default_database_is_sqlite_file_in_var_dir(load_base, tmp_path: Path) -> None:
    """With no DATABASE_URL, the database is var/db.sqlite3 and its folder exists."""
    db = load_base()["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(db["NAME"]) == tmp_path / "var" / "db.sqlite3"
    assert (tmp_path / "var").is_dir()


def test_settings_database_url_selects_postgresql(load_base) -> None:
    """DATABASE_URL is parsed into PostgreSQL connection settings."""
    db = load_base(DATABASE_URL="postgres://mpp:s3cret@db.internal:5433/mpp_studio")["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["HOST"], db["PORT"], db["NAME"]) == ("db.internal", 5433, "mpp_studio")
    assert (db["USER"], db["PASSWORD"]) == ("mpp", "s3cret")


def test_settings_default_broker_is_filesystem_under_var_celery(load_base, tmp_path: Path) -> None:
    """With no REDIS_URL, Celery uses kombu's filesystem transport with folders in var/celery/."""
    settings = load_base()
    celery_dir = tmp_path / "var" / "celery"
    assert settings["CELERY_BROKER_URL"] == "filesystem://"
    options = settings["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert options["data_folder_in"] == options["data_folder_out"] == str(celery_dir / "queue")
    assert options["control_folder"] == str(celery_dir / "control")
    assert settings["CELERY_RESULT_BACKEND"] == f"file://{celery_dir / 'results'}"
    for folder in ("queue", "control", "results"):
        assert (celery_dir / folder).is_dir()


def test_settings_redis_url_selects_redis_broker_and_results(load_base, tmp_path: Path) -> None:
    """REDIS_URL becomes broker and result backend, and no local folders are made."""
    settings = load_base(REDIS_URL="redis://cache.internal:6379/2")
    assert settings["CELERY_BROKER_URL"] == "redis://cache.internal:6379/2"
    assert settings["CELERY_RESULT_BACKEND"] == "redis://cache.internal:6379/2"
    # Connections time out rather than hang; kombu's hour of visibility timeout unless set.
    assert settings["CELERY_BROKER_TRANSPORT_OPTIONS"] == {"socket_connect_timeout": 5, "socket_timeout": 10}
    assert settings["CELERY_BROKER_CONNECTION_MAX_RETRIES"] is None  # a worker outlives any outage
    assert not (tmp_path / "var" / "celery").exists()


def test_settings_visibility_timeout_joins_the_redis_transport_options(load_base) -> None:
    settings = load_base(REDIS_URL="redis://cache.internal:6379/2", MPP_BROKER_VISIBILITY_TIMEOUT="7200")
    assert settings["CELERY_BROKER_TRANSPORT_OPTIONS"]["visibility_timeout"] == 7200
    assert settings["CELERY_BROKER_TRANSPORT_OPTIONS"]["socket_connect_timeout"] == 5


@pytest.mark.parametrize(("raw", "expected"), [("true", True), ("1", True), ("false", False)])
def test_settings_debug_is_read_as_bool(load_base, raw: str, expected: bool) -> None:
    assert load_base(DJANGO_DEBUG=raw)["DEBUG"] is expected


def test_settings_allowed_hosts_is_a_comma_list(load_base) -> None:
    hosts = load_base(DJANGO_ALLOWED_HOSTS="mpp.example.org,localhost")["ALLOWED_HOSTS"]
    assert hosts == ["mpp.example.org", "localhost"]


def test_settings_grammar_library_is_never_an_html_template_dir(load_base) -> None:
    """templates/ holds grammar templates: it is GRAMMAR_LIBRARY_DIR, not a TEMPLATES dir."""
    settings = load_base()
    assert settings["GRAMMAR_LIBRARY_DIR"] == REPO_ROOT / "templates"
    for backend in settings["TEMPLATES"]:
        assert REPO_ROOT / "templates" not in [Path(d) for d in backend["DIRS"]]


def test_settings_production_requires_secret_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Production has no default secret key: starting without one is an error, not a risk."""
    monkeypatch.delenv("DJANGO_SECRET_KEY", raising=False)
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "mpp.example.org")
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY"):
        runpy.run_module("mpp_studio.settings.production")


def test_settings_production_reads_secret_key_and_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_SECRET_KEY", "a-real-secret")
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "mpp.example.org")
    settings = runpy.run_module("mpp_studio.settings.production")
    assert settings["SECRET_KEY"] == "a-real-secret"
    assert settings["ALLOWED_HOSTS"] == ["mpp.example.org"]
    assert settings["DEBUG"] is False


def test_settings_quality_report_tokenizers_come_from_the_environment(load_base) -> None:
    """MPP_TOKENIZERS names local tokenizer folders; none by default."""
    assert load_base()["MPP_TOKENIZERS"] == {}
    settings = load_base(MPP_TOKENIZERS="gpt2=/models/gpt2,bert=/models/bert")
    assert settings["MPP_TOKENIZERS"] == {"gpt2": "/models/gpt2", "bert": "/models/bert"}


def _database_settings(database_url: str | None) -> list[str]:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(DJANGO_SETTINGS_MODULE="mpp_studio.settings.test", PYTHONPATH="platform:.")
    if database_url:
        env["DATABASE_URL"] = database_url
    code = (
        "import django; django.setup(); from django.conf import settings;"
        "d = settings.DATABASES['default']; print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
    )
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return run.stdout.split()


def test_a_server_database_keeps_its_connections_with_health_checks() -> None:
    assert _database_settings("postgres://u@127.0.0.1:5432/x") == ["60", "True"]
    assert _database_settings(None) == ["0", "False"]  # the embedded SQLite: Django's defaults


def _deploy_check(**env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "MPP_"))}
    environment.update(
        DJANGO_SETTINGS_MODULE="mpp_studio.settings.production",
        DJANGO_SECRET_KEY="x" * 60 + "-a-long-random-secret-for-the-check",
        DJANGO_ALLOWED_HOSTS="mpp.example.org,localhost,127.0.0.1",
        PYTHONPATH=os.pathsep.join([str(REPO_ROOT / "platform"), str(REPO_ROOT)]),
        **env,
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_settings_production_passes_the_deploy_check(tmp_path: Path) -> None:
    """`manage.py check --deploy` with the production settings and only the required environment
    (a secret key and the host names) reports nothing, not even a warning."""
    result = _deploy_check(MPP_VAR_DIR=str(tmp_path / "var"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_settings_production_over_plain_http_is_flagged_by_the_deploy_check(tmp_path: Path) -> None:
    """DJANGO_SECURE_COOKIES=false (trying the stack on http://localhost) turns off secure cookies,
    the https redirect and HSTS together, and the deploy check says so."""
    result = _deploy_check(MPP_VAR_DIR=str(tmp_path / "var"), DJANGO_SECURE_COOKIES="false")
    assert result.returncode != 0
    for code in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert code in result.stderr + result.stdout, code


def test_settings_production_https_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_SECRET_KEY", "a-real-secret")
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "mpp.example.org")
    monkeypatch.setenv("DJANGO_DEBUG", "true")
    for name in ("DJANGO_SECURE_COOKIES", "DJANGO_SECURE_SSL_REDIRECT", "DJANGO_SECURE_HSTS_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    settings = runpy.run_module("mpp_studio.settings.production")
    assert settings["DEBUG"] is False  # DJANGO_DEBUG cannot turn the debug pages on
    assert settings["SECURE_SSL_REDIRECT"] is True
    assert settings["SECURE_HSTS_SECONDS"] == 31_536_000
    assert settings["SESSION_COOKIE_SECURE"] and settings["CSRF_COOKIE_SECURE"]
    assert settings["SECURE_REDIRECT_EXEMPT"] == [r"^healthz$"]
    monkeypatch.setenv("DJANGO_SECURE_HSTS_SECONDS", "300")
    assert runpy.run_module("mpp_studio.settings.production")["SECURE_HSTS_SECONDS"] == 300


def test_settings_production_logs_a_server_error_with_its_traceback(tmp_path: Path) -> None:
    """In production an unhandled error's traceback reaches standard error (the container log),
    not only the mail Django's default sends to ADMINS."""
    script = (
        "import django, logging\n"
        "django.setup()\n"
        "try:\n"
        "    raise RuntimeError('boom in a view')\n"
        "except RuntimeError:\n"
        "    logging.getLogger('django.request').error('Internal Server Error: /x/', exc_info=True)\n"
    )
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "MPP_"))}
    environment.update(
        DJANGO_SETTINGS_MODULE="mpp_studio.settings.production",
        DJANGO_SECRET_KEY="a-real-secret",
        DJANGO_ALLOWED_HOSTS="localhost",
        MPP_VAR_DIR=str(tmp_path / "var"),
        PYTHONPATH=os.pathsep.join([str(REPO_ROOT / "platform"), str(REPO_ROOT)]),
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "ERROR django.request: Internal Server Error: /x/" in result.stderr
    assert "RuntimeError: boom in a view" in result.stderr
