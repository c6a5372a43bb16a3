"""Token vectors of a sentence that differs from an already parsed one in a few tokens, computed
only where they can differ.

Most sentences the pipeline parses are the corrected sentence of a pair with one local change:
the learner's sentence, a single-edit learner sentence (the re-check), each artificial sentence
(validation). Two thirds of spaCy's time on them goes into `tok2vec` (en_core_web_sm: a hash
embedding of each token's features, then `depth` residual CNN blocks, each reading a window of
one token either side). A token's vector therefore depends only on the features of the tokens at
most `depth` positions away, and a block's output row only on three rows of the previous one.
So, keeping the corrected sentence's activations (every block's input, `Layers`), a sentence
made from it is computed as follows: the rows whose features differ (between the longest common
start and end of the two feature tables) are embedded; block k recomputes only the rows within
k positions of them, reading the rows it needs from the block before (recomputed, or the
corrected sentence's, shifted past the change); every other row is the corrected sentence's.
The arithmetic of each row is the component's own (the same layers called on the same values in
the same order; rows are independent, as they are when spaCy batches sentences), so the vectors
are the ones `tok2vec` gives, bit for bit. The other components (tagger, parser, attribute ruler,
lemmatizer) then run as usual: they read `doc.tensor`.

The padding spaCy puts between sentences (`with_array(pad=...)`) is part of that arithmetic:
each sentence's activations are kept with `pad` rows either side, and rows that could depend on
a neighbouring sentence of the batch are never read (a block's row is only read where it can
reach the sentence's output).

`Encoder.of` takes the tok2vec model apart and checks it is of that shape (else None, and the
caller parses as usual); `Encoder.selfcheck` compares both paths with the component's own
`predict` on a probe, and `tests/triplets/test_incremental.py` does so on the demo and the
learner-length corpus and compares the pipeline's output with and without this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc


@dataclass(frozen=True, slots=True)
class Layers:
    """A parsed sentence's tok2vec activations: the input of each residual block and the last
    block's output (its tensor), each rows [-pad, n + pad) (the sentence's padding included) of
    width columns; and its feature table (n, columns)."""

    rows: tuple[Any, ...]  # depth + 1 numpy float32 arrays
    features: Any  # numpy uint64 array


MIDDLE = 8  # rows between the first and the last change from which equal runs are looked for
SAME_RUN = 3  # the shortest equal run between two changes kept as a segment


@dataclass(slots=True)
class _Plan:
    """How a derived sentence of `length` tokens is made from its base: each segment (first,
    stop, shift) says its rows [first, stop) have the features of the base's rows [first + shift,
    stop + shift) (the first segment starts in the padding before the sentence, the last ends in
    the padding after it); the rows in no segment are new."""

    base: Layers
    length: int
    segments: list[tuple[int, int, int]]


def _window(plan: _Plan, k: int, reach: int) -> list[tuple[int, int]]:
    """Return the rows [a, b) block k recomputes: those within `reach` rows of the sentence that
    are not at least k rows inside a segment (whose value is then the base's)."""
    out = []
    position, stop = -reach, plan.length + reach
    for first, end, _ in plan.segments:
        safe_first, safe_stop = first + k, end - k
        if safe_stop <= safe_first:
            continue
        if safe_first > position:
            out.append((position, min(safe_first, stop)))
        position = max(position, safe_stop)
        if position >= stop:
            break
    if position < stop:
        out.append((position, stop))
    return [(a, b) for a, b in out if b > a]


def _run(layers: Sequence[Any], value: Any) -> Any:
    for layer in layers:
        value = layer.predict(value)
    return value


class Encoder:
    """The tok2vec component's model taken apart: feature extraction, the rest of the embedding,
    and the residual blocks (each: a window of one row either side, then its layers)."""

    def __init__(self, component: Any, embed: Any, blocks: list[Any], pad: int) -> None:
        self.component = component
        self.extract = embed.layers[0]
        self.embed_rest = list(embed.layers[1:])
        self.windows = [block.layers[0].layers[0] for block in blocks]
        self.blocks = [list(block.layers[0].layers[1:]) for block in blocks]
        self.pad = pad
        self.depth = len(blocks)
        self.ops = component.model.ops

    @classmethod
    def of(cls, nlp: Language) -> Encoder | None:
        """Return the encoder of `nlp`'s tok2vec component, or None when it is not a hash
        embedding followed by residual window-1 blocks padded at least by their reach."""
        if "tok2vec" not in nlp.pipe_names:
            return None
        component = nlp.get_pipe("tok2vec")
        model = getattr(component, "model", None)
        try:
            embed, encode = model.layers  # type: ignore[union-attr]
            if embed.layers[0].name != "extract_features" or not encode.name.startswith("with_array"):
                return None
            pad = int(encode.attrs["pad"])
            (stack,) = encode.layers
            blocks = list(stack.layers) if stack.name.count("residual(") > 1 else [stack]
            for block in blocks:
                window = block.layers[0].layers[0]
                if not block.name.startswith("residual(") or window.name != "expand_window":
                    return None
                if window.attrs["window_size"] != 1:
                    return None
        except (AttributeError, KeyError, ValueError, IndexError, TypeError):
            return None
        if pad < len(blocks):  # a row could then reach the next sentence of a batch
            return None
        return cls(component, embed, blocks, pad)

    # ------------------------------------------------------------------ from scratch

    def full(self, docs: Sequence[Doc]) -> list[Layers]:
        """Set each (non-empty) doc's tensor as the tok2vec component does and return its
        activations."""
        features = self.extract.predict(docs)
        embedded = _run(self.embed_rest, features)
        pad = self.pad
        value = self.ops.flatten(embedded, pad=pad)
        kept = [value]
        for window, layers in zip(self.windows, self.blocks, strict=True):
            value = value + _run(layers, window.predict(value))
            kept.append(value)
        out: list[Layers] = []
        start = 0  # the row of this doc's first padding row
        for doc, feats in zip(docs, features, strict=True):
            n = len(doc)
            # Views into the batch's arrays (never written to: each block makes a new one).
            activations = Layers(tuple(value[start : start + n + 2 * pad] for value in kept), feats)
            doc.tensor = activations.rows[-1][pad : pad + n]
            out.append(activations)
            start += n + pad
        return out

    # ------------------------------------------------------------------ near a base

    def _plan(self, features: Any, base: Layers) -> _Plan:
        old = base.features
        n, m = len(features), len(old)
        shortest = min(n, m)
        same = (features[:shortest] == old[:shortest]).all(axis=1)
        start = int(shortest if same.all() else same.argmin())
        rest = shortest - start
        end = 0
        if rest:
            same_end = (features[n - rest :][::-1] == old[m - rest :][::-1]).all(axis=1)
            end = int(rest if same_end.all() else same_end.argmin())
        pad = self.pad
        segments = [(-pad, start, 0)]
        if min(n - end, m - end) - start >= MIDDLE:  # changes far apart: what is equal between
            ours = [tuple(row) for row in features[start : n - end].tolist()]
            theirs = [tuple(row) for row in old[start : m - end].tolist()]
            for i, j, size in SequenceMatcher(None, ours, theirs, autojunk=False).get_matching_blocks():
                if size >= SAME_RUN:
                    segments.append((start + i, start + i + size, j - i))
        segments.append((n - end, n + pad, m - n))
        return _Plan(base, n, segments)

    def near(self, docs: Sequence[Doc], bases: Sequence[Layers]) -> None:
        """Set each (non-empty) doc's tensor from the activations of the parsed sentence it was
        made from (`bases`, one each), recomputing only the rows that can differ."""
        pad, depth = self.pad, self.depth
        features = self.extract.predict(docs)
        plans = [self._plan(f, b) for f, b in zip(features, bases, strict=True)]
        # All docs of the batch in one array of frames (each doc's rows with its padding), and
        # where each frame row is found among the bases' frames.
        frames = np.cumsum([0] + [p.length + 2 * pad for p in plans])
        base_frames = np.cumsum([0] + [len(p.base.rows[0]) for p in plans])
        mapping = np.zeros(int(frames[-1]), dtype=np.intp)
        new_rows = []
        new_at = []
        for i, (plan, feats) in enumerate(zip(plans, features, strict=True)):
            at = int(frames[i]) + pad  # the frame row of the doc's first token
            covered = 0  # the first token row not yet in a segment
            for first, stop, shift in plan.segments:
                if first > covered:  # changed tokens before this segment: embedded anew
                    new_rows.append(feats[covered:first])
                    new_at.append(np.arange(at + covered, at + first))
                mapping[at + first : at + stop] = (
                    np.arange(first + shift, stop + shift) + base_frames[i] + pad
                )
                covered = max(covered, stop)
        value = np.concatenate([p.base.rows[0] for p in plans])[mapping]
        if new_rows:
            (embedded,) = _run(self.embed_rest, [np.concatenate(new_rows)])
            value[np.concatenate(new_at)] = embedded
        for k, layers in enumerate(self.blocks, start=1):
            # Block k recomputes every row that can reach an output row (within depth - k of
            # the sentence) and is not k rows inside a segment.
            windows = [
                np.arange(int(frames[i]) + pad + a, int(frames[i]) + pad + b)
                for i, plan in enumerate(plans)
                for a, b in _window(plan, k, depth - k)
            ]
            following = np.concatenate([p.base.rows[k] for p in plans])[mapping]
            if windows:
                rows = np.concatenate(windows)
                stacked = np.concatenate((value[rows - 1], value[rows], value[rows + 1]), axis=1)
                following[rows] = value[rows] + _run(layers, stacked)
            value = following
        for i, (doc, plan) in enumerate(zip(docs, plans, strict=True)):
            at = int(frames[i]) + pad
            doc.tensor = value[at : at + plan.length]

    # ------------------------------------------------------------------ the check

    def selfcheck(self, nlp: Language) -> bool:
        """Return True when both paths give the component's own vectors on a probe (a sentence
        and a few sentences made from it)."""
        text = "My father is an engineer and he works in a big company near the old station."
        variants = [
            "My father is engineer and he works in a big company near the old station.",
            "My father are an engineer and he work in big company near the old station.",
            "My father is an engineer and he works on a big company near the old station .",
            "Father is an engineer, and he works in a big company near old station",
        ]
        base_doc = nlp.make_doc(text)
        docs = [nlp.make_doc(v) for v in variants]
        expected = self.component.predict([base_doc, *docs])
        (layers,) = self.full([base_doc])
        self.near(docs, [layers] * len(docs))
        got = [base_doc.tensor, *[d.tensor for d in docs]]
        return all(np.array_equal(a, b) for a, b in zip(expected, got, strict=True))
