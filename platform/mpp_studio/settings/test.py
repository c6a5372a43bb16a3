"""Settings for the test suite.

They differ from local settings only where tests need it: a fixed secret key, the test client's
host allowed, and a fast password hasher (the default one spends ~0.3 s per login on purpose).
"""

from .base import *  # noqa: F403
from .base import env

DEBUG = False
SECRET_KEY = env.str(
    "DJANGO_SECRET_KEY", default="django-insecure-test-only-7d2e4b9c1a6f3e8d5b0c2a9f4e7d1c36"
)
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Rate limits and lockouts count in this process's memory, even when REDIS_URL points the broker
# at a real Redis; tests/web/conftest.py clears the cache before each test.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "mpp-test"}}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, as the embedded default uses, not Django's in-memory test database: a shared-cache
    # memory database locks whole tables and ignores the busy timeout, so tests with a live
    # server and a worker thread would see lock errors no real installation has. One file per
    # test process (pytest-django removes it at the end).
    import os
    import tempfile

    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"mpp-test-{os.getpid()}.sqlite3")
    }
