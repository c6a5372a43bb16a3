"""Settings for a developer's machine: debug on, a dev secret key, SQLite unless DATABASE_URL."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env.str(
    "DJANGO_SECRET_KEY", default="django-insecure-local-only-0f5c2a7e9b41d3864c1f0a7e2d9b5c38"
)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
