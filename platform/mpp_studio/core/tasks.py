"""Tasks that check the task pipeline itself."""

from celery import shared_task
from django.db import connection


@shared_task(name="core.ping")
def ping(value: str = "pong") -> dict[str, str]:
    """Echo `value` after a round trip to the database: proves a worker runs and can reach it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"echo": value, "database": connection.vendor}
