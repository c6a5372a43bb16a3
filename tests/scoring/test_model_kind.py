"""A model is scored only as the kind its config describes: a masked LM is refused as a causal
one (and the reverse) when it is loaded, and a hub model's config is read from the cache or
asked of the hub once, with every failure in words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from huggingface_hub import constants

from scoring import ScorerSettings, load_scorer
from scoring.errors import ModelLoadError
from scoring.model_kind import ConfigFacts, ModelConfigError, hub_config, kind_problem, read_config_file

ROBERTA = {"architectures": ["RobertaForMaskedLM"], "model_type": "roberta"}
GPT2 = {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2"}


@pytest.mark.parametrize(
    ("config", "kind", "refused"),
    [
        (
            ROBERTA,
            "causal",
            "masked, bidirectional model (architecture RobertaForMaskedLM, model type roberta)",
        ),
        (ROBERTA, "masked", ""),
        ({"model_type": "bert"}, "causal", "masked, bidirectional model (model type bert)"),
        ({"architectures": ["BertForPreTraining"]}, "causal", "masked, bidirectional"),
        # BERT made a decoder attends left to right: a causal LM
        ({"architectures": ["BertLMHeadModel"], "model_type": "bert", "is_decoder": True}, "causal", ""),
        (GPT2, "causal", ""),
        (GPT2, "masked", "causal, left-to-right model (architecture GPT2LMHeadModel, model type gpt2)"),
        ({"architectures": ["LlamaForCausalLM"], "model_type": "llama"}, "masked", "causal, left-to-right"),
        (
            {"architectures": ["T5ForConditionalGeneration"], "is_encoder_decoder": True},
            "causal",
            "encoder-decoder",
        ),
        ({"model_type": "some-new-model"}, "causal", ""),  # the config does not tell: loading decides
        ({}, "masked", ""),
    ],
)
def test_a_config_fits_the_kind_it_describes(config: dict[str, Any], kind: str, refused: str) -> None:
    problem = kind_problem(ConfigFacts.of(config), kind)  # type: ignore[arg-type]
    if refused:
        assert refused in problem
    else:
        assert problem == ""


def test_a_masked_model_is_refused_as_a_causal_lm_when_loaded(tiny_bert: Path) -> None:
    with pytest.raises(ModelLoadError) as caught:
        load_scorer(ScorerSettings("causal", str(tiny_bert)))
    assert str(caught.value).startswith(f"'{tiny_bert}' cannot be scored as a causal language model: ")
    assert "architecture BertForMaskedLM, model type bert" in str(caught.value)


def test_a_causal_model_is_refused_as_a_masked_lm_when_loaded(tiny_gpt2: Path) -> None:
    with pytest.raises(ModelLoadError) as caught:
        load_scorer(ScorerSettings("pll", str(tiny_gpt2)))
    assert "cannot be scored as a masked language model" in str(caught.value)
    assert "Register it as a causal LM" in str(caught.value)


def test_config_files_that_cannot_be_read_are_named(tmp_path: Path) -> None:
    with pytest.raises(ModelConfigError, match=r"has no config\.json"):
        read_config_file(tmp_path / "config.json")
    (tmp_path / "config.json").write_text('{"model_type": "gpt2",\n  oops}')
    with pytest.raises(ModelConfigError, match=r"is not JSON \(line 2"):
        read_config_file(tmp_path / "config.json")
    (tmp_path / "config.json").write_text("[1, 2]")
    with pytest.raises(ModelConfigError, match="holds no JSON object"):
        read_config_file(tmp_path / "config.json")


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A hub cache of this test's own, and a hub that may be asked."""
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    return tmp_path / "hub"


def answer(monkeypatch: pytest.MonkeyPatch, response: httpx.Response | Exception) -> list[str]:
    """Make the hub answer every request with `response`; return the URLs asked."""
    asked: list[str] = []

    def get(url: str, **_: object) -> httpx.Response:
        asked.append(url)
        if isinstance(response, Exception):
            raise response
        return response

    monkeypatch.setattr(httpx, "get", get)
    return asked


def test_a_cached_config_is_read_without_asking_the_hub(
    empty_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = empty_cache / "models--someone--tiny" / "snapshots" / ("a" * 40)
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text(json.dumps(ROBERTA))
    (empty_cache / "models--someone--tiny" / "refs").mkdir()
    (empty_cache / "models--someone--tiny" / "refs" / "main").write_text("a" * 40)
    asked = answer(monkeypatch, httpx.ConnectError("no network"))
    assert hub_config("someone/tiny") == ROBERTA
    assert asked == []


def test_the_hub_is_asked_once_for_a_config_it_has(
    empty_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = answer(monkeypatch, httpx.Response(200, json=GPT2))
    assert hub_config("gpt2", "main") == GPT2
    assert asked == ["https://huggingface.co/gpt2/resolve/main/config.json"]


@pytest.mark.parametrize(
    ("response", "words"),
    [
        (httpx.ConnectError("Name or service not known"), "cannot reach the Hugging Face hub"),
        (httpx.ConnectTimeout("timed out"), "cannot reach the Hugging Face hub"),
        (
            httpx.Response(404, headers={"X-Error-Code": "RepoNotFound"}),
            "the Hugging Face hub has no model 'owner/none'",
        ),
        (httpx.Response(401), "it may be private or gated"),
        (
            httpx.Response(404, headers={"X-Error-Code": "RevisionNotFound"}),
            "has no revision 'step9' of 'owner/none'",
        ),
        (httpx.Response(404, headers={"X-Error-Code": "EntryNotFound"}), "has no config.json"),
        (httpx.Response(503), "got answer 503 from the Hugging Face hub"),
        (httpx.Response(200, text="<html>"), "is not JSON"),
    ],
)
def test_a_hub_that_cannot_give_the_config_is_said_in_words(
    empty_cache: Path, monkeypatch: pytest.MonkeyPatch, response: httpx.Response | Exception, words: str
) -> None:
    answer(monkeypatch, response)
    with pytest.raises(ModelConfigError) as caught:
        hub_config("owner/none", "step9")
    assert words in str(caught.value)


def test_an_offline_server_does_not_ask_the_hub(empty_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    asked = answer(monkeypatch, httpx.Response(200, json=GPT2))
    with pytest.raises(ModelConfigError, match="HF_HUB_OFFLINE is set"):
        hub_config("gpt2")
    assert asked == []


def test_an_id_that_is_no_hub_id_is_said(empty_cache: Path) -> None:
    with pytest.raises(ModelConfigError, match="neither a folder on the server nor a Hugging Face id"):
        hub_config("not//an id")
