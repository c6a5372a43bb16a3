"""platform/ is a source root; nothing in it, or in the engines, may shadow another module."""

import importlib.util
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PLATFORM_ROOT = REPO_ROOT / "platform"
ENGINES = ("generator", "scoring", "vocab")


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
    """`generator`, `scoring` and `vocab` are PyPI names too: ours must be the ones imported."""
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
