"""The test lanes of ./scripts/test.sh: tests/conftest.py marks the browser modules `browser` and
the tests of tests/slow_tests.txt `slow`, and that list names only tests that exist."""

from __future__ import annotations

import ast
import fnmatch
import tomllib
from pathlib import Path

import pytest

from tests.conftest import (
    END_TO_END,
    is_browser_module,
    matches_entry,
    pytest_collection_modifyitems,
    slow_entries,
)

REPO_ROOT = Path(__file__).resolve().parents[1]


class _Item:
    """The part of a pytest.Item the hook uses."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid
        self.marks: list[str] = []

    def add_marker(self, mark: pytest.MarkDecorator) -> None:
        self.marks.append(mark.name)


def _browser_modules() -> list[str]:
    found = (REPO_ROOT / "tests/web").rglob("test_*browser*.py")
    return sorted([*(p.relative_to(REPO_ROOT).as_posix() for p in found), END_TO_END])


def test_the_lane_markers_are_registered() -> None:
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    markers = pyproject["tool"]["pytest"]["ini_options"]["markers"]
    assert {line.split(":", 1)[0] for line in markers} >= {"integration", "browser", "slow"}


def test_every_browser_module_is_marked_browser_and_no_other() -> None:
    browser = _browser_modules()
    assert "tests/web/paradigms/test_browser_library.py" in browser
    assert "tests/web/datasets/test_import_browser.py" in browser
    others = ["tests/web/paradigms/test_pages.py", "tests/web/browser.py", "tests/test_layout.py"]
    items = [_Item(f"{path}::test_one") for path in [*browser, *others]]

    pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]

    assert [item.nodeid for item in items if "browser" in item.marks] == [f"{p}::test_one" for p in browser]
    assert not is_browser_module("tests/generator/test_browser.py")  # only the platform's tests


def test_slow_entries_take_a_module_a_test_its_parameters_or_a_pattern() -> None:
    text = "# comment\n\ntests/web/a/test_x.py  # whole module\ntests/b/test_y.py::test_one\n"
    assert slow_entries(text) == ["tests/web/a/test_x.py", "tests/b/test_y.py::test_one"]
    assert matches_entry("tests/web/a/test_x.py::TestA::test_b[1]", "tests/web/a/test_x.py")
    assert matches_entry("tests/b/test_y.py::test_one[en-2]", "tests/b/test_y.py::test_one")
    assert not matches_entry("tests/b/test_y.py::test_one_more", "tests/b/test_y.py::test_one")
    assert not matches_entry("tests/web/a/test_x.py::test_c", "tests/web/a/test_x")
    assert matches_entry("tests/web/a/test_x.py::test_c", "tests/web/*/test_x.py::*")


def _defined_names(module: Path) -> set[str]:
    """Module-level functions and classes, and `Class::method` for their methods."""
    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names.update(
                f"{node.name}::{child.name}"
                for child in node.body
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            )
    return names


@pytest.mark.parametrize("entry", slow_entries())
def test_the_slow_list_names_only_tests_that_exist(entry: str) -> None:
    path, _, name = entry.partition("::")
    modules = sorted(REPO_ROOT.glob(path))
    assert modules, f"{entry}: no test module {path}"
    assert all(m.name.startswith("test_") and m.suffix == ".py" for m in modules), entry
    if name:
        defined = {found for module in modules for found in _defined_names(module)}
        assert fnmatch.filter(defined, name), f"{entry}: {path} defines no {name}"
