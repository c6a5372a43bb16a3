"""ScorerSettings keys: what changes numbers changes the key, what changes only speed does not."""

from __future__ import annotations

import time
from pathlib import Path

from scoring.settings import SCORING_VERSION, ScorerSettings, model_fingerprint


def test_key_ignores_device_and_batch_size() -> None:
    base = ScorerSettings(method="causal", model="gpt2")
    assert base.key() == ScorerSettings(method="causal", model="gpt2", device="cuda", token_budget=64).key()


def test_key_changes_with_every_number_determining_field() -> None:
    base = ScorerSettings(method="causal", model="gpt2")
    variants = [
        ScorerSettings(method="pll", model="gpt2"),
        ScorerSettings(method="causal", model="gpt2-medium"),
        ScorerSettings(method="causal", model="gpt2", revision="abc"),
        ScorerSettings(method="causal", model="gpt2", dtype="bfloat16"),
        ScorerSettings(method="causal", model="gpt2", score_eos=True),
        ScorerSettings(method="causal", model="gpt2", language="zh"),
        ScorerSettings(method="causal", model="gpt2", fingerprint="f00d"),
    ]
    keys = {variant.key() for variant in variants}
    assert base.key() not in keys
    assert len(keys) == len(variants)
    assert base.identity()["scoring_version"] == SCORING_VERSION


def test_fingerprint_of_a_folder_changes_when_weights_are_replaced(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(b"1234")
    first = model_fingerprint(str(tmp_path))
    assert first and first == model_fingerprint(str(tmp_path))
    time.sleep(0.01)
    weights.write_bytes(b"123456")
    assert model_fingerprint(str(tmp_path)) != first


def test_fingerprint_of_a_hub_id_is_empty() -> None:
    assert model_fingerprint("org/some-model-not-a-folder") == ""


def test_fingerprint_refuses_a_folder_that_is_not_a_model(tmp_path: Path, monkeypatch) -> None:
    import pytest

    from scoring import settings
    from scoring.errors import ScoringError

    monkeypatch.setattr(settings, "FINGERPRINT_MAX_FILES", 3)
    for index in range(4):
        (tmp_path / f"f{index}.txt").write_text("x")
    with pytest.raises(ScoringError, match="not a model folder"):
        model_fingerprint(str(tmp_path))
