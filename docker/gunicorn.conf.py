"""gunicorn settings of the web container (`gunicorn -c docker/gunicorn.conf.py mpp_studio.wsgi`).

Everything logs to the container's stdout/stderr, where `docker compose logs` reads it.
"""

import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
# Three processes suit the default two-core host; raise WEB_CONCURRENCY on a larger one.
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
# Long imports run as jobs, but a large upload on a slow connection, or a big export page, can
# take longer than gunicorn's default of 30 s.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "120"))
graceful_timeout = 30
# Worker heartbeats on a RAM disk: Docker's overlay filesystem can stall them into timeouts.
worker_tmp_dir = "/dev/shm"
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
