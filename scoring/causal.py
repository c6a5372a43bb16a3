"""Causal language model scorer: every content token's log-probability given exactly one BOS-like
token (the tokenizer's BOS, else its EOS) and the tokens before it, as lm-eval-harness and
ZhoBLiMP condition (never minicons' dropped first token, never a double BOS).

Speed: unique sentences only, token-budget length buckets with right padding, and the output
projection applied only at the scored positions, in float32 with a float32 normaliser. The
projection path is checked against the model's own forward at load time; a model whose forward
transforms its logits (soft-capping, scaling) is run whole instead.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from scoring.batching import length_order, token_batches
from scoring.errors import ModelLoadError, ScoringError, SentenceTooLongError
from scoring.items import Sentence, SentenceScore, Span
from scoring.registry import ProgressCallback
from scoring.settings import ScorerSettings
from scoring.token_frequencies import tokenizer_key
from scoring.torch_support import (
    HeadPrecision,
    OomRetry,
    clip,
    effective_token_budget,
    float32_output_matmul_works,
    library_versions,
    load_pretrained,
    max_positions,
    model_label,
    pick_device,
    target_logprobs,
    torch_dtype,
    widened_to_float32,
)
from scoring.words import fallback_word_spans, word_sums

# The head path must reproduce the model's own log-probs on the probe to this many nats
# (in float32; the probe widens a half-precision model, which is exact).
PROBE_TOLERANCE = 1e-4
# Matmul precision of the output projection for half-precision weights (float32 weights always
# use float32). See docs/benchmarks.md "Scoring" for the measurement behind this default.
DEFAULT_HEAD_PRECISION: HeadPrecision = "float32"


@dataclass(frozen=True, slots=True)
class _Encoded:
    """One unique sentence: the ids fed to the model (BOS first, EOS last with score_eos) and,
    for each scored token (every id after BOS), its string and character span."""

    text: str
    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    spans: tuple[Span, ...]
    word_spans: tuple[Span, ...]


class CausalScorer:
    """Scores sentences with a causal LM (`settings.method` "causal"); the model stays loaded,
    so `score` may be called any number of times. `oom_retries` counts the batches halved after
    running out of device memory."""

    def __init__(self, settings: ScorerSettings, *, head_precision: HeadPrecision | None = None) -> None:
        """Load the model and tokenizer of `settings` and fix the BOS policy and head path.

        `head_precision` overrides DEFAULT_HEAD_PRECISION for measurements (bench/scoring.py);
        load_scorer never passes it, so stored scores always use the default.

        Raises:
            ModelLoadError: the model cannot be loaded, or its tokenizer has neither BOS nor EOS
                (or no EOS while score_eos is asked for).
            OutOfMemoryError: the weights do not fit on the device.
        """
        if settings.method != "causal":
            raise ScoringError(f"CausalScorer scores method 'causal', not '{settings.method}'")
        self.settings = settings
        self._device = pick_device(settings.device)
        self._dtype = torch_dtype(settings.dtype)
        loaded = load_pretrained(settings, "AutoModelForCausalLM", self._device, kind="causal language model")
        self._model: Any = loaded.model
        self._tokenizer: Any = loaded.tokenizer
        self._commit = loaded.commit
        label = model_label(settings)

        bos_id, eos_id = self._tokenizer.bos_token_id, self._tokenizer.eos_token_id
        if bos_id is None and eos_id is None:
            raise ModelLoadError(
                f"the tokenizer of {label} has neither a BOS nor an EOS token, so the first word "
                "cannot be conditioned on a start token (every content token must be scored)"
            )
        self._bos_policy = "bos" if bos_id is not None else "eos-as-bos"
        self._bos_id = int(bos_id if bos_id is not None else eos_id)
        if settings.score_eos and eos_id is None:
            raise ModelLoadError(f"score_eos was asked for, but the tokenizer of {label} has no EOS token")
        self._eos_id = int(eos_id) if eos_id is not None else None
        pad_id = self._tokenizer.pad_token_id
        # Padding sits after every real token and is masked out, so any id does.
        self._pad_id = int(pad_id) if pad_id is not None else self._bos_id
        self._max_tokens = max_positions(self._model, self._tokenizer)
        self._oom = OomRetry(self._device)
        self._token_budget = effective_token_budget(settings.token_budget, self._device)

        if head_precision is None:
            head_precision = DEFAULT_HEAD_PRECISION
        if self._dtype == torch.float32:
            head_precision = "float32"
        self._head_precision: HeadPrecision = head_precision
        self._base: nn.Module | None = None
        self._head_weight: torch.Tensor | None = None
        self._head_bias: torch.Tensor | None = None
        self._head_matmul = "float32"
        self._head_path = self._choose_head_path()

    # ----------------------------------------------------------------------------- public

    @property
    def oom_retries(self) -> int:
        """How many batches were halved after an out-of-memory since the scorer was loaded."""
        return self._oom.retries

    def token_ids(self, tokens: Sequence[str]) -> list[int]:
        """Return the tokenizer's ids of a score's tokens (for the token unigram frequencies
        of SLOR and MORCELA)."""
        return [int(i) for i in self._tokenizer.convert_tokens_to_ids(list(tokens))]

    def score(
        self, sentences: list[Sentence], progress: ProgressCallback | None = None
    ) -> list[SentenceScore]:
        """Return one score per sentence, in the input order: the log-probability (nats) of
        each content token (and of EOS with score_eos) given BOS and the tokens before it, with
        word sums over the sentence's word spans (or the language's fallback segmentation).
        `progress(done)` is called after each forward pass with the sentences finished so far.

        Raises:
            SentenceTooLongError: a sentence needs more positions than the model has.
            OutOfMemoryError: one sentence alone does not fit on the device.
        """
        unique: dict[tuple[str, tuple[Span, ...] | None], int] = {}
        order = [unique.setdefault((s.text, s.word_spans), len(unique)) for s in sentences]
        encoded = self._encode([Sentence(text, spans) for text, spans in unique], order)
        copies = [0] * len(encoded)
        for index in order:
            copies[index] += 1

        lengths = [len(enc.ids) for enc in encoded]
        # A sentence with nothing to score (empty, no EOS) needs no forward pass.
        todo = [i for i in length_order(lengths) if lengths[i] > 1]
        done = sum(copies[i] for i in range(len(encoded)) if lengths[i] <= 1)
        # Prefix trie: a position whose ids so far (its target included) open several sentences,
        # as "<s> The" opens thousands, has the same log-prob in each of them, so the head
        # computes it once (31% of the head's rows on bench/scoring.py's pairs).
        trie: dict[tuple[int, int], int] = {}
        node_of: list[list[int]] = []
        for enc in encoded:
            parent = trie.setdefault((-1, enc.ids[0]), len(trie))
            nodes: list[int] = []
            for token in enc.ids[1:]:
                parent = trie.setdefault((parent, token), len(trie))
                nodes.append(parent)
            node_of.append(nodes)
        known = [math.nan] * len(trie)
        scored = bytearray(len(trie))

        def run(items: Sequence[int]) -> list[tuple[int, float]]:
            rows: list[tuple[tuple[int, ...], list[int]]] = []
            owners: list[list[int]] = []
            claimed: set[int] = set()
            for index in items:
                positions: list[int] = []
                for position, node in enumerate(node_of[index]):
                    if not scored[node] and node not in claimed:
                        claimed.add(node)
                        positions.append(position)
                if positions:
                    rows.append((encoded[index].ids, positions))
                    owners.append([node_of[index][p] for p in positions])
            if not rows:
                return []
            values = self._forward(rows)
            return [
                (node, value)
                for nodes, row_values in zip(owners, values, strict=True)
                for node, value in zip(nodes, row_values, strict=True)
            ]

        def tokens(batch: Sequence[int]) -> int:
            return len(batch) * max(lengths[i] for i in batch)

        def too_big(index: int) -> str:
            return (
                f"one sentence of {lengths[index]} tokens does not fit in the memory of {self._device} "
                f"with {model_label(self.settings)} ({self.settings.dtype}): '{clip(encoded[index].text)}'"
            )

        budget = self._token_budget
        for batch in token_batches(todo, lengths, lambda: self._oom.budget(budget)):
            for node, value in self._oom.run(batch, run, tokens=tokens, too_big=too_big):
                known[node] = value
                scored[node] = 1
            done += sum(copies[i] for i in batch)
            if progress is not None:
                progress(done)
        values = [[known[node] for node in nodes] for nodes in node_of]
        scores = [self._result(enc, vals) for enc, vals in zip(encoded, values, strict=True)]
        # A repeated sentence gets its own copy, so callers may change one result alone.
        given = [False] * len(scores)
        out: list[SentenceScore] = []
        for index in order:
            out.append(copy.deepcopy(scores[index]) if given[index] else scores[index])
            given[index] = True
        return out

    def describe(self) -> dict[str, object]:
        """Return what a result must record to be reproducible: method, model, requested revision
        and resolved commit, model and tokenizer classes, BOS policy and token, EOS scoring,
        weights dtype, head path and precision, maximum length, device and library versions."""
        bos_token = self._tokenizer.convert_ids_to_tokens(self._bos_id)
        eos_token = self._tokenizer.convert_ids_to_tokens(self._eos_id) if self._eos_id is not None else None
        return {
            "method": "causal",
            "model": self.settings.model,
            "revision": self.settings.revision,
            "resolved_commit": self._commit,
            "model_class": type(self._model).__name__,
            "tokenizer_class": type(self._tokenizer).__name__,
            "tokenizer_key": tokenizer_key(self._tokenizer.get_vocab()),
            "bos_policy": self._bos_policy,
            "bos_token": bos_token,
            "positions_scored": "every content token, given one BOS-like token and the tokens before it"
            + (", and EOS" if self.settings.score_eos else ""),
            "score_eos": self.settings.score_eos,
            "eos_token": eos_token,
            "dtype": self.settings.dtype,
            "head_path": self._head_path,
            "head_precision": self._head_matmul if self._base is not None else "float32 (logits widened)",
            "normaliser": "float32 logsumexp over the full vocabulary",
            "word_segmentation": "the sentence's word spans; without them "
            + ("jieba" if self.settings.language.lower().startswith("zh") else "whitespace words"),
            "max_tokens": self._max_tokens,
            "device": str(self._device),
            "token_budget": self._token_budget,
            "versions": library_versions(),
        }

    # ----------------------------------------------------------------------------- encoding

    def _encode(self, sentences: Sequence[Sentence], order: Sequence[int]) -> list[_Encoded]:
        """Return each sentence tokenised without special tokens, BOS prepended (and EOS
        appended with score_eos).

        Raises:
            SentenceTooLongError: for the first sentence (in input order) that is too long.
        """
        batch = self._tokenizer(
            [s.text for s in sentences],
            add_special_tokens=False,
            return_offsets_mapping=True,
            truncation=False,
            verbose=False,
        )
        bos_text = self._tokenizer.convert_ids_to_tokens(self._bos_id)
        encoded: list[_Encoded] = []
        too_long: list[tuple[int, int]] = []
        for index, sentence in enumerate(sentences):
            content = [int(i) for i in batch["input_ids"][index]]
            spans = [(int(a), int(b)) for a, b in batch["offset_mapping"][index]]
            # A tokenizer whose template ignores add_special_tokens=False would double the BOS.
            if content and content[0] == self._bos_id and not sentence.text.startswith(str(bos_text)):
                content, spans = content[1:], spans[1:]
            ids = [self._bos_id, *content]
            if self.settings.score_eos:
                assert self._eos_id is not None
                ids.append(self._eos_id)
                spans.append((len(sentence.text), len(sentence.text)))
            if len(ids) > self._max_tokens:
                too_long.append((order.index(index), index))
            words = (
                tuple(sentence.word_spans)
                if sentence.word_spans is not None
                else fallback_word_spans(sentence.text, self.settings.language)
            )
            encoded.append(
                _Encoded(
                    text=sentence.text,
                    ids=tuple(ids),
                    tokens=tuple(self._tokenizer.convert_ids_to_tokens(ids[1:])),
                    spans=tuple(spans),
                    word_spans=words,
                )
            )
        if too_long:
            position, index = min(too_long)
            raise SentenceTooLongError(
                f"sentence {position + 1} has {len(encoded[index].ids)} tokens with the start token"
                + (" and EOS" if self.settings.score_eos else "")
                + f", more than the {self._max_tokens} positions of {model_label(self.settings)} "
                f"(sentences are never truncated): '{clip(encoded[index].text)}'"
            )
        return encoded

    def _result(self, enc: _Encoded, values: list[float]) -> SentenceScore:
        spans = list(enc.spans)
        return SentenceScore(
            text=enc.text,
            tokens=list(enc.tokens),
            token_spans=spans,
            logprobs=values,
            word_spans=list(enc.word_spans),
            word_logprobs=word_sums(spans, values, enc.word_spans, len(enc.text)),
        )

    # ----------------------------------------------------------------------------- forward passes

    def _forward(self, rows: Sequence[tuple[tuple[int, ...], Sequence[int]]]) -> list[list[float]]:
        """Return, per row (ids, positions), log p(ids[p + 1] | ids[: p + 1]) for each position
        p. A row runs only as far as its last position needs."""
        inputs = [ids[: max(positions) + 1] for ids, positions in rows]
        length = max(len(ids) for ids in inputs)
        padded = [list(ids) + [self._pad_id] * (length - len(ids)) for ids in inputs]
        flat: list[int] = []
        targets: list[int] = []
        for r, (ids, positions) in enumerate(rows):
            flat.extend(r * length + p for p in positions)
            targets.extend(ids[p + 1] for p in positions)
        device = self._device
        input_ids = torch.tensor(padded, dtype=torch.long, device=device)
        # Equal lengths (most length-sorted batches) need no mask; padding comes after every real
        # token, so with a mask the real positions see exactly what they would alone.
        mask = None
        if any(len(ids) < length for ids in inputs):
            mask = torch.tensor(
                [[1] * len(ids) + [0] * (length - len(ids)) for ids in inputs],
                dtype=torch.long,
                device=device,
            )
        at = torch.tensor(flat, dtype=torch.long, device=device)
        target = torch.tensor(targets, dtype=torch.long, device=device)
        with torch.inference_mode():
            if self._base is not None:
                assert self._head_weight is not None
                hidden = self._base(input_ids=input_ids, attention_mask=mask, use_cache=False)[0]
                features = hidden.reshape(-1, hidden.shape[-1]).index_select(0, at)
                scores = target_logprobs(
                    features, self._head_weight, self._head_bias, target, precision=self._head_precision
                )
            else:
                logits = self._model(input_ids=input_ids, attention_mask=mask, use_cache=False).logits
                picked = logits.reshape(-1, logits.shape[-1]).index_select(0, at).float()
                scores = picked.gather(1, target[:, None])[:, 0] - torch.logsumexp(picked, dim=-1)
        values = scores.cpu().tolist()
        out: list[list[float]] = []
        start = 0
        for _ids, positions in rows:
            out.append(values[start : start + len(positions)])
            start += len(positions)
        return out

    def _choose_head_path(self) -> str:
        """Set up the split path (base model, then the output projection at the scored positions
        only) when it reproduces the model's own forward on a probe input; return the path's
        description for describe()."""
        model = self._model
        head = model.get_output_embeddings()
        base = getattr(model, "base_model", None)
        if not isinstance(head, nn.Linear) or not isinstance(base, nn.Module) or base is model:
            return "full forward, then gather (no separate output projection found)"
        weight = head.weight.detach()
        bias = head.bias.detach() if head.bias is not None else None
        self._head_matmul = (
            "float32" if self._head_precision == "float32" else f"{self.settings.dtype}, logits widened"
        )
        if self._head_precision == "float32":
            if float32_output_matmul_works(self._device, weight.dtype):
                # Same numbers as a float32 matmul of these bfloat16/float16 values, at their speed.
                self._head_matmul = f"{self.settings.dtype} inputs, float32 products and output"
            else:
                # A float32 weight is used as is (no copy); a half-precision one gets a float32 copy.
                weight = weight.float()
                bias = bias.float() if bias is not None else None
        agrees, why = _probe_agrees(model, base, head, self._device)
        if not agrees:
            return f"full forward, then gather, logits widened to float32 ({why})"
        self._base, self._head_weight, self._head_bias = base, weight, bias
        return "base model, then the output projection at the scored positions only, once per distinct prefix"


def _probe_agrees(
    model: nn.Module, base: nn.Module, head: nn.Linear, device: torch.device
) -> tuple[bool, str]:
    """Return whether base model + output projection gives the full forward's log-probs (within
    PROBE_TOLERANCE, in float32) on a padded probe input, and why not when it does not."""
    vocab = int(head.weight.shape[0])
    generator = torch.Generator().manual_seed(0)
    ids = torch.randint(0, vocab, (2, 7), generator=generator).to(device)
    mask = torch.ones_like(ids)
    mask[1, 5:] = 0
    try:
        with widened_to_float32(model), torch.inference_mode():
            full = torch.log_softmax(
                model(input_ids=ids, attention_mask=mask, use_cache=False).logits.float(), -1
            )
            hidden = base(input_ids=ids, attention_mask=mask, use_cache=False)[0]
            weight = head.weight.float()
            bias = head.bias.float() if head.bias is not None else None
            mine = torch.log_softmax(nn.functional.linear(hidden.float(), weight, bias), -1)
    except Exception as exc:  # a base model that cannot run alone: the full forward is used
        return False, f"the base model could not run alone: {type(exc).__name__}"
    keep = mask.bool()
    gap = float((full[keep] - mine[keep]).abs().max())
    if gap > PROBE_TOLERANCE:
        return False, f"the model transforms its logits: the projection alone differs by {gap:.2g} nats"
    return True, ""


__all__ = ["DEFAULT_HEAD_PRECISION", "CausalScorer"]
