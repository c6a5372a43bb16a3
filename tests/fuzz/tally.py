"""The fuzz settings every target shares, and the count of inputs each target really tried."""

from __future__ import annotations

import os
from collections import Counter

from hypothesis import HealthCheck, settings

# Inputs per test: 14 tests (a structured and a raw one per reader) give 10,500 in all.
# MPP_FUZZ_EXAMPLES raises it for a longer local hunt; MPP_FUZZ_RANDOM=1 draws new inputs.
EXAMPLES = int(os.environ.get("MPP_FUZZ_EXAMPLES", "750"))
# The whole folder must stay well inside the normal test run on a 2-core machine.
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,  # a single slow input (a huge field) is not a failure; a crash is
    derandomize=os.environ.get("MPP_FUZZ_RANDOM") != "1",  # the same inputs every run: CI is deterministic
    database=None,
    # Near-valid files are large composite draws; their generation is deliberately slow.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)

TRIED: Counter[str] = Counter()
# Inputs a target read without any error (a parsed template, a vocabulary, a file with items):
# proof that the near-valid strategies reach past the first check.
ACCEPTED: Counter[str] = Counter()


def tried(target: str) -> None:
    """Count one input handed to `target`'s parser (called inside each test body)."""
    TRIED[target] += 1


def accepted(target: str) -> None:
    """Count one input that `target` read without an error."""
    ACCEPTED[target] += 1
