"""Whether a model's config fits the kind it is scored as: causal (each token given only the
tokens before it) or masked (bidirectional, scored by pseudo-log-likelihood).

A masked model loaded as a causal LM gets a freshly initialised head or attends both ways, and
its scores claim what its attention does not do; a causal model has no masked-LM head. The
config says which it is: its `architectures` (the classes it was saved from), `model_type`, and
`is_decoder` (an encoder such as BERT made to attend left to right). Registration and loading
both check it (`kind_problem`), so such a model is refused in words before anything is scored.

`hub_config` reads a hub model's config from the local cache, or with one short request to the
hub (no retries), so that a registration learns at once that the server cannot reach the hub.
Importing this module imports neither torch nor transformers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

ScoredKind = Literal["causal", "masked"]

# Encoder-only model types: bidirectional unless the config sets is_decoder.
ENCODER_TYPES = frozenset(
    {
        "albert",
        "bert",
        "big_bird",
        "camembert",
        "convbert",
        "data2vec-text",
        "deberta",
        "deberta-v2",
        "distilbert",
        "electra",
        "ernie",
        "esm",
        "flaubert",
        "funnel",
        "ibert",
        "megatron-bert",
        "mobilebert",
        "modernbert",
        "mpnet",
        "nezha",
        "rembert",
        "roberta",
        "roberta-prelayernorm",
        "roc_bert",
        "roformer",
        "squeezebert",
        "xlm",
        "xlm-roberta",
        "xlm-roberta-xl",
        "xmod",
    }
)
_MASKED_HEADS = ("ForMaskedLM", "ForPreTraining")
_CAUSAL_HEADS = ("ForCausalLM", "LMHeadModel")
HUB_TIMEOUT_S = 8.0


class ModelConfigError(ValueError):
    """A model config that cannot be read, or a hub that cannot be asked, in words."""


@dataclass(frozen=True, slots=True)
class ConfigFacts:
    """What a model's config says about how it attends."""

    architectures: tuple[str, ...]
    model_type: str
    is_decoder: bool
    is_encoder_decoder: bool

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> ConfigFacts:
        """Return the facts of a config.json's content."""
        architectures = config.get("architectures") or ()
        return cls(
            architectures=tuple(str(a) for a in architectures) if isinstance(architectures, list) else (),
            model_type=str(config.get("model_type") or ""),
            is_decoder=config.get("is_decoder") is True,
            is_encoder_decoder=config.get("is_encoder_decoder") is True,
        )

    @property
    def described(self) -> str:
        """The config's evidence for a message: `architecture RobertaForMaskedLM, model type roberta`."""
        parts = []
        if self.architectures:
            parts.append(f"architecture {', '.join(self.architectures)}")
        if self.model_type:
            parts.append(f"model type {self.model_type}")
        return ", ".join(parts) or "no architecture or model type"

    @property
    def bidirectional(self) -> bool:
        """Whether the model attends both ways (an encoder not made a decoder)."""
        if self.is_decoder:
            return False
        masked_head = any(a.endswith(_MASKED_HEADS) for a in self.architectures)
        return masked_head or self.model_type in ENCODER_TYPES

    @property
    def left_to_right(self) -> bool:
        """Whether the model has a causal LM head and attends only to the tokens before."""
        if self.is_encoder_decoder:
            return False
        causal_head = any(a.endswith(_CAUSAL_HEADS) for a in self.architectures)
        return (causal_head or self.is_decoder) and not self.bidirectional


def kind_problem(facts: ConfigFacts, kind: ScoredKind) -> str:
    """Return why a model with this config cannot be scored as `kind` ("" when it can, or when
    the config does not tell)."""
    if facts.is_encoder_decoder:
        return (
            f"its config describes an encoder-decoder (sequence-to-sequence) model ({facts.described}); "
            "only causal and masked language models can be scored"
        )
    if kind == "causal" and facts.bidirectional:
        return (
            f"its config describes a masked, bidirectional model ({facts.described}): a causal LM "
            "scores each token given only the tokens before it, which bidirectional attention does "
            "not do. Register it as a masked LM"
        )
    if kind == "masked" and facts.left_to_right:
        return (
            f"its config describes a causal, left-to-right model ({facts.described}) with no "
            "masked-LM head. Register it as a causal LM"
        )
    return ""


def read_config_file(path: Path) -> dict[str, Any]:
    """Return the JSON object of a config.json file.

    Raises:
        ModelConfigError: when it is missing, unreadable or not a JSON object, naming the file.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelConfigError(f"'{path.parent}' has no config.json, so it holds no saved model") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelConfigError(f"'{path}' cannot be read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise ModelConfigError(f"'{path}' is not JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict):
        raise ModelConfigError(f"'{path}' holds no JSON object")
    return data


def hub_config(model_id: str, revision: str = "", *, timeout: float = HUB_TIMEOUT_S) -> dict[str, Any]:
    """Return the config.json of hub model `model_id` at `revision`: from the local cache when
    it is there, else asked of the hub once, waiting at most `timeout` seconds.

    Raises:
        ModelConfigError: for an id that is not one, a model or revision the hub does not have
            (or keeps private or gated), a hub that cannot be reached or is switched off
            (HF_HUB_OFFLINE), each in words.
    """
    import httpx
    from huggingface_hub import constants, hf_hub_url, try_to_load_from_cache
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import build_hf_headers  # type: ignore[attr-defined]  # exported, not re-declared

    try:
        cached = try_to_load_from_cache(model_id, "config.json", revision=revision or None)
    except HFValidationError:
        raise ModelConfigError(
            f"'{model_id}' is neither a folder on the server nor a Hugging Face id ('name' or 'owner/name')"
        ) from None
    if isinstance(cached, str) and os.path.isfile(cached):
        return read_config_file(Path(cached))
    unreachable = (
        f"'{model_id}' is not in this server's model cache, and the server {{why}}. Download the "
        "model into a folder the server can read and register the folder, or fill the cache"
    )
    if constants.HF_HUB_OFFLINE:
        raise ModelConfigError(unreachable.format(why="does not ask the hub (HF_HUB_OFFLINE is set)"))
    url = hf_hub_url(model_id, "config.json", revision=revision or None)
    try:
        response = httpx.get(url, headers=build_hf_headers(), timeout=timeout, follow_redirects=True)
    except httpx.HTTPError:
        raise ModelConfigError(unreachable.format(why="cannot reach the Hugging Face hub")) from None
    code = response.headers.get("X-Error-Code", "")
    if response.status_code == 200:
        try:
            data = response.json()
        except ValueError:
            raise ModelConfigError(f"the config.json of '{model_id}' on the hub is not JSON") from None
        if not isinstance(data, dict):
            raise ModelConfigError(f"the config.json of '{model_id}' on the hub holds no JSON object")
        return data
    if code == "RevisionNotFound":
        raise ModelConfigError(f"the Hugging Face hub has no revision '{revision}' of '{model_id}'")
    if code == "EntryNotFound":
        raise ModelConfigError(
            f"'{model_id}' on the Hugging Face hub has no config.json, so it is no saved model"
        )
    if response.status_code in (401, 403, 404) or code in ("RepoNotFound", "GatedRepo"):
        raise ModelConfigError(
            f"the Hugging Face hub has no model '{model_id}' this server may read (it may be private "
            "or gated: give the server a token with HF_TOKEN)"
        )
    raise ModelConfigError(
        unreachable.format(why=f"got answer {response.status_code} from the Hugging Face hub")
    )
