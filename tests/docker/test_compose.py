"""The deployment files in docker/: compose structure, images, install pins and documentation.

No Docker engine is needed: the compose files are read as YAML and checked against what the
services must have in production. Where `docker compose` is installed, it validates the files
against the Compose schema as well (CI's docker/check-image-steps.sh always does).
"""

import importlib.util
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
DOCKER = REPO_ROOT / "docker"
COMPOSE_FILES = ("compose.yml", "compose.gpu-worker.yml", "compose.remote-workers.yml")
# Long-running services: each must restart by itself and report its health.
LONG_RUNNING = ("postgres", "redis", "web", "worker-cpu", "worker-gpu", "flower")
# `${VAR}`, `${VAR:-default}`, `${VAR:?message}`; `$$` is compose's escape for a literal `$`.
VARIABLE = re.compile(r"(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)")


def load(name: str) -> dict[str, Any]:
    """Return the parsed compose file docker/`name` (merge keys resolved)."""
    data = yaml.safe_load((DOCKER / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict), name
    return data


@pytest.fixture(scope="module")
def stack() -> dict[str, Any]:
    """Return docker/compose.yml's services by name."""
    services = load("compose.yml")["services"]
    assert isinstance(services, dict)
    return services


def command_words(service: dict[str, Any]) -> list[str]:
    """Return a service's command as a list of words, whichever form the file uses."""
    command = service.get("command", [])
    return shlex.split(command) if isinstance(command, str) else [str(word) for word in command]


def documented_variables() -> set[str]:
    """Return the variable names docker/env.example documents, set or commented out."""
    text = (DOCKER / "env.example").read_text(encoding="utf-8")
    return set(re.findall(r"^(?:# )?([A-Z][A-Z0-9_]*)=", text, flags=re.MULTILINE))


def test_services_and_profiles(stack: dict[str, Any]) -> None:
    """The stack has every service the deployment needs; GPU worker and Flower are opt-in."""
    assert set(stack) == {"postgres", "redis", "migrate", *LONG_RUNNING}
    profiles = {name: service.get("profiles", []) for name, service in stack.items()}
    assert profiles["worker-gpu"] == ["gpu"]
    assert profiles["flower"] == ["flower"]
    assert all(not p for name, p in profiles.items() if name not in ("worker-gpu", "flower"))


@pytest.mark.parametrize("name", LONG_RUNNING)
def test_long_running_services_restart_log_and_report_health(stack: dict[str, Any], name: str) -> None:
    """Each long-running service restarts by itself, rotates its log and has a health check."""
    service = stack[name]
    assert service["restart"] == "unless-stopped"
    assert service["logging"]["options"]["max-size"]
    health = service["healthcheck"]
    assert not health.get("disable", False)
    assert health["test"][0] in ("CMD", "CMD-SHELL")
    assert {"interval", "timeout", "retries"} <= set(health)


def test_migrations_run_once_before_anything_uses_the_database(stack: dict[str, Any]) -> None:
    """A one-shot migrate job; web and the workers wait for it and never migrate themselves."""
    migrate = stack["migrate"]
    assert command_words(migrate) == ["python", "manage.py", "migrate", "--noinput"]
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("web", "worker-cpu", "worker-gpu"):
        service = stack[name]
        assert "DATABASE_URL" in service["environment"]
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully", name
        assert "migrate" not in command_words(service), name


def test_state_lives_on_named_volumes(stack: dict[str, Any]) -> None:
    """PostgreSQL's data, Redis's append-only file and fetched models are on declared volumes."""
    declared = set(load("compose.yml")["volumes"])
    mounts = {
        (name, mount.split(":")[1]): mount.split(":")[0]
        for name, service in stack.items()
        for mount in service.get("volumes", [])
    }
    assert mounts[("postgres", "/var/lib/postgresql/data")] in declared
    assert mounts[("redis", "/data")] in declared
    assert mounts[("worker-gpu", "/home/mpp/.cache/huggingface")] in declared
    # Uploads the web server keeps for the import jobs of the CPU worker: one volume for both.
    assert mounts[("web", "/app/var/uploads")] == mounts[("worker-cpu", "/app/var/uploads")] == "uploads"
    assert "uploads" in declared
    named = {source for source in mounts.values() if not source.startswith(("$", ".", "/"))}
    assert named <= declared
    assert "--appendonly yes" in " ".join(command_words(stack["redis"]))


@pytest.mark.parametrize(
    ("file", "name"), [("compose.yml", "worker-gpu"), ("compose.gpu-worker.yml", "worker-gpu")]
)
def test_gpu_worker_runs_one_task_at_a_time_on_the_cuda_image(file: str, name: str) -> None:
    """The GPU worker takes the gpu queue, one task and one reserved message at a time."""
    service = load(file)["services"][name]
    words = command_words(service)
    assert words[:4] == ["celery", "-A", "mpp_studio", "worker"]
    assert words[words.index("-Q") + 1] == "gpu"
    assert words[words.index("--concurrency") + 1] == "1"
    assert words[words.index("--prefetch-multiplier") + 1] == "1"
    assert service["build"]["dockerfile"] == "docker/Dockerfile.cuda"
    (device,) = service["deploy"]["resources"]["reservations"]["devices"]
    assert device["driver"] == "nvidia" and device["capabilities"] == ["gpu"]


def test_remote_gpu_worker_matches_the_stack_worker(stack: dict[str, Any]) -> None:
    """The other-host worker runs the same command and mounts models where the stack does."""
    remote = load("compose.gpu-worker.yml")["services"]["worker-gpu"]
    assert command_words(remote) == command_words(stack["worker-gpu"])
    # The models where the stack has them; the uploads volume is the CPU workers' concern (imports).
    stack_mounts = [m for m in stack["worker-gpu"]["volumes"] if not m.startswith("uploads:")]
    assert remote["volumes"] == stack_mounts
    assert remote["environment"]["MPP_MODEL_DIRS"] == stack["worker-gpu"]["environment"]["MPP_MODEL_DIRS"]


def test_flower_is_local_only_and_needs_a_password(stack: dict[str, Any]) -> None:
    """Flower publishes on 127.0.0.1 only and refuses to start without basic auth."""
    flower = stack["flower"]
    assert all(port.startswith("127.0.0.1:") for port in flower["ports"])
    script = " ".join(command_words(flower))
    assert 'test -n "$$FLOWER_BASIC_AUTH"' in script
    assert "exec celery -A mpp_studio flower" in script


def test_web_and_flower_ports_bind_to_a_chosen_address(stack: dict[str, Any]) -> None:
    """No port is published on every interface by default."""
    (web_port,) = stack["web"]["ports"]
    assert web_port.startswith("${WEB_BIND_ADDRESS:-127.0.0.1}:")
    for name, service in stack.items():
        for port in service.get("ports", []):
            assert port.count(":") >= 2, f"{name} publishes {port} on all interfaces"


def test_secrets_are_required_and_never_defaulted() -> None:
    """Compose stops with a message when a secret is missing; env.example ships none."""
    text = (DOCKER / "compose.yml").read_text(encoding="utf-8")
    example = (DOCKER / "env.example").read_text(encoding="utf-8")
    for secret in ("DJANGO_SECRET_KEY", "POSTGRES_PASSWORD", "REDIS_PASSWORD"):
        uses = re.findall(r"\$\{" + secret + r"(:[-?][^}]*)?\}", text)
        assert uses and all(use.startswith(":?") for use in uses), secret
        assert re.search(rf"^{secret}=$", example, flags=re.MULTILINE), secret


@pytest.mark.parametrize("file", COMPOSE_FILES)
def test_every_variable_is_documented_in_env_example(file: str) -> None:
    """Each variable a compose file reads, or passes through unset, is explained in env.example."""
    text = (DOCKER / file).read_text(encoding="utf-8")
    used = set(VARIABLE.findall(text))
    for service in load(file)["services"].values():
        environment = service.get("environment", {})
        used |= {key for key, value in environment.items() if value is None}
    assert used
    assert used - documented_variables() == set()


@pytest.mark.parametrize("file", COMPOSE_FILES[:2])
def test_builds_and_commands_point_at_real_files_and_modules(file: str) -> None:
    """Dockerfiles, the gunicorn config, the health check and the app modules all exist."""
    for name, service in load(file)["services"].items():
        if "build" in service:
            assert (DOCKER / service["build"]["context"] / service["build"]["dockerfile"]).is_file(), name
        words = command_words(service)
        if words[:2] == ["celery", "-A"]:
            assert importlib.util.find_spec(f"{words[2]}.celery") is not None, name
        if words[:1] == ["gunicorn"]:
            assert (REPO_ROOT / words[words.index("-c") + 1]).is_file()
            assert importlib.util.find_spec(words[-1]) is not None
        if words[:2] == ["python", "manage.py"]:
            assert (REPO_ROOT / "manage.py").is_file()
        health = service.get("healthcheck", {}).get("test", [])
        for word in health:
            if str(word).startswith("docker/"):
                assert (REPO_ROOT / word).is_file(), word


def test_worker_queues_exist_in_the_celery_app(stack: dict[str, Any]) -> None:
    """The queues the workers consume are the ones the Celery app declares."""
    from mpp_studio.celery import app

    declared = {queue.name for queue in app.conf.task_queues}
    for name in ("worker-cpu", "worker-gpu"):
        words = command_words(stack[name])
        assert set(words[words.index("-Q") + 1].split(",")) <= declared, name


@pytest.mark.parametrize("dockerfile", ["Dockerfile", "Dockerfile.cuda"])
def test_images_install_with_the_shared_script_and_run_as_a_user(dockerfile: str) -> None:
    """Both images install through docker/install.sh and drop root; every COPY source exists."""
    text = (DOCKER / dockerfile).read_text(encoding="utf-8")
    assert re.search(r"^RUN .*sh docker/install\.sh python\b", text, flags=re.MULTILINE | re.DOTALL)
    users = re.findall(r"^USER (\S+)", text, flags=re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    assert "HEALTHCHECK" in text
    settings = re.search(r"DJANGO_SETTINGS_MODULE=(\S+)", text)
    assert settings and importlib.util.find_spec(settings.group(1)) is not None
    for line in re.findall(r"^COPY (.+)$", text, flags=re.MULTILINE):
        *sources, _destination = line.split()
        for source in sources:
            if source != ".":
                assert (REPO_ROOT / source).exists(), f"{dockerfile}: COPY {source}"


def compose_cli() -> list[str] | None:
    """Return the command that runs Docker Compose v2 here, or None when there is none."""
    for command in (["docker", "compose"], ["docker-compose"]):
        try:
            done = subprocess.run([*command, "version"], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0 and "v2." in done.stdout:
            return command
    return None


def test_docker_compose_config_validates(tmp_path: Path) -> None:
    """`docker compose config` accepts every file and profile with env.example's settings."""
    cli = compose_cli()
    if cli is None:
        pytest.skip("Docker Compose v2 is not installed; CI's docker/check-image-steps.sh runs it")
    env = (DOCKER / "env.example").read_text(encoding="utf-8")
    env = re.sub(r"^(DJANGO_SECRET_KEY|POSTGRES_PASSWORD|REDIS_PASSWORD)=$", r"\1=test", env, flags=re.M)
    env = re.sub(r"^# (DATABASE_URL|REDIS_URL|PRIVATE_ADDRESS)=", r"\1=", env, flags=re.M)
    (tmp_path / ".env").write_text(env, encoding="utf-8")
    runs = [
        ["-f", "docker/compose.yml", "--profile", "gpu", "--profile", "flower"],
        ["-f", "docker/compose.yml", "-f", "docker/compose.remote-workers.yml"],
        ["-f", "docker/compose.gpu-worker.yml"],
    ]
    for files in runs:
        done = subprocess.run(
            [*cli, "--env-file", str(tmp_path / ".env"), *files, "config", "--quiet"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
    # A missing secret stops compose with the message env.example's reader needs.
    (tmp_path / ".env").write_text(env.replace("REDIS_PASSWORD=test", "REDIS_PASSWORD="), encoding="utf-8")
    done = subprocess.run(
        [*cli, "--env-file", str(tmp_path / ".env"), "-f", "docker/compose.yml", "config", "--quiet"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "set REDIS_PASSWORD in docker/.env" in done.stderr


def test_ci_image_check_runs_the_cpu_dockerfile_steps() -> None:
    """docker/check-image-steps.sh runs the CPU Dockerfile's install and collectstatic as written."""
    dockerfile = (DOCKER / "Dockerfile").read_text(encoding="utf-8")
    check = (DOCKER / "check-image-steps.sh").read_text(encoding="utf-8")
    install = re.search(r"sh docker/install\.sh python( \w+)?$", dockerfile, flags=re.MULTILINE)
    assert install is not None
    assert re.search(
        r'sh "\$app/docker/install\.sh" "\$venv_python"' + (install.group(1) or "") + r"\b", check
    )
    collect = re.search(r"^RUN (.*?)\\\n\s+(python manage\.py collectstatic --noinput)", dockerfile, re.M)
    assert collect is not None
    build_env = collect.group(1).strip()
    assert f'{build_env} \\\n  "$venv_python" manage.py collectstatic --noinput' in check
    for name in ("DJANGO_SETTINGS_MODULE", "PYTHONPATH"):
        value = re.search(rf"{name}=(\S+)", dockerfile)
        exported = re.search(rf"^export {name}=(\S+)", check, flags=re.MULTILINE)
        assert value and exported, name
        assert exported.group(1).strip('"').replace("$app", "/app") == value.group(1), name
