"""platform/ is a source root; nothing in it, or in the engines, may shadow another module; each
engine is a top-level package that the build, the type check and the import contracts all know,
and only the `mpp` command sits above them."""

import ast
import fnmatch
import importlib
import importlib.util
import re
import sys
import tokenize
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PLATFORM_ROOT = REPO_ROOT / "platform"
# The `mpp` command, then one engine per concern, each importing only downwards (docs/architecture.md).
ENGINES = ("mpp", "generator", "triplets", "study", "scoring", "formats", "vocab")
NOT_ENGINES = ("tests",)  # top-level packages that are not shipped code
PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# A platform ignore names the error codes it silences, then says why in a comment of its own:
# `# type: ignore[attr-defined]  # set by ProjectRolePermission`.
EXPLAINED_IGNORE = re.compile(r"type:\s*ignore\[[a-z-]+(,\s*[a-z-]+)*\]\s*#\s*\S")


def test_platform_folder_is_not_a_package() -> None:
    """platform/__init__.py would shadow the standard `platform` module (uuid, celery, torch)."""
    assert not (PLATFORM_ROOT / "__init__.py").exists()


def test_platform_packages_resolve_into_platform_folder() -> None:
    """Each package under platform/ is ours: not a standard module, found in platform/."""
    packages = [c for c in PLATFORM_ROOT.iterdir() if (c / "__init__.py").exists()]
    assert [p.name for p in packages] == ["mpp_studio"]
    for child in packages:
        assert child.name not in sys.stdlib_module_names, child.name
        spec = importlib.util.find_spec(child.name)
        assert spec is not None and spec.origin is not None
        assert Path(spec.origin).resolve().is_relative_to(PLATFORM_ROOT), spec.origin


@pytest.mark.parametrize("name", ENGINES)
def test_engine_package_resolves_to_checkout(name: str) -> None:
    """Engine names are PyPI names too (`generator`, `scoring`, `study`...): ours must be imported."""
    spec = importlib.util.find_spec(name)
    assert spec is not None, name
    locations = [Path(p).resolve() for p in spec.submodule_search_locations or []]
    assert locations == [REPO_ROOT / name], locations
    has_code = any((REPO_ROOT / name).rglob("*.py"))
    # A namespace package (no __init__.py) loses to a same-named regular package anywhere on
    # the path, so an engine with code must be a regular package.
    assert not has_code or (REPO_ROOT / name / "__init__.py").exists()


def test_standard_platform_module_is_importable() -> None:
    """With platform/ and the repository root on sys.path, `import platform` is the stdlib's."""
    import platform
    import uuid

    assert platform.system()
    assert not Path(platform.__file__).resolve().is_relative_to(REPO_ROOT)
    assert uuid.uuid4()


def test_web_tests_are_not_named_platform() -> None:
    """tests/platform/ would be imported as the package `platform` by pytest: use tests/web/."""
    assert not (REPO_ROOT / "tests" / "platform").exists()


def _contract(name_start: str) -> dict[str, Any]:
    contracts = PYPROJECT["tool"]["importlinter"]["contracts"]
    matches = [c for c in contracts if c["name"].startswith(name_start)]
    assert len(matches) == 1, [c["name"] for c in contracts]
    return matches[0]


def test_engine_list_is_every_top_level_package() -> None:
    """A new top-level package is an engine, and must be added to ENGINES (and so be checked)."""
    packages = {p.name for p in REPO_ROOT.iterdir() if (p / "__init__.py").exists()}
    assert packages - set(NOT_ENGINES) == set(ENGINES)


@pytest.mark.parametrize("name", ENGINES)
def test_engine_is_known_to_build_types_and_contracts(name: str) -> None:
    """Each engine is packaged, type-checked strictly, import-linted and kept free of Django."""
    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    assert any(fnmatch.fnmatchcase(name, pattern) for pattern in include), include
    strict = [o for o in PYPROJECT["tool"]["mypy"]["overrides"] if o.get("strict")]
    assert any(f"{name}.*" in o["module"] for o in strict), strict
    assert name in PYPROJECT["tool"]["importlinter"]["root_packages"]
    assert name in _contract("Engines stay free of Django")["source_modules"]
    layers = _contract("Engines depend only downwards")["layers"]
    assert any(name in re.split(r"[|:]", layer.replace(" ", "")) for layer in layers), layers
    mypy_line = next(
        line for line in (REPO_ROOT / "scripts" / "test.sh").read_text().splitlines() if "bin/mypy" in line
    )
    assert name in mypy_line.split(), mypy_line
    install = (REPO_ROOT / "docker" / "install.sh").read_text()
    assert re.search(rf"^for package in .*\b{name}\b.*; do$", install, re.M), "docker/install.sh"


def _imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]  # a module imported by name
    return names


@pytest.mark.parametrize("name", [e for e in ENGINES if e != "mpp"])
def test_engine_never_imports_the_mpp_command(name: str) -> None:
    """`mpp` sits above every engine: an engine that imported it would import every other one."""
    offending = [
        f"{path.relative_to(REPO_ROOT)}: {module}"
        for path in sorted((REPO_ROOT / name).rglob("*.py"))
        for module in _imported_modules(path)
        if module == "mpp" or module.startswith("mpp.")
    ]
    assert offending == []


def test_mpp_console_script_target_is_importable() -> None:
    """`[project.scripts] mpp` names a callable in the checkout's `mpp` package."""
    target = PYPROJECT["project"]["scripts"]["mpp"]
    module_name, _, attribute = target.partition(":")
    assert module_name.split(".")[0] == "mpp", target
    module = importlib.import_module(module_name)
    assert module.__file__ is not None
    assert Path(module.__file__).resolve().is_relative_to(REPO_ROOT / "mpp")
    assert callable(getattr(module, attribute))


def test_no_app_imports_another_apps_views() -> None:
    """Pages are built on shared helpers (accounts.page_context), services and selectors, never
    on another app's view module."""
    apps = REPO_ROOT / "platform" / "mpp_studio"
    crossing = []
    for path in sorted(apps.glob("*/**/*.py")):
        app = path.relative_to(apps).parts[0]
        for module in _imported_modules(path):
            parts = module.split(".")
            other_app = len(parts) >= 3 and parts[0] == "mpp_studio" and parts[1] != app
            if other_app and parts[2].startswith("views"):
                crossing.append(f"{path.relative_to(REPO_ROOT)} imports {module}")
    assert crossing == []


def _comments(path: Path) -> Iterator[tuple[int, str]]:
    with path.open("rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.string


def _unexplained_ignore(comment: str) -> bool:
    return bool(re.search(r"type:\s*ignore", comment)) and not EXPLAINED_IGNORE.search(comment)


@pytest.mark.parametrize(
    ("comment", "unexplained"),
    [
        ("# type: ignore[attr-defined]  # set by ProjectRolePermission", False),
        ("# type: ignore[assignment,misc]  # the stand-in without redis", False),
        ("# type: ignore", True),
        ("# type: ignore  # the stubs are wrong", True),
        ("# type: ignore[arg-type]", True),
        ("# type: ignore[arg-type]  #", True),
        ("# type:ignore[]  # why", True),
        ("# the words type and ignore, not a pragma", False),
    ],
)
def test_unexplained_ignore_is_told_apart(comment: str, unexplained: bool) -> None:
    assert _unexplained_ignore(comment) is unexplained


def test_platform_type_ignores_name_their_code_and_reason() -> None:
    """Every `# type: ignore` in platform/ names its error codes, so that mypy still reports any
    other error on that line, and says after them why the code is right and mypy is not."""
    unexplained = [
        f"{path.relative_to(REPO_ROOT)}:{line}: {comment}"
        for path in sorted(PLATFORM_ROOT.rglob("*.py"))
        for line, comment in _comments(path)
        if _unexplained_ignore(comment)
    ]
    assert unexplained == []


def test_platform_is_type_checked() -> None:
    """scripts/test.sh runs mypy on the platform with the Django and DRF plugins, every function
    body checked and every ignore needed."""
    mypy = PYPROJECT["tool"]["mypy"]
    assert {"mypy_django_plugin.main", "mypy_drf_plugin.main"} <= set(mypy["plugins"])
    assert PYPROJECT["tool"]["django-stubs"]["django_settings_module"] == "mpp_studio.settings.test"
    (platform,) = [o for o in mypy["overrides"] if o["module"] == ["mpp_studio.*"]]
    assert platform["check_untyped_defs"] and platform["warn_unused_ignores"]
    commands = (REPO_ROOT / "scripts" / "test.sh").read_text().splitlines()
    assert ".venv/bin/mypy -p mpp_studio" in commands
