#!/usr/bin/env bash
# Run MPP Studio on this machine: set up .venv, migrate the database (SQLite unless DATABASE_URL),
# load the demo user and grammar library, start a Celery worker in the background and the web
# server in the foreground at http://127.0.0.1:8000. Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh

# platform/ is a source root (see manage.py); Celery needs it on the path to find mpp_studio.
export PYTHONPATH="platform:.${PYTHONPATH:+:$PYTHONPATH}"
# A lab's server, not a debugging session: no tracebacks on error pages, and no log of every SQL
# statement kept in memory (in a long import job that alone grew the worker by hundreds of MB).
# DJANGO_DEBUG=true for development.
export DJANGO_DEBUG="${DJANGO_DEBUG:-false}"
python=.venv/bin/python

"$python" manage.py migrate --noinput
"$python" manage.py load_demo
"$python" manage.py load_learner_demo

log_dir="${MPP_VAR_DIR:-var}/log"
mkdir -p "$log_dir"
.venv/bin/celery -A mpp_studio worker -Q cpu,gpu --concurrency 2 --loglevel info \
  --logfile "$log_dir/worker.log" &
worker_pid=$!
stop_worker() {
  if kill -0 "$worker_pid" 2>/dev/null; then
    kill "$worker_pid" 2>/dev/null || true
    wait "$worker_pid" 2>/dev/null || true
  fi
}
trap stop_worker EXIT

echo
echo "MPP Studio: http://127.0.0.1:8000  (sign in as demo / demo)"
echo "Celery worker (queues cpu, gpu) logs to $log_dir/worker.log"
echo
# gunicorn, not Django's runserver: runserver is one process whose threads share one interpreter
# lock, so a request holding SQLite's write lock could wait there behind 200 participants' threads
# while every other save timed out (seen in bench/mixed_load.py). Several processes, a few threads
# each; static files come through the middleware (whitenoise), with the same headers as pages.
# For development with auto-reload: .venv/bin/python manage.py runserver.
DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-mpp_studio.settings.local}" \
  .venv/bin/gunicorn --pythonpath platform mpp_studio.wsgi --bind 127.0.0.1:8000 \
  --workers "${MPP_WEB_WORKERS:-3}" --threads "${MPP_WEB_THREADS:-4}" --timeout 120 \
  --access-logfile - --log-level warning
