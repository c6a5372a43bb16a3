"""Cache-based rate limits and the client-address hash they (and the login lockout) key on.

No raw IP address is ever stored: `client_key` turns the client's address prefix (the whole IPv4
address, the /64 of an IPv6 one) into an HMAC with the secret key, and only that hash appears in
cache keys, which expire with their window. Nothing here touches the database.

The counters live in Django's cache: Redis when REDIS_URL is set (so every gunicorn worker shares
them), a per-process LocMemCache otherwise. A limit is written "COUNT/PERIOD" with PERIOD one of
s, m, h (or a number of seconds, "20/30"); an empty string or "0" turns it off. Requests are
counted over a sliding window (`hit`), so twice the rate never passes around a minute's boundary.

When the cache cannot be reached (Redis down), limits and the lockout fail open: the request
goes through uncounted and a warning is logged, rather than every sign-in and participant page
failing while Redis is away.
"""

import hashlib
import hmac
import ipaddress
import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse

try:  # installed wherever REDIS_URL can be set
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover
    RedisError = OSError  # type: ignore[assignment,misc]  # the stand-in without redis

logger = logging.getLogger(__name__)

# What the cache raises when Redis cannot be reached: the limits then fail open (see above).
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError)

_PERIODS = {"s": 1, "m": 60, "h": 3600}


def now() -> float:
    """Return the current time in seconds; the one clock of rate limits and lockout (tests patch it)."""
    return time.time()


@dataclass(frozen=True)
class Rate:
    """At most `count` requests per `seconds`."""

    count: int
    seconds: int


def parse_rate(text: str) -> Rate | None:
    """Return the rate written as "COUNT/PERIOD" ("20/m", "120/60"), or None when it is off
    ("" or "0"); raise ValueError, naming the text, when it cannot be read."""
    text = (text or "").strip().lower()
    if text in {"", "0", "off", "none"}:
        return None
    count_text, _, period_text = text.partition("/")
    try:
        count = int(count_text)
        period = period_text.strip() or "m"
        seconds = _PERIODS[period] if period in _PERIODS else int(period)
    except (KeyError, ValueError):
        raise ValueError(f"rate limit {text!r}: write it as COUNT/PERIOD, e.g. 20/m") from None
    if count <= 0 or seconds <= 0:
        return None
    return Rate(count, seconds)


def client_address(request: HttpRequest) -> str:
    """Return the client's address: REMOTE_ADDR, or, behind MPP_TRUSTED_PROXY_COUNT proxies, the
    address the outermost trusted proxy saw (counted from the right of X-Forwarded-For)."""
    proxies = int(getattr(settings, "MPP_TRUSTED_PROXY_COUNT", 0))
    if proxies > 0:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [part for part in forwarded if part]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return str(request.META.get("REMOTE_ADDR", "") or "")


def address_prefix(address: str) -> str:
    """Return the part of an address that names one client: the whole IPv4 address, the /64
    network of an IPv6 one (one household or phone), or "" when it is not an address."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return ""
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(parsed)


def secret_hash(*parts: str) -> str:
    """Return a short HMAC-SHA256 (keyed with the secret key) of the parts: what cache keys hold
    instead of addresses, user names or tokens."""
    message = "\x1f".join(parts).encode("utf-8")
    digest = hmac.new(settings.SECRET_KEY.encode("utf-8"), message, hashlib.sha256)
    return digest.hexdigest()[:32]


def client_key(request: HttpRequest) -> str:
    """Return the hash of the client's address prefix, or "" when the address is unknown."""
    prefix = address_prefix(client_address(request))
    return secret_hash("address", prefix) if prefix else ""


# A limit's period is counted in this many buckets; see `hit`.
BUCKETS = 6


def hit(scope: str, key: str, rate: Rate | None) -> int | None:
    """Count one request of `scope` by `key` (a hash); return the seconds to wait when it is over
    the rate, None when it is allowed (or the limit is off).

    A sliding window of BUCKETS buckets: the requests of the last `rate.seconds`, counted in
    buckets of a sixth of it (the oldest bucket leaves whole). A single fixed window would let twice
    the rate through around its boundary; this lets at most the rate through in any sixth-shorter
    span. The wait is until enough of the oldest buckets have left for one more request. Refused
    requests count too: retrying early only makes the wait longer."""
    if rate is None or not key:
        return None
    moment = now()
    size = rate.seconds / BUCKETS
    current = int(moment // size)

    def bucket_key(bucket: int) -> str:
        return f"ratelimit:{scope}:{key}:{rate.seconds}:{bucket}"

    try:
        lifetime = math.ceil(rate.seconds + size) + 1
        cache.add(bucket_key(current), 0, timeout=lifetime)
        try:
            count = cache.incr(bucket_key(current))
        except ValueError:  # expired between add and incr
            cache.set(bucket_key(current), 1, timeout=lifetime)
            count = 1
        older = range(current - BUCKETS + 1, current)
        stored = cache.get_many([bucket_key(bucket) for bucket in older])
    except CACHE_ERRORS as exc:
        logger.warning("rate limit %s not applied: the cache is unreachable (%s)", scope, exc)
        return None
    counts = [(bucket, int(stored.get(bucket_key(bucket)) or 0)) for bucket in older] + [(current, count)]
    remaining = sum(n for _, n in counts)
    if remaining <= rate.count:
        return None
    for bucket, n in counts:
        remaining -= n
        if remaining + 1 <= rate.count:
            return max(1, math.ceil((bucket + BUCKETS) * size - moment))
    raise AssertionError("unreachable: the last bucket leaves every count behind")


def setting_rate(name: str, default: str) -> Rate | None:
    """Return the rate in the setting `name` (default when unset), None when it is off."""
    return parse_rate(str(getattr(settings, name, default)))


def wait_words(seconds: int) -> str:
    """Return a wait in plain words: "30 seconds", "1 minute", "15 minutes"."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def too_many_message(retry_after: int) -> str:
    """Return the plain-words message of a rate-limited request."""
    return (
        f"Too many requests from your connection in a short time. Please wait {wait_words(retry_after)} "
        "and try again."
    )


def too_many_json(retry_after: int, message: str = "") -> JsonResponse:
    """Return a 429 JSON answer {"error": ...} with Retry-After."""
    response = JsonResponse(
        {"error": message or too_many_message(retry_after), "retry_after": retry_after}, status=429
    )
    response["Retry-After"] = str(retry_after)
    return response


def with_retry_after(response: HttpResponse, retry_after: int) -> HttpResponse:
    """Return the response with status 429 and its Retry-After header set."""
    response.status_code = 429
    response["Retry-After"] = str(retry_after)
    return response
