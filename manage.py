#!/usr/bin/env python
"""Django's command-line utility for MPP Studio."""

import os
import sys
from pathlib import Path

PLATFORM_ROOT = Path(__file__).resolve().parent / "platform"


def main() -> None:
    # platform/ is a source root, not a package: it must stay without __init__.py, or it would
    # shadow the standard-library `platform` module that uuid, celery and torch import.
    sys.path.insert(1, str(PLATFORM_ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mpp_studio.settings.local")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
