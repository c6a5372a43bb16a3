"""The test lanes: marks set by path, so that no test module has to carry them itself.

`browser`: every module that drives Debian's Chromium (tests/web/**/test_*browser*.py and
tests/web/test_end_to_end.py). `slow`: the tests named in tests/slow_tests.txt, the one list of
what `./scripts/test.sh --fast` leaves out for time (measured with `--durations=0`).
"""

from __future__ import annotations

import fnmatch
from pathlib import Path, PurePosixPath

import pytest

SLOW_TESTS = Path(__file__).with_name("slow_tests.txt")
END_TO_END = "tests/web/test_end_to_end.py"


def is_browser_module(path: str) -> bool:
    """Whether a test module (a path relative to the repository, with slashes) drives the browser."""
    module = PurePosixPath(path)
    return path == END_TO_END or (
        module.parts[:2] == ("tests", "web") and fnmatch.fnmatchcase(module.name, "test_*browser*.py")
    )


def slow_entries(text: str | None = None) -> list[str]:
    """The entries of tests/slow_tests.txt: one node id or pattern a line, `#` starts a comment."""
    if text is None:
        text = SLOW_TESTS.read_text(encoding="utf-8")
    entries = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [entry for entry in entries if entry]


def matches_entry(nodeid: str, entry: str) -> bool:
    """A module path takes its every test, `module::name` that test (all its parameters, or the
    tests of a class); an entry with `*` is a pattern over the module path or the whole node id."""
    if "*" in entry:
        return fnmatch.fnmatchcase(nodeid.split("::", 1)[0], entry) or fnmatch.fnmatchcase(nodeid, entry)
    return nodeid == entry or nodeid.startswith((f"{entry}::", f"{entry}["))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    entries = slow_entries()
    for item in items:
        # Node ids are relative to the rootdir, the repository (where pyproject.toml is).
        if is_browser_module(item.nodeid.split("::", 1)[0]):
            item.add_marker(pytest.mark.browser)
        if any(matches_entry(item.nodeid, entry) for entry in entries):
            item.add_marker(pytest.mark.slow)
