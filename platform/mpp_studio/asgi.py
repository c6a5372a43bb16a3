"""ASGI entry point, for servers that speak ASGI (PYTHONPATH must include platform/)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mpp_studio.settings.production")

application = get_asgi_application()
