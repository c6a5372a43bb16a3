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


@dataclass(slots=True)
class _Plan:
    """Where a derived sentence differs from its base: its rows [start, stop) replace the base's
    rows [start, base_stop)."""

    base: Layers
    length: int
    start: int
    stop: int
    base_stop: int

    @property
    def shift(self) -> int:
        return self.base_stop - self.stop


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
        if rest:
            same_end = (features[n - rest :][::-1] == old[m - rest :][::-1]).all(axis=1)
            end = int(rest if same_end.all() else same_end.argmin())
        else:
            end = 0
        return _Plan(base, n, start, n - end, m - end)

    def near(self, docs: Sequence[Doc], bases: Sequence[Layers]) -> None:
        """Set each (non-empty) doc's tensor from the activations of the parsed sentence it was
        made from (`bases`, one each), recomputing only the rows that can differ."""
        pad, depth = self.pad, self.depth
        features = self.extract.predict(docs)
        plans = [self._plan(f, b) for f, b in zip(features, bases, strict=True)]
        new_rows = [f[p.start : p.stop] for f, p in zip(features, plans, strict=True)]
        counts = [len(r) for r in new_rows]
        embedded = None
        if sum(counts):
            (embedded,) = _run(self.embed_rest, [np.concatenate(new_rows)])
        current = []
        offset = 0
        for plan, count in zip(plans, counts, strict=True):
            base = plan.base.rows[0]
            rows = np.empty((plan.length + 2 * pad, base.shape[1]), dtype=base.dtype)
            rows[: pad + plan.start] = base[: pad + plan.start]
            if count:
                assert embedded is not None
                rows[pad + plan.start : pad + plan.stop] = embedded[offset : offset + count]
                offset += count
            rows[pad + plan.stop :] = base[pad + plan.base_stop :]
            current.append(rows)
        for k, layers in enumerate(self.blocks, start=1):
            reach = depth - k  # how far outside the sentence block k's rows can reach its output
            spans = []
            windows = []
            for plan, rows in zip(plans, current, strict=True):
                first = pad + max(plan.start - k, -reach)
                last = pad + min(plan.stop + k, plan.length + reach)
                spans.append((first, last))
                if last > first:
                    windows.append(
                        np.concatenate(
                            (rows[first - 1 : last - 1], rows[first:last], rows[first + 1 : last + 1]), axis=1
                        )
                    )
            added = _run(layers, np.concatenate(windows)) if windows else None
            following = []
            offset = 0
            for plan, rows, (first, last) in zip(plans, current, spans, strict=True):
                base = plan.base.rows[k]
                after = np.empty_like(rows)
                after[:first] = base[:first]
                if last > first:
                    assert added is not None
                    after[first:last] = rows[first:last] + added[offset : offset + last - first]
                    offset += last - first
                after[last:] = base[last + plan.shift :]
                following.append(after)
            current = following
        for doc, plan, rows in zip(docs, plans, current, strict=True):
            doc.tensor = rows[pad : pad + plan.length]

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
