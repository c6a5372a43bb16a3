"""Test settings whose cache is the one base.py configures: Redis when REDIS_URL is set (the
test settings keep rate-limit counters in memory), for the tests that stop Redis."""

from mpp_studio.settings import base
from mpp_studio.settings.test import *  # noqa: F403

CACHES = base.CACHES
