"""Token-budget length buckets: sorted, within budget, deterministic, and lowerable midway."""

from __future__ import annotations

import itertools
import random

from scoring.batching import length_order, padded_tokens, token_batches


def test_length_order_sorts_by_length_then_index() -> None:
    assert length_order([5, 3, 5, 1, 3]) == [3, 1, 4, 0, 2]
    assert length_order([]) == []


def test_batches_stay_within_the_budget_and_cover_every_row() -> None:
    rng = random.Random(0)
    lengths = [rng.randint(2, 40) for _ in range(500)]
    order = length_order(lengths)
    batches = list(token_batches(order, lengths, 128))
    assert [i for batch in batches for i in batch] == order
    for batch in batches:
        assert len(batch) * max(lengths[i] for i in batch) <= 128
    # A batch ends only when the next row would break the budget, or at a length change once
    # the batch holds a quarter of the budget.
    for batch, following in itertools.pairwise(batches):
        longest = max(lengths[i] for i in batch)
        grown = lengths[following[0]] > longest
        assert (len(batch) + 1) * max(longest, lengths[following[0]]) > 128 or (
            grown and len(batch) * longest >= 32
        )
    # Sorting leaves little padding; file order with the same budget leaves much more.
    real, padded = padded_tokens(batches, lengths)
    real_file, padded_file = padded_tokens(list(token_batches(range(500), lengths, 128)), lengths)
    assert real == real_file == sum(lengths)
    assert padded - real < 0.1 * real < padded_file - real_file


def test_a_row_longer_than_the_budget_goes_alone() -> None:
    lengths = [3, 50, 4, 3]
    batches = list(token_batches(length_order(lengths), lengths, 10))
    assert batches == [[0, 3], [2], [1]]


def test_a_filled_batch_ends_where_the_length_grows() -> None:
    lengths = [5] * 300 + [6] * 300
    # 300 rows of 5 tokens hold more than a quarter of the budget: no row is padded.
    assert [len(b) for b in token_batches(length_order(lengths), lengths, 4000)] == [300, 300]
    # Too few rows to fill a quarter: the lengths share a pass, padded.
    assert [len(b) for b in token_batches(length_order(lengths), lengths, 100_000)] == [600]
    unfilled = token_batches(length_order(lengths), lengths, 100_000, min_fill=0.0)
    assert [len(b) for b in unfilled] == [300, 300]


def test_batches_are_deterministic() -> None:
    rng = random.Random(1)
    lengths = [rng.randint(1, 30) for _ in range(200)]
    first = list(token_batches(length_order(lengths), lengths, 64))
    second = list(token_batches(length_order(list(lengths)), lengths, 64))
    assert first == second


def test_a_callable_budget_is_read_at_each_batch() -> None:
    lengths = [4] * 12
    budgets = iter([16, 8, 8, 8, 8, 8, 8, 8])
    batches = list(token_batches(range(12), lengths, lambda: next(budgets)))
    assert [len(b) for b in batches] == [4, 2, 2, 2, 2]
