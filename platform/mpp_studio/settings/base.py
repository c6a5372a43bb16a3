"""Settings shared by every environment; every environment variable is read here, through `env`."""

from pathlib import Path

import environ

# settings/ -> mpp_studio/ -> platform/ -> repository root
BASE_DIR = Path(__file__).resolve().parents[3]

env = environ.Env()

# Local state (SQLite file, embedded broker folders) lives here unless the real stack is configured.
VAR_DIR = Path(env.str("MPP_VAR_DIR", default=str(BASE_DIR / "var")))

# Uploads a background job will read (dataset and corpus imports), kept until the job is done
# (core.stored_uploads). The web server and the CPU workers must share it.
MPP_UPLOAD_DIR = Path(env.str("MPP_UPLOAD_DIR", default=str(VAR_DIR / "uploads")))

# The shipped grammar-template library: data files, never Django HTML templates.
GRAMMAR_LIBRARY_DIR = BASE_DIR / "templates"
# Tokenizers the quality report may use, as local folders (no hub): "name=/path,other=/path".
MPP_TOKENIZERS = env.dict("MPP_TOKENIZERS", default={})
# Server folders that model sources and checkpoint series may be read from; empty: any folder
# (one machine, one user). Production defaults to var/models (settings/production.py).
MODEL_DIRS = env.list("MPP_MODEL_DIRS", default=[])
# The largest learner-corpus file (M2, TSV/CSV or metadata) one upload takes.
MPP_LEARNER_UPLOAD_MAX_BYTES = env.int("MPP_LEARNER_UPLOAD_MAX_BYTES", default=50 * 1024 * 1024)
# The most pairs one learner corpus holds, and rows its metadata table has (the read job stops at
# the first one over).
MPP_LEARNER_MAX_PAIRS = env.int("MPP_LEARNER_MAX_PAIRS", default=500_000)
# A vocabulary table or schema (vocabulary import, and tables in template and ZhoBLiMP uploads);
# a template or phrase file; a .zip of them (template and ZhoBLiMP uploads).
MPP_VOCABULARY_UPLOAD_MAX_BYTES = env.int("MPP_VOCABULARY_UPLOAD_MAX_BYTES", default=10 * 1024 * 1024)
MPP_VOCABULARY_MAX_ITEMS = env.int("MPP_VOCABULARY_MAX_ITEMS", default=200_000)
MPP_TEMPLATE_UPLOAD_MAX_BYTES = env.int("MPP_TEMPLATE_UPLOAD_MAX_BYTES", default=1024 * 1024)
MPP_TEMPLATE_ZIP_MAX_BYTES = env.int("MPP_TEMPLATE_ZIP_MAX_BYTES", default=20 * 1024 * 1024)
# All files of one released-dataset import together (page and API).
MPP_DATASET_IMPORT_MAX_BYTES = env.int("MPP_DATASET_IMPORT_MAX_BYTES", default=256 * 1024 * 1024)
# A whole request (every file and field): a larger one is refused with a 413 before it is read
# (core.request_errors). Above the largest upload a page takes (a dataset import), 0: no cap.
MPP_UPLOAD_MAX_REQUEST_BYTES = env.int("MPP_UPLOAD_MAX_REQUEST_BYTES", default=260 * 1024 * 1024)
# Django's own limits, named here so they can be set: the text of one request (form fields or a
# JSON body, files not counted), fields and files per request. Over them: a 413/400 that says so.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DJANGO_DATA_UPLOAD_MAX_MEMORY_SIZE", default=2_621_440)
DATA_UPLOAD_MAX_NUMBER_FIELDS = env.int("DJANGO_DATA_UPLOAD_MAX_NUMBER_FIELDS", default=1000)
DATA_UPLOAD_MAX_NUMBER_FILES = env.int("DJANGO_DATA_UPLOAD_MAX_NUMBER_FILES", default=100)

DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "mpp_studio.core",
    "mpp_studio.accounts",
    "mpp_studio.jobs",
    "mpp_studio.lexicon",
    "mpp_studio.paradigms",
    "mpp_studio.datasets",
    "mpp_studio.evaluation",
    "mpp_studio.learner",
    "mpp_studio.studies",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "mpp_studio.core.security_headers.ContentSecurityPolicyMiddleware",
    # Static files, answered here (after the CSP is added on the way out) on every server: gunicorn
    # in the images, runserver --nostatic in the embedded default. Production serves the files
    # collectstatic compressed and hashed (settings/production.py); elsewhere they are found in
    # the apps' static/ folders as they are edited.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A request over MPP_UPLOAD_MAX_REQUEST_BYTES gets a 413 before anything reads its body.
    "mpp_studio.core.request_errors.RequestSizeLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A job whose task messages could not reach Redis says so (page warning, API `queue_warning`).
    "mpp_studio.jobs.middleware.QueueUnreachableMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A view that loses the database answers 503 in words (pages, API, JSON), not a traceback.
    "mpp_studio.core.database_outage.DatabaseUnavailableMiddleware",
]

# Content Security Policy (mpp_studio.core.security_headers): scripts, styles, images and requests
# only from this site, no plugins, no framing. Inline style *attributes* stay allowed (progress
# bars and the per-token surprisal colours are computed widths and colours): they cannot run
# script, and url() in them is still held to img-src. <style> blocks and inline scripts are not.
MPP_CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "style-src-attr": ["'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
MPP_CSP_REPORT_ONLY = env.bool("MPP_CSP_REPORT_ONLY", default=False)

ROOT_URLCONF = "mpp_studio.urls"
WSGI_APPLICATION = "mpp_studio.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # No DIRS: HTML templates live in each app's templates/ folder. The repository's
        # templates/ folder is the grammar library (GRAMMAR_LIBRARY_DIR) and must never go here.
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_USE_LOCAL_DATABASE = "DATABASE_URL" not in env
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
# Seconds a request or task waits for another's write to finish before SQLite gives up with
# "database is locked" (core.database_outage then answers "busy", never "unreachable").
MPP_SQLITE_BUSY_TIMEOUT_S = env.float("MPP_SQLITE_BUSY_TIMEOUT_S", default=30.0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a small lab: a web server, a worker and many participants at
    # once. WAL lets readers go on while one writer writes (without it every write blocks every
    # read); synchronous=NORMAL is WAL's durable-enough setting (a power cut may lose the last
    # commits, never corrupt). IMMEDIATE takes the write lock when a transaction begins, so a
    # writer waits its turn under the busy timeout; a DEFERRED one that read first and then
    # wanted to write would fail at once, whatever the timeout. Every write transaction is kept
    # short (chunked generation, imports as jobs), so the wait is a moment.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": MPP_SQLITE_BUSY_TIMEOUT_S,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
if not _USE_LOCAL_DATABASE:
    # Keep a server database connection per worker thread for a while instead of opening one
    # per request (a PostgreSQL connection costs more than a participant's saved answer), and
    # check it before reuse so a restarted database costs one failed request at most.
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("MPP_DB_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if "postgresql" in DATABASES["default"]["ENGINE"]:
        # Give up connecting after this many seconds: a database behind a dropped network answers
        # nothing, and libpq would otherwise wait for ever (a request, until gunicorn kills it).
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
            "connect_timeout", env.int("MPP_DB_CONNECT_TIMEOUT", default=5)
        )
        # A database host that vanishes mid-query (power cut, network partition) sends no reset:
        # without TCP keepalives a request or task would wait for its answer for hours (the
        # kernel's default). Probes after 30 s of silence, 3 of them 10 s apart, give up at ~60 s;
        # unacknowledged sends give up after 60 s. A parameter in DATABASE_URL's query wins.
        for _option, _value in (
            ("keepalives", 1),
            ("keepalives_idle", 30),
            ("keepalives_interval", 10),
            ("keepalives_count", 3),
            ("tcp_user_timeout", 60_000),
        ):
            DATABASES["default"]["OPTIONS"].setdefault(_option, _value)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_REDIRECT_URL = "home"

# Outgoing mail, for password resets: EMAIL_URL as django-environ reads it (smtp://user:password@host:25,
# smtp+tls://...:587, smtp+ssl://...:465). Without it no mail can leave this server, so the
# password-reset pages are not offered at all (they would say a mail was sent that never was);
# an administrator sets a new password with `manage.py changepassword USER`.
MPP_PASSWORD_RESET_BY_EMAIL = "EMAIL_URL" in env
if MPP_PASSWORD_RESET_BY_EMAIL:
    vars().update(env.email_url("EMAIL_URL"))
    DEFAULT_FROM_EMAIL = env.str("DJANGO_DEFAULT_FROM_EMAIL", default="MPP Studio <noreply@localhost>")
    EMAIL_TIMEOUT = env.int("MPP_EMAIL_TIMEOUT", default=10)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        "mpp_studio.accounts.permissions.ProjectRolePermission",
    ],
    "DEFAULT_PAGINATION_CLASS": "mpp_studio.core.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "mpp_studio.core.api_errors.api_exception_handler",
    "DEFAULT_METADATA_CLASS": "mpp_studio.core.api_metadata.DescriptionOnlyMetadata",
    "DEFAULT_SCHEMA_CLASS": "mpp_studio.core.schema.ProjectAutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "MPP Studio API",
    "DESCRIPTION": "Projects, vocabularies, grammar templates, phrases and generated datasets.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc are served from the sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several serializers have a `kind` field with different choices: name each set.
    "ENUM_NAME_OVERRIDES": {
        "LanguageModelKindEnum": "mpp_studio.evaluation.models.LanguageModel.Kind",
        # A source format to convert and a study's paradigm rule both name a benchmark's convention.
        "BenchmarkEnum": ["blimp", "zhoblimp"],
    },
    # Row ids in paths (core.converters): integers a 64-bit column can hold.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}},
    # Request bodies get their own components (`<Name>Request`), so they say what a request may
    # send: non-blank text has minLength 1, an upload is binary (not the URL an answer shows).
    "COMPONENT_SPLIT_REQUEST": True,
}
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# Without collectstatic (a developer's machine, the tests, the embedded default), whitenoise finds
# the files in the apps' static/ folders and picks up edits; production overrides both.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Celery. The broker is Redis when REDIS_URL is set. Otherwise it is the embedded default: kombu's
# filesystem transport, whose message folders a `celery worker` on the same machine polls, so a
# single machine needs neither Redis nor Docker. Results follow the broker.
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
else:
    CELERY_DIR = VAR_DIR / "celery"
    CELERY_BROKER_URL = "filesystem://"
    # Folder names for the filesystem transport, seconds for Redis (below): one setting, two shapes.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, str | int] = {
        # Producers write where the worker reads: one folder for both directions.
        "data_folder_in": str(CELERY_DIR / "queue"),
        "data_folder_out": str(CELERY_DIR / "queue"),
        "control_folder": str(CELERY_DIR / "control"),
    }
    CELERY_RESULT_BACKEND = f"file://{CELERY_DIR / 'results'}"
    for _folder in ("queue", "control", "results"):
        (CELERY_DIR / _folder).mkdir(parents=True, exist_ok=True)

# The cache holds rate-limit counters and login lockouts (hashes only, never an address): Redis
# when REDIS_URL is set, so the limits hold across gunicorn workers; else per-process memory.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "mpp",
            # Redis down or unreachable costs a sign-in or participant page two seconds at most:
            # rate limits and lockout then let the request through (core.ratelimit.CACHE_ERRORS).
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "mpp"}}

# Sign-in lockout (accounts/lockout.py): this many failed sign-ins for one user name from one
# client lock it for this many seconds (0 failures: off).
AUTHENTICATION_BACKENDS = ["mpp_studio.accounts.lockout.LockoutBackend"]
MPP_LOGIN_LOCKOUT_FAILURES = env.int("MPP_LOGIN_LOCKOUT_FAILURES", default=5)
MPP_LOGIN_LOCKOUT_SECONDS = env.int("MPP_LOGIN_LOCKOUT_SECONDS", default=15 * 60)
# Rate limits (core/ratelimit.py), "COUNT/PERIOD" (s, m, h), "" or 0 to turn one off. Per client
# address: sign-in attempts and study consents (high: a classroom or a NAT of participants shares
# one address). Per participation (its token), never per address: answers, trial fetches and
# withdrawals, so many participants behind one address are never slowed.
MPP_RATE_LIMIT_LOGIN = env.str("MPP_RATE_LIMIT_LOGIN", default="10/m")
MPP_RATE_LIMIT_STUDY_START = env.str("MPP_RATE_LIMIT_STUDY_START", default="300/m")
MPP_RATE_LIMIT_ANSWER = env.str("MPP_RATE_LIMIT_ANSWER", default="120/m")
MPP_RATE_LIMIT_PARTICIPANT_PAGE = env.str("MPP_RATE_LIMIT_PARTICIPANT_PAGE", default="60/m")
# Behind this many reverse proxies the client address is read from X-Forwarded-For (counted
# from the right); 0: REMOTE_ADDR, for gunicorn facing the clients directly.
MPP_TRUSTED_PROXY_COUNT = env.int("MPP_TRUSTED_PROXY_COUNT", default=0)

# Model scoring tasks go to this queue: `gpu` (a worker with a GPU, one task at a time), or `cpu`
# on a machine without one whose only worker serves cpu.
SCORING_QUEUE = env.str("MPP_SCORING_QUEUE", default="gpu")
# Counting token frequencies needs a tokenizer, never a model: it keeps to the cpu queue (an
# exact name is matched before the pattern).
CELERY_TASK_ROUTES = {
    "evaluation.count_token_frequencies": {"queue": "cpu"},
    "evaluation.*": {"queue": SCORING_QUEUE},
}
if REDIS_URL:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # A producer (a web request) gives up connecting after this many seconds instead of
        # hanging on a host that does not answer; the message is then kept (jobs.queueing).
        "socket_connect_timeout": 5,
        # A command to a Redis that hangs or vanished without closing the connection (failover,
        # NAT) fails after this long rather than never (a web request then keeps its message);
        # well above kombu's 1 s BRPOP wait.
        "socket_timeout": 10,
    }
    if "MPP_BROKER_VISIBILITY_TIMEOUT" in env:
        # Redis redelivers a message its worker took but never acknowledged (the worker died,
        # or its connection broke while the task ran) once this many seconds have passed
        # (kombu's default: an hour). It must exceed the longest task (a scoring chunk:
        # minutes), or a running task is delivered a second time.
        CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] = env.int("MPP_BROKER_VISIBILITY_TIMEOUT")
# A worker that loses the broker reconnects forever (Celery's default gives up after 100 tries,
# about an hour, and the worker exits): an outage of any length ends with the worker working.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Tasks running when the broker connection drops go on to the end (their results are in the
# database); the ack is lost with the connection and Redis redelivers the message after the
# visibility timeout, where the task, safe to run twice, finds its work done. (Celery 6 will
# cancel them instead; saying it here also silences the warning.)
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# A worker sends the task messages kept while Redis was down (jobs.queueing) when it connects
# and then every this many seconds (0: only when it connects).
MPP_REQUEUE_INTERVAL = env.float("MPP_REQUEUE_INTERVAL", default=60.0)

if _USE_LOCAL_DATABASE:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
