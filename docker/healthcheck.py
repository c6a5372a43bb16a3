"""Container health check of the web server: exit 0 when GET /healthz answers 200, else 1.

`python docker/healthcheck.py [URL]`; the default URL is this container's own gunicorn.
"""

import os
import sys
import urllib.error
import urllib.request

DEFAULT_URL = "http://127.0.0.1:8000/healthz"


def host_header(allowed_hosts: str) -> str:
    """Return a Host the site accepts: the first of DJANGO_ALLOWED_HOSTS ("localhost" for "*")."""
    first = next((h.strip() for h in allowed_hosts.split(",") if h.strip()), "localhost")
    if first == "*":
        return "localhost"
    # ".example.org" allows example.org and its subdomains.
    return first.lstrip(".")


def main(url: str = DEFAULT_URL) -> int:
    """Return 0 when `url` answers 200 within 5 seconds, else 1 (the reason goes to stderr)."""
    request = urllib.request.Request(
        url,
        headers={
            # Django refuses a Host outside ALLOWED_HOSTS (400), whatever address was dialled.
            "Host": host_header(os.environ.get("DJANGO_ALLOWED_HOSTS", "")),
            # As the TLS proxy says: with an HTTPS redirect on, plain http would answer 301.
            "X-Forwarded-Proto": "https",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            if response.status == 200:
                return 0
            print(f"healthcheck: {url} answered {response.status}", file=sys.stderr)
    except (urllib.error.URLError, OSError) as exc:
        print(f"healthcheck: {url}: {exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:2]))
