"""Finding a training run's checkpoints: Trainer and step-named subfolders, sorted by step
(numerically), the final model in the folder itself, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.checkpoints import Checkpoint, find_checkpoints, step_of
from scoring.errors import ScoringError


def _model(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text("{}", encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("name", "step"),
    [("checkpoint-500", 500), ("step1000", 1000), ("step-20", 20), ("step_3", 3), ("Checkpoint-7", 7)],
)
def test_step_of_reads_the_usual_names(name: str, step: int) -> None:
    assert step_of(name) == step


@pytest.mark.parametrize("name", ["checkpoint", "runs", "checkpoint-best", "step-1-extra", "final"])
def test_step_of_ignores_other_names(name: str) -> None:
    assert step_of(name) is None


def test_checkpoints_are_sorted_by_step_not_by_name(tmp_path: Path) -> None:
    """checkpoint-1000 comes after checkpoint-500 although it sorts before it as text."""
    for name in ("checkpoint-1000", "checkpoint-500", "checkpoint-20"):
        _model(tmp_path / name)
    (tmp_path / "runs").mkdir()
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    assert find_checkpoints(tmp_path) == [
        Checkpoint(20, str(tmp_path / "checkpoint-20")),
        Checkpoint(500, str(tmp_path / "checkpoint-500")),
        Checkpoint(1000, str(tmp_path / "checkpoint-1000")),
    ]


def test_step_named_revisions(tmp_path: Path) -> None:
    _model(tmp_path / "step-2")
    _model(tmp_path / "step10")
    assert [c.step for c in find_checkpoints(tmp_path)] == [2, 10]


def test_the_folder_itself_counts_only_with_a_config(tmp_path: Path) -> None:
    """Without config.json the run folder is no checkpoint; with one it is the final model,
    its step taken from trainer_state.json, else placed after the last checkpoint."""
    _model(tmp_path / "checkpoint-100")
    assert [c.path for c in find_checkpoints(tmp_path)] == [str(tmp_path / "checkpoint-100")]
    _model(tmp_path)
    assert find_checkpoints(tmp_path)[-1] == Checkpoint(101, str(tmp_path))
    (tmp_path / "trainer_state.json").write_text(json.dumps({"global_step": 150}), encoding="utf-8")
    assert find_checkpoints(tmp_path)[-1] == Checkpoint(150, str(tmp_path))


def test_a_single_checkpoint_folder_is_its_own_checkpoint(tmp_path: Path) -> None:
    folder = _model(tmp_path / "checkpoint-40")
    assert find_checkpoints(folder) == [Checkpoint(40, str(folder))]


def test_no_checkpoints_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "checkpoint-5").mkdir()  # no config.json: not loadable
    with pytest.raises(ScoringError, match=r"no checkpoints found.*checkpoint-5"):
        find_checkpoints(tmp_path)
    with pytest.raises(ScoringError, match="no such folder"):
        find_checkpoints(tmp_path / "missing")
