"""Benchmark: causal scoring throughput against minicons, on one GPT-2-style model, in one run.

What it does:
1. Generates minimal pairs from the shipped English library (templates/en, every paradigm, in
   `mpp generate --out` file order: paradigm after paradigm, so lengths are mixed the way a
   user's file mixes them) and takes their sentences (good, bad, good, bad, ...).
2. Builds, once, a GPT-2-style model of a realistic small shape (6 layers, d=512, 8 heads,
   32,000-entry output vocabulary, 128 positions) with a byte-level BPE tokenizer trained here on
   other sentences of the same library, then trains it briefly on those sentences so its
   next-token distributions are peaked like a real model's (pair decisions from an untrained,
   near-uniform model would say nothing about precision). Nothing is downloaded. The folder is
   kept (--model-dir) and reused by later runs.
3. Times, after a warm-up of each, with the same thread count:
   - minicons IncrementalLMScorer, float32: `sequence_score` over batches of 32 sentences in
     file order, `bos_token=True` (so it conditions on BOS as ours does), per-token scores;
   - ours (scoring.causal.CausalScorer), float32, default token budget;
   - ours bfloat16 weights with the default float32 head, and with the head matmul in bfloat16;
   - minicons bfloat16 (weights loaded with dtype=bfloat16).
   It prints sentences/s, the ratios, the largest difference between our float32 scores and
   minicons' (per token, nats), and the share of pairs whose decision (sum log-prob good > bad)
   agrees with our float32 run.

With --device cuda it also prints the FLOP-ceiling estimate of docs/scoring-anchors section 7
for this shape (H100 SXM dense BF16 peak 989.4 TFLOP/s at 40% and 60% MFU).

Run: PYTHONPATH=platform:. .venv/bin/python bench/scoring.py [--n 4000] [--quick] [--device cpu]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.generate import Generator
from generator.library import VocabularyCache, find_templates, load_with_vocabulary
from scoring.batching import length_order, padded_tokens, token_batches
from scoring.items import Sentence
from scoring.settings import ScorerSettings
from scoring.words import spans_of_words

ROOT = Path(__file__).resolve().parents[1]
SHAPE = {"n_layer": 6, "n_embd": 512, "n_head": 8, "n_positions": 128, "vocab_size": 32_000}
MINICONS_BATCH = 32
H100_BF16_FLOPS = 989.4e12
TARGET_FP32, TARGET_BF16, TARGET_AGREE = 1.5, 3.0, 0.995


@dataclass(slots=True)
class Pairs:
    """Sentences in file order (good, bad, good, bad, ...) with the generator's word spans."""

    sentences: list[Sentence]

    @property
    def n_pairs(self) -> int:
        return len(self.sentences) // 2


def generate_pairs(n_sentences: int, seed: int) -> Pairs:
    """Return about `n_sentences` sentences from pairs of every English paradigm, paradigm after
    paradigm as `mpp generate --out` writes them."""
    files = find_templates([ROOT / "templates" / "en"])
    per_paradigm = max(1, math.ceil(n_sentences / 2 / len(files)))
    cache = VocabularyCache()
    sentences: list[Sentence] = []
    for path in files:
        template, vocabulary = load_with_vocabulary(path, cache)
        for pair in Generator(template, vocabulary).pairs(per_paradigm, seed):
            sentences.append(Sentence(pair.good, spans_of_words(pair.good, pair.words_good)))
            sentences.append(Sentence(pair.bad, spans_of_words(pair.bad, pair.words_bad)))
    return Pairs(sentences[: 2 * (n_sentences // 2)])


# --------------------------------------------------------------------------------- the model


def build_model(folder: Path, corpus: Sequence[str], train_steps: int, threads: int) -> Path:
    """Build (or reuse) the benchmark model in `folder` and return the folder."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    marker = folder / "bench_model.json"
    recipe = {**SHAPE, "train_steps": train_steps, "corpus": len(corpus)}
    if marker.is_file() and json.loads(marker.read_text()) == recipe:
        return folder
    started = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=SHAPE["vocab_size"],
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator(corpus, trainer=trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe, bos_token="<|endoftext|>", eos_token="<|endoftext|>"
    )
    tokenizer.save_pretrained(folder)
    torch.manual_seed(0)
    torch.set_num_threads(threads)
    config = GPT2Config(
        vocab_size=SHAPE["vocab_size"],
        n_positions=SHAPE["n_positions"],
        n_embd=SHAPE["n_embd"],
        n_layer=SHAPE["n_layer"],
        n_head=SHAPE["n_head"],
        bos_token_id=0,
        eos_token_id=0,
    )
    model = GPT2LMHeadModel(config)
    encoded = [[0, *tokenizer(text, add_special_tokens=False)["input_ids"]] for text in corpus]
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.0)
    rng = random.Random(0)
    model.train()
    for step in range(train_steps):
        batch = rng.sample(encoded, 32)
        length = max(len(ids) for ids in batch)
        ids = torch.tensor([ids + [0] * (length - len(ids)) for ids in batch])
        labels = torch.tensor([ids_ + [-100] * (length - len(ids_)) for ids_ in batch])
        mask = (labels != -100).long()
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0 or step == train_steps - 1:
            print(f"  training step {step + 1}/{train_steps}: loss {loss.item():.2f}", file=sys.stderr)
    model.eval()
    model.save_pretrained(folder)
    marker.write_text(json.dumps(recipe))
    print(
        f"built the model in {time.perf_counter() - started:.0f}s "
        f"(tokenizer vocabulary {len(tokenizer):,}, output vocabulary {SHAPE['vocab_size']:,})",
        file=sys.stderr,
    )
    return folder


# --------------------------------------------------------------------------------- the runs


@dataclass(slots=True)
class Run:
    """One scorer, timed over the whole list several times (interleaved with the others)."""

    name: str
    score: Callable[[list[Any]], list[list[float]]]
    inputs: list[Any]
    seconds: list[float]
    logprobs: list[list[float]]
    described: dict[str, object] = field(default_factory=dict)

    @property
    def best(self) -> float:
        return min(self.seconds)

    def sums(self) -> list[float]:
        return [math.fsum(values) for values in self.logprobs]

    def once(self, synchronize: Callable[[], None]) -> None:
        started = time.perf_counter()
        values = self.score(self.inputs)
        synchronize()
        self.seconds.append(time.perf_counter() - started)
        if not self.logprobs:
            self.logprobs = values


def minicons_run(folder: Path, texts: list[str], device: str, dtype: str) -> Run:
    """minicons, the usual way: sequence_score over batches of 32 in file order."""
    import torch
    from minicons import scorer as minicons_scorer

    kwargs: dict[str, Any] = {"dtype": torch.bfloat16} if dtype == "bfloat16" else {}
    lm = minicons_scorer.IncrementalLMScorer(str(folder), device=device, **kwargs)

    def score(batch_texts: list[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(batch_texts), MINICONS_BATCH):
            chunk = batch_texts[start : start + MINICONS_BATCH]
            out.extend(lm.sequence_score(chunk, reduction=lambda x: x.float().tolist(), bos_token=True))
        return out

    return Run(f"minicons {dtype}", score, texts, [], [])


def ours_run(
    folder: Path, sentences: list[Sentence], device: str, dtype: str, head: str | None = None
) -> Run:
    """Our causal scorer over the whole list (one call, as the platform's chunks are)."""
    from scoring.causal import CausalScorer

    settings = ScorerSettings("causal", str(folder), dtype=dtype, device=device)  # type: ignore[arg-type]
    active = CausalScorer(settings, head_precision=head)  # type: ignore[arg-type]

    def score(items: list[Sentence]) -> list[list[float]]:
        return [s.logprobs for s in active.score(items)]

    name = f"ours {dtype}" + (" (bf16 head)" if head == "model" else "")
    return Run(name, score, sentences, [], [], active.describe())


def agreement(reference: Sequence[float], other: Sequence[float]) -> float:
    """Return the share of pairs (consecutive good, bad) decided the same way."""
    same = 0
    pairs = len(reference) // 2
    for i in range(pairs):
        a = reference[2 * i] > reference[2 * i + 1]
        b = other[2 * i] > other[2 * i + 1]
        same += a == b
    return same / pairs if pairs else 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=4000, help="sentences to score (default 4000)")
    parser.add_argument(
        "--quick", action="store_true", help="600 sentences, 1 round, a briefly trained model"
    )
    parser.add_argument("--device", default="cpu", help="cpu (default) or cuda")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    parser.add_argument(
        "--rounds", type=int, default=3, help="timed rounds, runs interleaved; best kept (default 3)"
    )
    parser.add_argument(
        "--train-steps", type=int, default=300, help="training steps of the model (default 300)"
    )
    parser.add_argument(
        "--model-dir", default="/tmp/mpp-bench-scoring", help="where the model is built and kept"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.n, args.train_steps, args.rounds = min(args.n, 600), min(args.train_steps, 40), 1

    import torch

    torch.set_num_threads(args.threads)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    print(f"generating pairs from templates/en ({args.n:,} sentences) ...", file=sys.stderr)
    pairs = generate_pairs(args.n, seed=0)
    corpus = [s.text for s in generate_pairs(max(8000, args.n), seed=1).sentences]
    folder = build_model(
        Path(args.model_dir) / f"steps{args.train_steps}", corpus, args.train_steps, args.threads
    )
    texts = [s.text for s in pairs.sentences]
    device = args.device

    def synchronize() -> None:
        if device.startswith("cuda"):
            torch.cuda.synchronize()

    runs = [
        minicons_run(folder, texts, device, "float32"),
        ours_run(folder, pairs.sentences, device, "float32"),
        ours_run(folder, pairs.sentences, device, "bfloat16"),
        ours_run(folder, pairs.sentences, device, "bfloat16", head="model"),
        minicons_run(folder, texts, device, "bfloat16"),
    ]
    mini32, ours32, ours16, ours16m, mini16 = runs
    for run in runs:  # warm-up
        run.score(run.inputs[:64])
    for round_ in range(args.rounds):
        for run in runs:
            run.once(synchronize)
        print(
            f"  round {round_ + 1}: " + ", ".join(f"{r.name} {r.seconds[-1]:.1f}s" for r in runs),
            file=sys.stderr,
        )

    # The same numbers: per-token log-probs of our float32 run against minicons' float32 run.
    same_tokens = all(len(a) == len(b) for a, b in zip(ours32.logprobs, mini32.logprobs, strict=True))
    token_gap = max(
        abs(a - b)
        for ours, theirs in zip(ours32.logprobs, mini32.logprobs, strict=True)
        for a, b in zip(ours, theirs, strict=True)
    )
    lengths = [len(v) + 1 for v in ours32.logprobs]  # + BOS
    tokens = sum(lengths)
    in_file_order = [
        list(range(i, min(i + MINICONS_BATCH, len(lengths)))) for i in range(0, len(lengths), MINICONS_BATCH)
    ]
    _, padded_file = padded_tokens(in_file_order, lengths)
    budget = int(str(ours32.described["token_budget"]))
    _, padded_ours = padded_tokens(list(token_batches(length_order(lengths), lengths, budget)), lengths)
    sums32 = ours32.sums()
    gaps = sorted(abs(sums32[2 * i] - sums32[2 * i + 1]) for i in range(pairs.n_pairs))
    n = len(texts)
    rate = {run.name: n / run.best for run in runs}

    print()
    print(
        f"sentences: {n:,} ({pairs.n_pairs:,} pairs, templates/en in file order), "
        f"{tokens:,} tokens with BOS, {tokens / n:.1f} per sentence"
    )
    print(
        f"model: GPT-2 style, {SHAPE['n_layer']} layers, d={SHAPE['n_embd']}, {SHAPE['n_head']} heads, "
        f"output vocabulary {SHAPE['vocab_size']:,}, trained {args.train_steps} steps; device {device}, "
        f"torch threads {torch.get_num_threads()}; best of {args.rounds} interleaved round(s)"
    )
    print(
        f"padded positions: minicons (batches of {MINICONS_BATCH}, file order) "
        f"+{padded_file / tokens - 1:.1%}; ours (length-sorted, budget {ours32.described['token_budget']}) "
        f"+{padded_ours / tokens - 1:.1%}"
    )
    print(
        f"our head path: {ours32.described['head_path']}; bfloat16 head matmul: "
        f"{ours16.described['head_precision']}; token budget {ours32.described['token_budget']}"
    )
    print()
    print(f"{'run':28} {'best s':>8} {'all rounds':>24} {'sentences/s':>12}")
    for run in runs:
        rounds = " ".join(f"{x:.1f}" for x in run.seconds)
        print(f"{run.name:28} {run.best:8.2f} {rounds:>24} {rate[run.name]:12.1f}")
    print()

    def ratio(a: Run, b: Run) -> float:
        return rate[a.name] / rate[b.name]

    for a, b, target in [
        (ours32, mini32, f"target >= {TARGET_FP32}x"),
        (ours16, mini32, f"target >= {TARGET_BF16}x"),
        (ours16m, mini32, ""),
        (ours16, mini16, ""),
        (ours16m, mini16, ""),
    ]:
        print(f"{a.name + ' / ' + b.name:50} {ratio(a, b):5.2f}x" + (f" ({target})" if target else ""))
    print()
    print(
        f"ours float32 vs minicons float32 (bos_token=True): same tokens: {same_tokens}; "
        f"largest per-token difference {token_gap:.2e} nats"
    )
    print(
        f"pair gaps |LP(good) - LP(bad)| (ours float32): median {gaps[len(gaps) // 2]:.2f} nats, "
        f"{sum(g < 0.1 for g in gaps) / len(gaps):.1%} under 0.1, "
        f"{sum(g < 0.01 for g in gaps) / len(gaps):.1%} under 0.01"
    )
    print("pair decisions (sum log-prob good > bad) agreeing with ours float32:")
    for run in [ours16, ours16m, mini32, mini16]:
        share = agreement(sums32, run.sums())
        flag = "" if run is mini32 else f"  (target >= {TARGET_AGREE:.1%})"
        print(f"  {run.name:28} {share:.2%} ({round(share * pairs.n_pairs):,}/{pairs.n_pairs:,}){flag}")
    if device.startswith("cuda"):
        non_embedding = SHAPE["n_layer"] * 12 * SHAPE["n_embd"] ** 2
        n_eff = non_embedding + SHAPE["vocab_size"] * SHAPE["n_embd"]
        per_sentence = 2 * n_eff * tokens / n
        low, high = 0.4 * H100_BF16_FLOPS / per_sentence, 0.6 * H100_BF16_FLOPS / per_sentence
        print()
        print(
            f"FLOP ceiling (H100 SXM, bf16 dense 989.4 TFLOP/s; 2 x {n_eff / 1e6:.1f}M parameters x "
            f"{tokens / n:.1f} positions per sentence): {low:,.0f} to {high:,.0f} sentences/s at 40-60% MFU; "
            f"ours bfloat16 {rate[ours16.name]:,.0f}/s = {rate[ours16.name] / low:.1%} of the 40% figure"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
