"""Masked language model scorers: holistic scoring (the unmasked sentence read once, as
BabyBERTa and Zorro score), PLL (Salazar et al. 2020) and PLL-word-l2r (Kauf & Ivanova 2023)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch
from torch import nn

from scoring.batching import length_order, token_batches
from scoring.errors import ModelLoadError, ScoringError, SentenceTooLongError
from scoring.items import Sentence, SentenceScore, Span
from scoring.registry import ProgressCallback
from scoring.settings import ScorerSettings
from scoring.torch_support import (
    OomRetry,
    clip,
    library_versions,
    load_pretrained,
    max_positions,
    model_label,
    pick_device,
    target_logprobs,
    widened_to_float32,
)
from scoring.words import fallback_word_spans, word_of_char, word_sums

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

METHODS = ("holistic", "pll", "pll_word_l2r")

_POSITIONS = {
    "holistic": "every non-pad position of the unmasked sentence, the special tokens "
    "(CLS/SEP, <s>/</s>) included: log p(x_j | x)",
    "pll": "each content token masked alone: log p(t_i | the rest); special tokens never masked nor scored",
    "pll_word_l2r": "each content token masked together with the later tokens of its word: "
    "log p(t_i | the rest, later tokens of the word masked); special tokens never masked nor scored",
}
_REDUCTION_NOTE = {
    "holistic": "BabyBERTa/UnMasked average the cross-entropy over these positions: "
    "-reduce('mean') reproduces their score (their README says sum: -reduce('sum'))",
    "pll": "PLL = reduce('sum') (Salazar et al. 2020); PPPL = exp(-reduce('mean'))",
    "pll_word_l2r": "PLL-word-l2r = reduce('sum') (Kauf & Ivanova 2023)",
}
_PROBE_TOLERANCE = 1e-4


@dataclass(frozen=True, slots=True)
class _Encoded:
    """One unique sentence, tokenised with the tokenizer's special tokens."""

    text: str
    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    spans: tuple[Span, ...]  # (0, 0) for special tokens
    special: tuple[bool, ...]
    word_spans: tuple[Span, ...]
    word_of_token: tuple[int, ...]  # -1: in no word


@dataclass(frozen=True, slots=True)
class _Row:
    """One input row of a forward pass: a sentence with some positions masked, and the positions
    whose log-probabilities it yields."""

    sentence: int
    masked: tuple[int, ...]
    targets: tuple[int, ...]


class MaskedScorer:
    """Scores sentences with a masked LM (`settings.method`: holistic, pll or pll_word_l2r); the
    model stays loaded, so `score` may be called any number of times. `oom_retries` counts the
    batches halved after running out of device memory."""

    def __init__(self, settings: ScorerSettings) -> None:
        """Load the model and tokenizer of `settings` and choose the head path (checked on a probe).

        Raises:
            ModelLoadError: the model cannot be loaded as a masked LM, or its tokenizer has no
                mask token (pll, pll_word_l2r).
            OutOfMemoryError: the weights do not fit on the device.
        """
        if settings.method not in METHODS:
            raise ScoringError(f"MaskedScorer scores {', '.join(METHODS)}, not '{settings.method}'")
        self.settings = settings
        self._device = pick_device(settings.device)
        loaded = load_pretrained(settings, "AutoModelForMaskedLM", self._device, kind="masked language model")
        self._tokenizer: PreTrainedTokenizerBase = loaded.tokenizer
        self._model: PreTrainedModel = loaded.model
        self._commit = loaded.commit
        mask_id = self._tokenizer.mask_token_id
        if mask_id is None and settings.method != "holistic":
            raise ModelLoadError(
                f"the tokenizer of {model_label(settings)} has no mask token, which {settings.method} needs"
            )
        self._mask_id = int(mask_id) if mask_id is not None else -1
        pad_id = self._tokenizer.pad_token_id
        self._pad_id = int(pad_id) if pad_id is not None else 0
        self._max_tokens = max_positions(self._model, self._tokenizer)
        self._oom = OomRetry(self._device)
        self._head_name, self._features, self._decoder_weight, self._decoder_bias = _head_path(self._model)

    # ----------------------------------------------------------------------------- public

    @property
    def oom_retries(self) -> int:
        """How many batches were halved after an out-of-memory since the scorer was loaded."""
        return self._oom.retries

    def score(
        self, sentences: list[Sentence], progress: ProgressCallback | None = None
    ) -> list[SentenceScore]:
        """Return one score per sentence, in the input order; `progress(done)` (sentences whose
        every row is scored) after each forward pass.

        Raises:
            SentenceTooLongError: a sentence has more tokens than the model's positions.
            OutOfMemoryError: one row alone does not fit on the device.
        """
        if not sentences:
            return []
        unique: dict[tuple[str, tuple[Span, ...] | None], int] = {}
        order: list[int] = []
        for sentence in sentences:
            key = (sentence.text, sentence.word_spans)
            order.append(unique.setdefault(key, len(unique)))
        keys = list(unique)
        encoded = self._encode([Sentence(text, spans) for text, spans in keys], order)
        copies = [0] * len(encoded)
        for index in order:
            copies[index] += 1

        rows = self._rows(encoded)
        pending = [0] * len(encoded)
        for row in rows:
            pending[row.sentence] += 1
        values: list[dict[int, float]] = [{} for _ in encoded]
        done = sum(copies[i] for i, count in enumerate(pending) if count == 0)
        # Rows are made in (sentence, position) order, so this sorts by (length, sentence, position).
        lengths = [len(encoded[row.sentence].ids) for row in rows]
        budget = self.settings.token_budget
        for indices in token_batches(length_order(lengths), lengths, lambda: self._oom.budget(budget)):
            batch = [rows[i] for i in indices]
            scored = self._oom.run(
                batch,
                lambda part: self._forward(part, encoded),
                tokens=lambda part: len(part) * max(len(encoded[row.sentence].ids) for row in part),
                too_big=lambda row: self._too_big(encoded[row.sentence]),
            )
            for row, scores in zip(batch, scored, strict=True):
                values[row.sentence].update(zip(row.targets, scores, strict=True))
                pending[row.sentence] -= 1
                if pending[row.sentence] == 0:
                    done += copies[row.sentence]
            if progress is not None:
                progress(done)
        results = [self._result(enc, vals) for enc, vals in zip(encoded, values, strict=True)]
        returned: set[int] = set()
        out: list[SentenceScore] = []
        for index in order:  # a repeated sentence gets its own copy of the first one's lists
            out.append(results[index] if index not in returned else _copied(results[index]))
            returned.add(index)
        return out

    def describe(self) -> dict[str, object]:
        """Return what a result must record to be reproducible: method, model, revision and
        resolved commit, tokenizer, scored positions, reduction note, dtypes, head path, device
        and library versions."""
        return {
            "method": self.settings.method,
            "model": self.settings.model,
            "revision": self.settings.revision,
            "resolved_commit": self._commit,
            "model_class": type(self._model).__name__,
            "tokenizer_class": type(self._tokenizer).__name__,
            "positions_scored": _POSITIONS[self.settings.method],
            "reduction_note": _REDUCTION_NOTE[self.settings.method],
            "word_segmentation": "the sentence's word spans; without them "
            + ("jieba" if self.settings.language.lower().startswith("zh") else "whitespace words")
            + " (never the tokenizer's word_ids)",
            "dtype": self.settings.dtype,
            "normaliser": "float32 logsumexp over the full vocabulary",
            "head_path": self._head_name,
            "max_tokens": self._max_tokens,
            "device": str(self._device),
            "versions": library_versions(),
        }

    # ----------------------------------------------------------------------------- encoding

    def _encode(self, sentences: Sequence[Sentence], order: Sequence[int]) -> list[_Encoded]:
        texts = [s.text for s in sentences]
        batch = self._tokenizer(
            texts,
            add_special_tokens=True,
            return_offsets_mapping=True,
            return_special_tokens_mask=True,
            truncation=False,
            verbose=False,
        )
        encoded: list[_Encoded] = []
        for index, sentence in enumerate(sentences):
            ids = tuple(int(i) for i in batch["input_ids"][index])
            if len(ids) > self._max_tokens:
                number = order.index(index) + 1
                raise SentenceTooLongError(
                    f"sentence {number} has {len(ids)} tokens with the special tokens, more than the "
                    f"{self._max_tokens} that {model_label(self.settings)} accepts: '{clip(sentence.text)}'"
                )
            special = tuple(bool(flag) for flag in batch["special_tokens_mask"][index])
            spans = tuple(
                (0, 0) if is_special else (int(start), int(end))
                for (start, end), is_special in zip(batch["offset_mapping"][index], special, strict=True)
            )
            words = (
                tuple(sentence.word_spans)
                if sentence.word_spans is not None
                else fallback_word_spans(sentence.text, self.settings.language)
            )
            owner = word_of_char(words, len(sentence.text))
            encoded.append(
                _Encoded(
                    text=sentence.text,
                    ids=ids,
                    tokens=tuple(self._tokenizer.convert_ids_to_tokens(list(ids))),
                    spans=spans,
                    special=special,
                    word_spans=words,
                    word_of_token=tuple(_first_owner(owner, span) for span in spans),
                )
            )
        return encoded

    def _rows(self, encoded: Sequence[_Encoded]) -> list[_Row]:
        method = self.settings.method
        rows: list[_Row] = []
        for index, enc in enumerate(encoded):
            if method == "holistic":
                rows.append(_Row(index, (), tuple(range(len(enc.ids)))))
                continue
            content = [i for i, is_special in enumerate(enc.special) if not is_special]
            for position in content:
                word = enc.word_of_token[position]
                later: tuple[int, ...] = ()
                if method == "pll_word_l2r" and word >= 0:
                    later = tuple(j for j in content if j > position and enc.word_of_token[j] == word)
                rows.append(_Row(index, (position, *later), (position,)))
        return rows

    def _result(self, enc: _Encoded, values: dict[int, float]) -> SentenceScore:
        if self.settings.method == "holistic":
            kept = list(range(len(enc.ids)))
        else:
            kept = [i for i, is_special in enumerate(enc.special) if not is_special]
        spans = [enc.spans[i] for i in kept]
        logprobs = [values[i] for i in kept]
        return SentenceScore(
            text=enc.text,
            tokens=[enc.tokens[i] for i in kept],
            token_spans=spans,
            logprobs=logprobs,
            word_spans=list(enc.word_spans),
            word_logprobs=word_sums(spans, logprobs, enc.word_spans, len(enc.text)),
        )

    # ----------------------------------------------------------------------------- forward passes

    def _too_big(self, enc: _Encoded) -> str:
        return (
            f"one sentence of {len(enc.ids)} tokens does not fit in the memory of {self._device} with "
            f"{model_label(self.settings)} ({self.settings.dtype}): '{clip(enc.text)}'"
        )

    def _forward(self, batch: Sequence[_Row], encoded: Sequence[_Encoded]) -> list[list[float]]:
        length = max(len(encoded[row.sentence].ids) for row in batch)
        ids = [[self._pad_id] * length for _ in batch]
        attention = [[0] * length for _ in batch]
        rows_at: list[int] = []
        positions: list[int] = []
        targets: list[int] = []
        for r, row in enumerate(batch):
            sentence_ids = encoded[row.sentence].ids
            ids[r][: len(sentence_ids)] = sentence_ids
            attention[r][: len(sentence_ids)] = [1] * len(sentence_ids)
            for position in row.masked:
                ids[r][position] = self._mask_id
            for position in row.targets:
                rows_at.append(r)
                positions.append(position)
                targets.append(sentence_ids[position])
        device = self._device
        input_ids = torch.tensor(ids, dtype=torch.long, device=device)
        mask = torch.tensor(attention, dtype=torch.long, device=device)
        at = (torch.tensor(rows_at, device=device), torch.tensor(positions, device=device))
        target = torch.tensor(targets, dtype=torch.long, device=device)
        with torch.inference_mode():
            if self._features is not None:
                hidden = self._model.base_model(input_ids=input_ids, attention_mask=mask)[0]
                assert self._decoder_weight is not None
                features = self._features(hidden[at])
                scores = target_logprobs(features, self._decoder_weight, self._decoder_bias, target)
            else:
                logits = self._model(input_ids=input_ids, attention_mask=mask).logits[at].float()
                scores = logits.gather(1, target[:, None])[:, 0] - torch.logsumexp(logits, dim=-1)
        flat = scores.cpu().tolist()
        out: list[list[float]] = []
        start = 0
        for row in batch:
            out.append(flat[start : start + len(row.targets)])
            start += len(row.targets)
        return out


# --------------------------------------------------------------------------------- helpers


def _copied(score: SentenceScore) -> SentenceScore:
    return SentenceScore(
        text=score.text,
        tokens=list(score.tokens),
        token_spans=list(score.token_spans),
        logprobs=list(score.logprobs),
        word_spans=list(score.word_spans),
        word_logprobs=list(score.word_logprobs),
    )


def _first_owner(owner: Sequence[int], span: Span) -> int:
    """Return the word of a token: the word its first character inside a word falls in (a
    leading space, as in byte-level BPE tokens, belongs to none), -1 for none."""
    for position in range(span[0], min(span[1], len(owner))):
        if owner[position] >= 0:
            return owner[position]
    return -1


def _head_path(
    model: PreTrainedModel,
) -> tuple[str, nn.Module | None, torch.Tensor | None, torch.Tensor | None]:
    """Return (description, features module, float32 decoder weight, bias) for applying the
    MLM head only at the scored positions, or (description, None, None, None) when the model
    must run whole (its head could not be found or did not reproduce the full forward)."""
    decoder = model.get_output_embeddings()  # type: ignore[no-untyped-call]  # unannotated upstream
    base = getattr(model, "base_model", None)
    found = _find_head(model, decoder, base)
    if found is None:
        return "full forward, then gather (no separable MLM head found)", None, None, None
    head_name, head, decoder_path = found
    parent_path, _, attribute = decoder_path.rpartition(".")
    parent = head.get_submodule(parent_path) if parent_path else head
    # A copy of the head up to (not including) the final projection; the model stays untouched.
    setattr(parent, attribute, nn.Identity())
    try:
        features = copy.deepcopy(head)
    finally:
        setattr(parent, attribute, decoder)
    weight = decoder.weight.detach().float()
    bias = decoder.bias.detach().float() if decoder.bias is not None else None
    if not _probe_agrees(model, features, weight, bias):
        return (
            "full forward, then gather (the head path did not reproduce the model's output)",
            None,
            None,
            None,
        )
    return (
        f"encoder, then {head_name} at the scored positions only (float32 projection)",
        features,
        weight,
        bias,
    )


def _find_head(model: PreTrainedModel, decoder: object, base: object) -> tuple[str, nn.Module, str] | None:
    """Return (name, module, decoder path inside it) of the model's child that holds the output
    projection, apart from the encoder: BERT's `cls`, RoBERTa/XLM-R's `lm_head`, ..."""
    if not isinstance(decoder, nn.Linear) or not isinstance(base, nn.Module) or base is model:
        return None
    for name, child in model.named_children():
        if child is base:
            continue
        for path, module in child.named_modules():
            if module is decoder and path:
                return name, child, path
    return None


def _probe_agrees(
    model: PreTrainedModel,
    features: nn.Module,
    weight: torch.Tensor,
    bias: torch.Tensor | None,
) -> bool:
    """Return whether encoder + head copy + projection gives the full forward's log-probs on a
    probe input (in float32: a half-precision model is widened for the probe and narrowed back,
    which restores its weights exactly)."""
    device = weight.device
    vocab = int(weight.shape[0])
    generator = torch.Generator().manual_seed(0)
    ids = torch.randint(0, vocab, (2, 7), generator=generator).to(device)
    attention = torch.ones_like(ids)
    attention[1, 5:] = 0
    try:
        with widened_to_float32(model, features), torch.inference_mode():
            full = torch.log_softmax(model(input_ids=ids, attention_mask=attention).logits.float(), -1)
            hidden = model.base_model(input_ids=ids, attention_mask=attention)[0]
            mine = torch.log_softmax(nn.functional.linear(features(hidden).float(), weight, bias), -1)
    except Exception:  # a head that cannot run on hidden states alone: use the full forward
        return False
    keep = attention.bool()
    return bool((full[keep] - mine[keep]).abs().max() <= _PROBE_TOLERANCE)


__all__ = ["MaskedScorer"]
