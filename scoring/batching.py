"""Token-budget length buckets: sentences sorted by length go into forward passes that hold as
many rows as fit in a budget of padded tokens. Sorting removes almost all padding (0.24% of
positions on BLiMP against 34% in file order), and a budget in tokens rather than rows keeps
each pass about the same size whatever the sentence length. Plain Python (no torch), and
deterministic: the same lengths always give the same batches."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence


def length_order(lengths: Sequence[int]) -> list[int]:
    """Return the indices of `lengths` sorted by length, then by index (ties keep input order)."""
    return sorted(range(len(lengths)), key=lambda index: (lengths[index], index))


# A pass holding at least this share of the budget is big enough to run on its own: it then
# closes at the next length change instead of padding its rows up to a longer row. Without it a
# budget larger than the whole input would put every length into one padded pass.
MIN_FILL = 0.25


def token_batches(
    order: Sequence[int],
    lengths: Sequence[int],
    budget: int | Callable[[], int],
    *,
    min_fill: float = MIN_FILL,
) -> Iterator[list[int]]:
    """Yield consecutive runs of `order` (indices into `lengths`, sorted by length) whose padded
    size, rows times the longest row, stays within `budget` tokens; a row longer than the budget
    goes alone. A run also ends where the length grows once it holds `min_fill` x budget tokens.

    `budget` may be a function, read when each batch starts, so a caller can lower it while
    batches are being produced (after an out-of-memory).
    """
    read = budget if callable(budget) else (lambda: budget)
    batch: list[int] = []
    longest = 0
    limit = max(1, read())
    for index in order:
        length = lengths[index]
        full = (len(batch) + 1) * max(longest, length) > limit
        filled = length > longest and len(batch) * longest >= min_fill * limit
        if batch and (full or filled):
            yield batch
            batch, longest = [], 0
            limit = max(1, read())
        batch.append(index)
        longest = max(longest, length)
    if batch:
        yield batch


def padded_tokens(batches: Sequence[Sequence[int]], lengths: Sequence[int]) -> tuple[int, int]:
    """Return (real tokens, padded positions) over `batches`: a pass costs rows x its longest row."""
    real = sum(lengths[i] for batch in batches for i in batch)
    padded = sum(len(batch) * max(lengths[i] for i in batch) for batch in batches if batch)
    return real, padded
