"""Loading by hub id: a model in the Hugging Face cache (laid out as the hub client leaves it,
built here, never downloaded) loads by its id offline and records the commit it resolved to."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scoring.registry import load_scorer
from scoring.settings import ScorerSettings

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _hub_cache(root: Path, repo_id: str, model_folder: Path) -> Path:
    """Lay out `model_folder` as the hub cache holds a download of `repo_id` at COMMIT."""
    repo = root / ("models--" + repo_id.replace("/", "--"))
    snapshot = repo / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    for path in model_folder.iterdir():
        shutil.copy(path, snapshot / path.name)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    return root


def test_a_cached_hub_id_loads_offline_and_records_its_commit(
    tiny_gpt2: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = _hub_cache(tmp_path / "hub", "mpp-test/tiny-gpt2", tiny_gpt2)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(cache))
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", True)
    monkeypatch.setattr("transformers.utils.hub.HF_HUB_CACHE", str(cache), raising=False)
    monkeypatch.setattr("transformers.utils.hub.TRANSFORMERS_CACHE", str(cache), raising=False)
    from scoring.items import Sentence

    by_id = load_scorer(ScorerSettings(method="causal", model="mpp-test/tiny-gpt2", device="cpu"))
    by_path = load_scorer(ScorerSettings(method="causal", model=str(tiny_gpt2), device="cpu"))
    assert by_id.describe()["resolved_commit"] == COMMIT
    assert by_path.describe()["resolved_commit"] is None
    sentence = [Sentence("The cat sleeps on the mat.")]
    assert by_id.score(sentence)[0].logprobs == pytest.approx(by_path.score(sentence)[0].logprobs, abs=1e-6)
