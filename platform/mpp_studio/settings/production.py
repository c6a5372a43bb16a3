"""Settings for a deployment: the secret key and allowed hosts must come from the environment."""

from .base import *  # noqa: F403
from .base import VAR_DIR, env

SECRET_KEY = env.str("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
# Editors may register model folders only under these (compose mounts the models volume there).
MODEL_DIRS = env.list("MPP_MODEL_DIRS", default=[str(VAR_DIR / "models")])

# Never the debug pages in a deployment, whatever DJANGO_DEBUG says: they show settings and code.
DEBUG = False

# HTTPS, behind a TLS-terminating proxy that sets X-Forwarded-Proto. Set DJANGO_SECURE_COOKIES=false
# only to try the stack over plain http://localhost: secure cookies, the redirect to https and HSTS
# all follow it unless set on their own.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=SESSION_COOKIE_SECURE)
# The containers' health checks ask over plain http inside the compose network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# One year once on HTTPS. Browsers then refuse plain http for this host (and its subdomains) for
# that long: lower it while trying a new domain.
SECURE_HSTS_SECONDS = env.int(
    "DJANGO_SECURE_HSTS_SECONDS", default=31_536_000 if SESSION_COOKIE_SECURE else 0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
# Preloading binds the domain into browsers for months and needs its owner's submission at
# hstspreload.org: only on request, so its deploy-check warning is silenced while it is off.
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

# gunicorn serves the collected static files itself (`manage.py collectstatic` fills STATIC_ROOT),
# through the WhiteNoiseMiddleware of base.py (below the CSP middleware, so they carry the policy).
WHITENOISE_USE_FINDERS = False
WHITENOISE_AUTOREFRESH = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Everything to standard error, where the containers' logs collect it: Django's default sends
# a 500's traceback only to ADMINS by mail when DEBUG is off, i.e. nowhere here.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("MPP_LOG_LEVEL", default="INFO")},
    "loggers": {
        # Requests are in gunicorn's access log; Django adds a line per 4xx/5xx answer.
        "django": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    },
}
