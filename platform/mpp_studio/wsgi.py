"""WSGI entry point (`gunicorn --pythonpath platform mpp_studio.wsgi`)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mpp_studio.settings.production")

application = get_wsgi_application()
