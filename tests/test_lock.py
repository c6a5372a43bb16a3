"""requirements-lock.txt is the one lock every install uses (scripts/setup.sh, CI, both images).

It must pin every dependency pyproject.toml names (runtime, dev and flower; torch alone is pinned
in pyproject.toml) to a version its range allows, and the environment these tests run in must be
exactly what the lock says, so a fresh install tests what the last session tested.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO_ROOT = Path(__file__).resolve().parents[1]
LOCK = REPO_ROOT / "requirements-lock.txt"
# Installed but deliberately not locked: the installer's own tools, torch (pyproject.toml pins it;
# the CUDA image's build brings nvidia-* and triton) and this project itself.
NOT_LOCKED = re.compile(r"^(pip|setuptools|wheel|torch|triton|nvidia-.*|mpp-studio)$")


def lock_pins() -> dict[str, str]:
    """Return {canonical name: version} of requirements-lock.txt."""
    pins: dict[str, str] = {}
    for number, line in enumerate(LOCK.read_text(encoding="utf-8").splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        name, separator, version = line.partition("==")
        assert separator and version, f"requirements-lock.txt line {number} is not NAME==VERSION: {line!r}"
        pins[canonicalize_name(name)] = version
    return pins


def test_lock_pins_every_declared_dependency_within_its_range() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        declared += extra
    pins = lock_pins()
    assert "torch" not in pins, "torch is pinned by pyproject.toml alone"
    for text in declared:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        if name == "torch":
            assert str(requirement.specifier).startswith("=="), "pyproject.toml must pin torch exactly"
            continue
        assert name in pins, f"{name} is missing from requirements-lock.txt: run scripts/lock.sh"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"requirements-lock.txt has {name}=={pins[name]}, outside {requirement}: run scripts/lock.sh"
        )


def test_this_environment_is_exactly_the_lock() -> None:
    """Every package installed here (bar NOT_LOCKED) is in the lock at its locked version."""
    pins = lock_pins()
    differences = []
    for distribution in importlib.metadata.distributions():
        name = canonicalize_name(distribution.metadata["Name"])
        if NOT_LOCKED.match(name):
            continue
        version = distribution.version.split("+")[0]
        if pins.get(name) != version:
            differences.append(f"{name} {version} installed, lock: {pins.get(name, 'absent')}")
    assert not differences, "run ./scripts/setup.sh (or scripts/lock.sh after a change):\n" + "\n".join(
        sorted(differences)
    )
