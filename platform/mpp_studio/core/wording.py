"""Counts in words for the messages pages and jobs show."""


def count_of(n: int, word: str) -> str:
    """Return `n` with `word`, plural unless n is 1: "1 configuration", "1,234 pair scores"."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"
