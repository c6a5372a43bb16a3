"""Finding the checkpoints of a training run in a folder, in training order, to score each one
(learning curves over steps)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from scoring.errors import ScoringError

# Hugging Face Trainer's `checkpoint-<step>`, and the `step<N>` / `step-<N>` / `step_<N>` names
# of Pythia-style revisions.
_STEP_NAME = re.compile(r"^(?:checkpoint|step)[-_]?(\d+)$", re.IGNORECASE)
MODEL_FILE = "config.json"  # what makes a folder loadable with from_pretrained


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A model folder saved at training step `step`."""

    step: int
    path: str


def step_of(name: str) -> int | None:
    """Return the step a folder name gives (`checkpoint-500`, `step500`, `step-500`), or None."""
    match = _STEP_NAME.match(name)
    return int(match.group(1)) if match else None


def _trainer_step(folder: Path) -> int | None:
    """Return `global_step` from the folder's trainer_state.json, or None when absent/unreadable."""
    try:
        state = json.loads((folder / "trainer_state.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    step = state.get("global_step") if isinstance(state, dict) else None
    return step if isinstance(step, int) and not isinstance(step, bool) and step >= 0 else None


def find_checkpoints(path: str | Path) -> list[Checkpoint]:
    """Return the checkpoints in `path`, sorted by step (then path).

    Each direct subfolder named like `checkpoint-<step>`, `step<N>` or `step-<N>` that holds a
    config.json is one. The folder itself is one only if it holds a config.json (the final
    model a Trainer saves beside its checkpoints); its step is trainer_state.json's
    `global_step`, else the step in its own name, else one past the last subfolder checkpoint
    (it was saved after them).

    Raises:
        ScoringError: if `path` is not a folder, or holds no checkpoint (saying what it saw).
    """
    folder = Path(path)
    if not folder.is_dir():
        raise ScoringError(f"{folder}: no such folder (give the training run's output folder)")
    found: list[Checkpoint] = []
    without_config: list[str] = []
    for child in sorted(folder.iterdir()):
        step = step_of(child.name)
        if step is None or not child.is_dir():
            continue
        if (child / MODEL_FILE).is_file():
            found.append(Checkpoint(step, str(child)))
        else:
            without_config.append(child.name)
    if (folder / MODEL_FILE).is_file():
        own = _trainer_step(folder)
        if own is None:
            own = step_of(folder.name)
        if own is None:
            own = max((c.step for c in found), default=-1) + 1
        found.append(Checkpoint(own, str(folder)))
    if not found:
        seen = (
            f"; these have no {MODEL_FILE}: {', '.join(without_config[:5])}"
            + (" ..." if len(without_config) > 5 else "")
            if without_config
            else ""
        )
        raise ScoringError(
            f"{folder}: no checkpoints found (subfolders named checkpoint-<step>, step<N> or step-<N> "
            f"holding a {MODEL_FILE}, or a {MODEL_FILE} in the folder itself){seen}"
        )
    return sorted(found, key=lambda c: (c.step, c.path))
