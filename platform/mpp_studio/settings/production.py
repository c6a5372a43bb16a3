"""Settings for a deployment: the secret key and allowed hosts must come from the environment."""

from .base import *  # noqa: F403
from .base import MIDDLEWARE, VAR_DIR, env

SECRET_KEY = env.str("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
# Editors may register model folders only under these (compose mounts the models volume there).
MODEL_DIRS = env.list("MPP_MODEL_DIRS", default=[str(VAR_DIR / "models")])

# Behind a TLS-terminating proxy. Set DJANGO_SECURE_COOKIES=false only to try the stack over
# plain http://localhost.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

# gunicorn serves the collected static files itself (`manage.py collectstatic` fills STATIC_ROOT).
MIDDLEWARE = [
    MIDDLEWARE[0],  # SecurityMiddleware stays first
    "whitenoise.middleware.WhiteNoiseMiddleware",
    *MIDDLEWARE[1:],
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
