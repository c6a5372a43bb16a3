"""Each fuzz test must really try its full budget of inputs; the totals are printed at the end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fuzz.tally import ACCEPTED, EXAMPLES, TRIED


@pytest.fixture(autouse=True)
def _full_budget(request: pytest.FixtureRequest) -> Iterator[None]:
    before = sum(TRIED.values())
    yield
    ran = sum(TRIED.values()) - before
    assert ran >= EXAMPLES, f"{request.node.name} tried only {ran} inputs, not {EXAMPLES}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TRIED:
        terminalreporter.section("fuzz inputs tried")
        for target, count in sorted(TRIED.items()):
            terminalreporter.write_line(f"{target}: {count} ({ACCEPTED[target]} read without error)")
        terminalreporter.write_line(f"total: {sum(TRIED.values())}")
