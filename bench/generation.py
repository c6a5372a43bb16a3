"""Benchmark: pairs per second on one core, and memory against N, for a six-position template.

The template has six positions and two agreement constraints (determiner-noun number agreement
and subject-verb number agreement) over a synthetic 5,000-item vocabulary; the bad sentence
breaks the subject-verb agreement. Output is streamed as JSONL into a null sink, exactly as
`mpp generate` writes it. Prints pairs/s against the 20,000 pairs/s target, and the peak traced
memory for N and 10 x N side by side (flat means a ratio near 1; what grows is the 8-byte-a-slot
uniqueness table, which every run that promises unique sentences must keep).

Run: .venv/bin/python bench/generation.py [--n 50000]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.generate import Generator
from generator.template import template_from_text
from vocab.lexicon import FeatureSchema, FeatureSpec, Vocabulary, make_item

TARGET = 20_000

TEMPLATE = """
uid: bench_six_positions
phenomenon: subject_verb_agreement
language: en
good:
  - {id: det, lexical: {pos: DT}}
  - {id: adj, lexical: {pos: JJ}}
  - {id: noun, matched: det, on: number, lexical: {pos: NN}}
  - {id: verb, matched: noun, on: number, lexical: {pos: VB}}
  - {id: obj, lexical: {pos: NN}}
  - {direct: "."}
bad:
  - {same: det}
  - {same: adj}
  - {same: noun}
  - {id: verb_bad, mismatched: noun, on: number, lexical: {pos: VB}}
  - {same: obj}
  - {same: "6"}
"""


def build_vocabulary(size: int = 5_000) -> Vocabulary:
    """Return a synthetic vocabulary: determiners, adjectives, nouns and verbs in both numbers."""
    schema = FeatureSchema({"number": FeatureSpec("number", values=("sg", "pl"))})
    items = [
        make_item(id=f"det{i}", form=w, pos="DT", features={"number": n}, schema=schema)
        for i, (w, n) in enumerate([("this", "sg"), ("that", "sg"), ("these", "pl"), ("those", "pl")])
    ]
    rest = size - len(items)
    n_adj, n_noun = rest // 5, rest * 3 // 5
    n_verb = rest - n_adj - n_noun
    items += [make_item(id=f"adj{i}", form=f"adj{i}", pos="JJ", schema=schema) for i in range(n_adj)]
    items += [
        make_item(
            id=f"noun{i}",
            form=f"noun{i}" + ("s" if i % 2 else ""),
            lemma=f"noun{i}",
            pos="NN",
            features={"number": "pl" if i % 2 else "sg"},
            schema=schema,
        )
        for i in range(n_noun)
    ]
    items += [
        make_item(
            id=f"verb{i}",
            form=f"verb{i}" + ("" if i % 2 else "s"),
            lemma=f"verb{i // 2}",
            pos="VB",
            features={"number": "pl" if i % 2 else "sg"},
            schema=schema,
        )
        for i in range(n_verb)
    ]
    return Vocabulary(items, schema, name="bench", language="en")


def run(n: int, seed: int) -> tuple[float, int]:
    """Return (seconds, bytes written) for generating n pairs to a null sink."""
    generator = Generator(template_from_text(TEMPLATE, file="bench.yaml"), VOCABULARY)
    written = 0
    with open(os.devnull, "wb") as sink:
        started = time.perf_counter()
        for line in generator.jsonl_lines(n, seed):
            sink.write(line)
            written += len(line)
        return time.perf_counter() - started, written


def peak_memory(n: int) -> int:
    """Return the peak traced memory (bytes) while generating n pairs."""
    gc.collect()
    tracemalloc.start()
    run(n, seed=7)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def peak_memory_holding(n: int) -> int:
    """Return the peak traced memory (bytes) when the n output lines are kept in a list."""
    gc.collect()
    tracemalloc.start()
    generator = Generator(template_from_text(TEMPLATE, file="bench.yaml"), VOCABULARY)
    lines = list(generator.jsonl_lines(n, 7))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del lines
    return peak


VOCABULARY = build_vocabulary()

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000, help="pairs for the throughput run")
    parser.add_argument("--mem-n", type=int, default=20_000, help="smaller N of the memory runs")
    args = parser.parse_args()
    print(f"vocabulary: {len(VOCABULARY):,} items; template: 6 positions, 2 agreement constraints")
    run(2_000, seed=1)  # warm caches of inflection and segmentation, as a long run would
    seconds, written = run(args.n, seed=1)
    rate = args.n / seconds
    print(
        f"throughput: {args.n:,} pairs in {seconds:.2f}s = {rate:,.0f} pairs/s on one core "
        f"({written / args.n:,.0f} bytes/pair); target {TARGET:,}: ratio {rate / TARGET:.2f}x"
    )
    small, large = args.mem_n, args.mem_n * 10
    mem_small, mem_large = peak_memory(small), peak_memory(large)
    print(
        f"memory: peak {mem_small / 2**20:.1f} MiB at N={small:,} vs {mem_large / 2**20:.1f} MiB at "
        f"N={large:,}: ratio {mem_large / mem_small:.2f} for 10x the pairs "
        f"({(mem_large - mem_small) / (large - small):.0f} bytes per extra pair: the uniqueness table "
        "and warming caches)"
    )
    held = peak_memory_holding(large)
    print(
        f"memory: holding the {large:,} JSON lines in a list instead of streaming would peak at "
        f"{held / 2**20:.1f} MiB: streaming uses {mem_large / held:.3f}x of that"
    )
