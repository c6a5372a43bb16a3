"""Torch helpers shared by the model scorers: device and dtype choice, loading a model and its
tokenizer with a plain-words error, the out-of-memory retry, and the float32 output head.

Imported only by scorer modules (never by `scoring/__init__`), so importing `scoring` stays light.
CUDA is first touched by `pick_device`, which scorers call in their constructor: a Celery worker
forks before any scorer exists.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

import torch
from torch import nn

from scoring.errors import ModelLoadError, OutOfMemoryError
from scoring.model_kind import ConfigFacts, ScoredKind, kind_problem
from scoring.settings import SCORING_VERSION, ScorerSettings

T = TypeVar("T")
R = TypeVar("R")

DTYPES: dict[str, torch.dtype] = {
    "float32": torch.float32,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
}
# Logit floats per head chunk: one chunk's float32 logits stay near 256 MB on a GPU and 64 MB on
# the CPU whatever the vocabulary (a 262k-entry vocabulary would otherwise need gigabytes for a
# large batch). Smaller CPU chunks cost speed: 65-row chunks of a 32k vocabulary made the whole
# scorer about 35% slower than 524-row ones (bench/scoring.py model, 2 threads).
LOGIT_FLOATS_PER_CHUNK = 1 << 26
LOGIT_FLOATS_PER_CHUNK_CPU = 1 << 24
HeadPrecision = Literal["float32", "model"]
# Tokens per forward pass on the CPU at most: larger passes' activations (tens of MB) are mapped
# and page-faulted afresh by the allocator on every layer. With bench/scoring.py's model,
# 1,024-token passes scored 15% faster than 8,192-token ones in float32 (2 threads).
CPU_TOKEN_BUDGET = 1024


def torch_dtype(name: str) -> torch.dtype:
    """Return the torch dtype of a settings dtype name ("float32", "bfloat16", "float16").

    Raises:
        ModelLoadError: for another name.
    """
    try:
        return DTYPES[name]
    except KeyError:
        raise ModelLoadError(f"unknown dtype '{name}' (choose from {', '.join(DTYPES)})") from None


def pick_device(name: str) -> torch.device:
    """Return the device a scorer runs on: "auto" is the first CUDA GPU when there is one, else
    the CPU; any other name ("cpu", "cuda", "cuda:1") is taken as given.

    Raises:
        ModelLoadError: for an unknown device name, or a CUDA device asked for without a GPU.
    """
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError as exc:
        raise ModelLoadError(f"unknown device '{name}': {exc}") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ModelLoadError(f"device '{name}' was asked for but no CUDA GPU is available")
    return device


def effective_token_budget(requested: int, device: torch.device) -> int:
    """Return the tokens per forward pass to use: `requested` on a GPU, at most CPU_TOKEN_BUDGET
    on the CPU (the budget changes speed, never the scores)."""
    requested = max(1, requested)
    return requested if device.type != "cpu" else min(requested, CPU_TOKEN_BUDGET)


def clip(text: str, width: int = 60) -> str:
    """Return `text`, shortened with an ellipsis to at most `width` characters."""
    return text if len(text) <= width else text[: width - 1] + "…"


def model_label(settings: ScorerSettings) -> str:
    """Return how messages name the model: 'id' and, when pinned, its revision."""
    return f"'{settings.model}'" + (f" (revision {settings.revision})" if settings.revision else "")


# --------------------------------------------------------------------------------- loading


@dataclass(slots=True)
class Loaded:
    """A loaded model (eval mode, on its device, weights in the asked dtype), its fast tokenizer,
    and the hub commit the revision resolved to (None for a local folder)."""

    model: Any
    tokenizer: Any
    commit: str | None


def load_pretrained(
    settings: ScorerSettings,
    auto_class: Literal["AutoModelForCausalLM", "AutoModelForMaskedLM"],
    device: torch.device,
    *,
    kind: str,
) -> Loaded:
    """Return the model of `settings.model` (a Hugging Face id or a local folder, at
    `settings.revision`) loaded with `auto_class` in `settings.dtype`, with its tokenizer.
    `kind` names the model in messages ("causal language model").

    Raises:
        ModelLoadError: the model or tokenizer cannot be loaded (the message says why in words),
            its config describes another kind of model (`model_kind.kind_problem`: a masked
            model loaded as a causal LM, or the reverse), or the tokenizer is not a fast one
            (character offsets are needed).
        OutOfMemoryError: the weights do not fit on `device`.
    """
    import transformers
    from transformers.utils import logging as hf_logging

    label = model_label(settings)
    if not settings.model.strip():
        raise ModelLoadError("no model was given: a Hugging Face id or a local folder is needed")
    dtype = torch_dtype(settings.dtype)
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    local = _local_problem(settings.model)
    if local is not None:
        raise ModelLoadError(f"{kind} {label} could not be loaded: {local}")
    try:
        config = transformers.AutoConfig.from_pretrained(settings.model, revision=settings.revision)
    except Exception as exc:  # every loading failure comes from the user's id, path or files
        raise ModelLoadError(
            f"{kind} {label} could not be loaded: {load_failure_reason(exc, settings)}"
        ) from None
    scored_as: ScoredKind = "causal" if auto_class == "AutoModelForCausalLM" else "masked"
    problem = kind_problem(ConfigFacts.of(config.to_dict()), scored_as)
    if problem:
        raise ModelLoadError(f"{label} cannot be scored as a {kind}: {problem}")
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(settings.model, revision=settings.revision)
        model = getattr(transformers, auto_class).from_pretrained(
            settings.model, revision=settings.revision, dtype=dtype
        )
    except Exception as exc:  # every loading failure comes from the user's id, path or files
        raise ModelLoadError(
            f"{kind} {label} could not be loaded: {load_failure_reason(exc, settings)}"
        ) from None
    if not getattr(tokenizer, "is_fast", False):
        raise ModelLoadError(
            f"the tokenizer of {label} is not a fast (Rust) tokenizer; scoring needs its character "
            "offsets to map tokens to words"
        )
    model.eval()
    try:
        model.to(device)
    except Exception as exc:
        if is_out_of_memory(exc):
            raise OutOfMemoryError(
                f"the weights of {label} ({settings.dtype}) do not fit in the memory of {device}"
            ) from None
        raise
    commit = getattr(model.config, "_commit_hash", None)
    if not isinstance(commit, str):
        commit = resolved_commit(settings)
    return Loaded(model=model, tokenizer=tokenizer, commit=commit)


def load_tokenizer(model: str, revision: str = "") -> Any:
    """Return the tokenizer of a hub id or local folder at `revision`, without its weights (for
    counting token frequencies and mapping stored tokens back to ids).

    Raises:
        ModelLoadError: when it cannot be loaded, in words.
    """
    import transformers

    settings = ScorerSettings("causal", model, revision=revision or None)
    label = f"the tokenizer of {model_label(settings)}"
    local = _local_problem(model)
    if local is not None:
        raise ModelLoadError(f"{label} could not be loaded: {local}")
    try:
        return transformers.AutoTokenizer.from_pretrained(model, revision=revision or None)
    except Exception as exc:  # every failure comes from the user's id, path or files
        raise ModelLoadError(f"{label} could not be loaded: {load_failure_reason(exc, settings)}") from None


def resolved_commit(settings: ScorerSettings) -> str | None:
    """Return the commit a hub model's revision resolved to, read from the cached snapshot
    path (transformers 5 no longer sets `config._commit_hash`); None for a local folder."""
    if Path(settings.model).expanduser().is_dir():
        return None
    from transformers.utils.hub import cached_file, extract_commit_hash

    try:
        path = cached_file(settings.model, "config.json", revision=settings.revision)
    except Exception:  # the hub cache cannot tell
        return None
    return extract_commit_hash(path, None) if path else None


def _looks_like_path(model: str) -> bool:
    return model.startswith(("/", "./", "../", "~")) or os.sep + os.sep in model or model.count("/") > 1


def _local_problem(model: str) -> str | None:
    """Return why a local model folder cannot be used, or None when it looks usable or `model`
    reads as a hub id."""
    path = Path(model).expanduser()
    if path.is_file():
        return f"'{model}' is a file; a model is a folder saved with save_pretrained (or a hub id)"
    if path.is_dir():
        if not (path / "config.json").is_file():
            return f"the folder '{model}' has no config.json, so it holds no saved model"
        return None
    if _looks_like_path(model):
        return "no such folder (and it is not a Hugging Face id, which reads 'name' or 'owner/name')"
    return None


def load_failure_reason(exc: BaseException, settings: ScorerSettings) -> str:
    """Return, in words, why `from_pretrained` failed with `exc` for `settings.model`."""
    text = str(exc).strip()
    lowered = text.lower()
    name = type(exc).__name__
    revision_missing = "invalid git identifier" in lowered or (
        "revision" in lowered and "not found" in lowered
    )
    if name == "RevisionNotFoundError" or (settings.revision and revision_missing):
        return f"the model hub has no revision '{settings.revision}' of it"
    if name in {"RepositoryNotFoundError", "GatedRepoError"} or "is not a valid model identifier" in lowered:
        return "no such folder here, and no such model on the Hugging Face hub (or it is private or gated)"
    if "couldn't connect" in lowered or "offline" in lowered or "connection" in lowered:
        return "no such folder here, it is not in the local model cache, and no model hub is reachable"
    if "does not appear to have a file named" in lowered or "no file named" in lowered:
        first = text.splitlines()[0]
        return f"its files are incomplete ({first})"
    first = text.splitlines()[0] if text else name
    return f"{first} ({name})"


def max_positions(model: nn.Module, tokenizer: Any) -> int:
    """Return how many tokens (special tokens included) one input may hold: the model's position
    table (or its configured context) and the tokenizer's declared maximum, whichever is smaller."""
    limits: list[int] = []
    embeddings = getattr(getattr(model, "base_model", model), "embeddings", None)
    positions = getattr(embeddings, "position_embeddings", None)
    if isinstance(positions, nn.Embedding):
        # RoBERTa-style positions start after the padding index.
        offset = positions.padding_idx + 1 if positions.padding_idx is not None else 0
        limits.append(positions.num_embeddings - offset)
    else:
        config = getattr(model, "config", None)
        for attribute in ("max_position_embeddings", "n_positions", "n_ctx", "seq_length"):
            configured = getattr(config, attribute, None)
            if isinstance(configured, int) and configured > 0:
                limits.append(configured)
                break
    declared = getattr(tokenizer, "model_max_length", None)
    if isinstance(declared, int) and 0 < declared < 1_000_000:
        limits.append(declared)
    return min(limits) if limits else 1_000_000


def library_versions() -> dict[str, str]:
    """Return the versions of torch, transformers, tokenizers and the scoring code."""
    import tokenizers
    import transformers

    return {
        "torch": str(torch.__version__),
        "transformers": str(transformers.__version__),
        "tokenizers": str(tokenizers.__version__),
        "scoring": SCORING_VERSION,
    }


# --------------------------------------------------------------------------------- out of memory


def is_out_of_memory(exc: BaseException) -> bool:
    """Return whether `exc` is an allocator failure (CUDA or CPU), not a program error."""
    if isinstance(exc, torch.OutOfMemoryError):
        return True
    if isinstance(exc, RuntimeError):
        text = str(exc).lower()
        return "out of memory" in text or "can't allocate memory" in text
    return False


class OomRetry:
    """Runs forward passes, halving a batch that runs out of memory until it fits.

    `retries` counts the halvings (for the platform to report); `cap` is the token count of the
    largest pass known to fit after an out-of-memory, which `budget()` applies to later batches
    so one failure is not repeated batch after batch.
    """

    def __init__(self, device: torch.device) -> None:
        self.device = device
        self.retries = 0
        self.cap: int | None = None

    def budget(self, requested: int) -> int:
        """Return the token budget to build the next batch with: `requested`, or less after an
        out-of-memory."""
        return requested if self.cap is None else max(1, min(requested, self.cap))

    def run(
        self,
        items: Sequence[T],
        forward: Callable[[Sequence[T]], list[R]],
        *,
        tokens: Callable[[Sequence[T]], int],
        too_big: Callable[[T], str],
    ) -> list[R]:
        """Return `forward(items)`, computed in halves (recursively) if it runs out of memory.

        `tokens(batch)` is a batch's padded size; `too_big(item)` the message when a single item
        does not fit.

        Raises:
            OutOfMemoryError: one item alone does not fit.
        """
        try:
            return forward(items)
        except Exception as exc:
            if not is_out_of_memory(exc):
                raise
        # Out of the except block, so the failed pass's tensors (held by the traceback) are freed.
        if self.device.type == "cuda":
            torch.cuda.empty_cache()
        if len(items) <= 1:
            raise OutOfMemoryError(too_big(items[0])) from None
        self.retries += 1
        half = len(items) // 2
        first, second = items[:half], items[half:]
        self.cap = max(1, max(tokens(first), tokens(second)))
        return self.run(first, forward, tokens=tokens, too_big=too_big) + self.run(
            second, forward, tokens=tokens, too_big=too_big
        )


# --------------------------------------------------------------------------------- output head


def target_logprobs(
    features: torch.Tensor,
    weight: torch.Tensor,
    bias: torch.Tensor | None,
    targets: torch.Tensor,
    *,
    precision: HeadPrecision = "float32",
    chunk_floats: int | None = None,
) -> torch.Tensor:
    """Return log p(target) for each row of `features` [n, d] under the output projection
    `weight` [V, d] (+ `bias`), as float32 [n].

    The normaliser (logsumexp over the vocabulary) is always float32. `precision` "float32"
    sums the matmul's products in float32 and keeps float32 logits: with a float32 `weight` by an
    ordinary float32 matmul; with a half-precision one (only where `float32_output_matmul_works`)
    by a half-precision matmul returning float32, the same numbers at half-precision speed.
    "model" does the matmul in the weight's dtype and widens its rounded logits. Rows go in
    chunks of about `chunk_floats` logits (default: LOGIT_FLOATS_PER_CHUNK, or
    LOGIT_FLOATS_PER_CHUNK_CPU on the CPU).
    """
    vocab = int(weight.shape[0])
    if chunk_floats is None:
        chunk_floats = LOGIT_FLOATS_PER_CHUNK_CPU if features.device.type == "cpu" else LOGIT_FLOATS_PER_CHUNK
    rows = max(1, chunk_floats // max(1, vocab))
    parts: list[torch.Tensor] = []
    for start in range(0, int(features.shape[0]), rows):
        chunk = features[start : start + rows]
        if precision == "float32" and weight.dtype != torch.float32:
            logits = torch.mm(chunk.to(weight.dtype), weight.t(), out_dtype=torch.float32)
            if bias is not None:
                logits += bias.float()
        elif precision == "float32":
            logits = nn.functional.linear(
                chunk.float(), weight.float(), bias.float() if bias is not None else None
            )
        else:
            logits = nn.functional.linear(chunk.to(weight.dtype), weight, bias).float()
        picked = logits.gather(1, targets[start : start + rows, None])[:, 0]
        # logsumexp in place: one buffer of logits per chunk, not three.
        top = logits.amax(dim=-1, keepdim=True)
        normaliser = logits.sub_(top).exp_().sum(dim=-1).log_().add_(top[:, 0])
        parts.append(picked - normaliser)
    if not parts:
        return features.new_zeros(0, dtype=torch.float32)
    return torch.cat(parts)


def float32_output_matmul_works(device: torch.device, dtype: torch.dtype) -> bool:
    """Return whether `torch.mm(..., out_dtype=torch.float32)` multiplies `dtype` (bfloat16,
    float16) matrices on `device` into float32 without rounding the result to `dtype` (CUDA
    builds of torch 2.8 and later; not the CPU)."""
    if device.type != "cuda" or dtype == torch.float32:
        return False
    generator = torch.Generator().manual_seed(0)
    a = torch.randn(8, 64, generator=generator).to(device=device, dtype=dtype)
    b = torch.randn(64, 16, generator=generator).to(device=device, dtype=dtype)
    try:
        out = torch.mm(a, b, out_dtype=torch.float32)
    except (TypeError, RuntimeError, NotImplementedError):
        return False
    # Exact products summed in float32 differ from the float64 sum by ~1e-6; a result rounded to
    # bfloat16 or float16 would be off by ~1e-2.
    exact = a.double() @ b.double()
    return out.dtype == torch.float32 and bool((out.double() - exact).abs().max() <= 1e-3)


@contextmanager
def widened_to_float32(*modules: nn.Module) -> Iterator[None]:
    """Run the block with the modules' floating-point parameters and buffers in float32, then
    give each tensor back its dtype (exact: bfloat16 and float16 values are float32 values).
    A tensor shared by several modules (tied embeddings) is handled once."""
    saved: list[tuple[torch.Tensor, torch.dtype]] = []
    seen: set[int] = set()
    for module in modules:
        for tensor in [*module.parameters(), *module.buffers()]:
            if id(tensor) in seen or not tensor.is_floating_point() or tensor.dtype == torch.float32:
                continue
            seen.add(id(tensor))
            saved.append((tensor, tensor.dtype))
    for tensor, _dtype in saved:
        tensor.data = tensor.data.float()
    try:
        yield
    finally:
        for tensor, dtype in saved:
            tensor.data = tensor.data.to(dtype)
