"""The `<id:...>` URL converter: a row id as the database can hold it.

Django's `<id:...>` takes any number of digits, and SQLite refuses a number above 2^63 - 1 with
an OverflowError (a 500) where PostgreSQL simply finds no row. Every id in our URLs goes through
this converter instead: a larger number does not match, so the answer is the ordinary 404.
"""

from django.urls.converters import IntConverter

# The largest value of a 64-bit signed integer column (BigAutoField, SQLite's INTEGER).
MAX_ID = 2**63 - 1


class DatabaseIdConverter(IntConverter):
    """Digits that fit a 64-bit signed integer column; anything larger is not a match."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        """Return the id, or raise ValueError (no match: 404) when no column could hold it."""
        number = int(value)
        if number > MAX_ID:
            raise ValueError(f"{value} is larger than any row id")
        return number
