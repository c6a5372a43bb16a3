"""ERRANT's token alignment, computed only where the two sentences differ.

`errant.alignment.Alignment` fills a cost and an operation matrix over every pair of tokens (a
Python loop: 24-word sentences make 576 cells, each with a substitution cost) and reads the
cheapest alignment backwards from the last cell. `FastAlignment` gives the same alignment
sequence (which is all ERRANT's merger and classifier read) for a fraction of the time:

1. The tokens are read once into lists (errant 3.0.2 indexes the `Doc` inside its double loop,
   and every `Doc[i]` builds a new Token object).
2. The common ending is left out. The backtrace starts in the last cell, and a cell whose two
   tokens match is a match whatever the costs, so it walks back through the common ending as
   matches; the cells it then reads depend only on the tokens before them.
3. Most of the common beginning is left out too: the matrix is filled from one token before the
   first difference (`start`). Whatever the costs, the cell (start, start + m) of the full
   matrix costs exactly m (m insertions are needed, each costs 1, and the first `start` tokens
   match), and so does (start + m, start); those are the values the smaller matrix starts its
   edges with, so every cell inside it has ERRANT's cost and operation, and its transposition
   search stops where ERRANT's does (it compares two such edge values, which are equal). Only
   the operations on the smaller matrix's edges may differ from ERRANT's, so when the backtrace
   reaches an edge anywhere but its first cell, the alignment is computed again from the
   sentences' first token (rare: it needs a tie, e.g. "the" -> "The the").

`align` still fills ERRANT's full matrices (`cost_matrix` and `op_matrix` are computed from it
when read); `tests/triplets/test_alignment.py` checks the matrices and the sequence against the
stock class on the demo and the learner-length corpus and on shuffled sentences, so an ERRANT
upgrade that changes the algorithm fails a test instead of silently changing edits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from errant.alignment import Alignment
from rapidfuzz.distance import Indel

_OPEN_POS = Alignment._open_pos
_INF = float("inf")

Step = tuple[str, int, int, int, int]  # (op, o_start, o_end, c_start, c_end), as ERRANT's align_seq


def _orths(doc: Any) -> list[int]:
    # Doc.to_array reads every token's ORTH without building Token objects.
    orths: list[int] = doc.to_array("ORTH").tolist() if len(doc) else []
    return orths


def _matrices(
    orig: Sequence[Any], cor: Sequence[Any], lev: bool
) -> tuple[list[list[float]], list[list[str]]]:
    """Return ERRANT's cost and operation matrices for the token lists `orig` and `cor`
    (`Alignment.align`, the same arithmetic in the same order)."""
    o_len, c_len = len(orig), len(cor)
    o_low, c_low = [t.lower for t in orig], [t.lower for t in cor]
    o_orth, c_orth = [t.orth for t in orig], [t.orth for t in cor]
    o_lemma, c_lemma = [t.lemma for t in orig], [t.lemma for t in cor]
    o_pos, c_pos = [t.pos for t in orig], [t.pos for t in cor]
    o_text, c_text = [t.text for t in orig], [t.text for t in cor]
    cost = [[0.0 for _ in range(c_len + 1)] for _ in range(o_len + 1)]
    ops = [["O" for _ in range(c_len + 1)] for _ in range(o_len + 1)]
    for i in range(1, o_len + 1):
        cost[i][0] = cost[i - 1][0] + 1
        ops[i][0] = "D"
    for j in range(1, c_len + 1):
        cost[0][j] = cost[0][j - 1] + 1
        ops[0][j] = "I"
    for i in range(o_len):
        row, below, op_row = cost[i], cost[i + 1], ops[i + 1]
        orth, low, lemma, pos, text = o_orth[i], o_low[i], o_lemma[i], o_pos[i], o_text[i]
        open_pos = pos in _OPEN_POS
        for j in range(c_len):
            if orth == c_orth[j]:
                below[j + 1] = row[j]
                op_row[j + 1] = "M"
                continue
            # The cheapest of transposition, substitution, insertion, deletion, the first one
            # where two are as cheap (ERRANT's `costs.index(min(costs))`).
            best = _INF  # no transposition yet
            op = ""
            k = 1
            if lev:
                sub_cost = row[j] + 1
            else:
                # Alignment.get_sub_cost, term for term and in its order of addition.
                if low == c_low[j]:
                    sub_cost = row[j] + 0
                else:
                    lemma_cost = 0 if lemma == c_lemma[j] else 0.499
                    other = c_pos[j]
                    if pos == other:
                        pos_cost = 0.0
                    elif open_pos and other in _OPEN_POS:
                        pos_cost = 0.25
                    else:
                        pos_cost = 0.5
                    sub_cost = row[j] + float(
                        lemma_cost + pos_cost + Indel.normalized_distance(text, c_text[j])
                    )
                while i - k >= 0 and j - k >= 0 and cost[i - k + 1][j - k + 1] != cost[i - k][j - k]:
                    if sorted(o_low[i - k : i + 1]) == sorted(c_low[j - k : j + 1]):
                        best = cost[i - k][j - k] + k
                        op = "T" + str(k + 1)
                        break
                    k += 1
            if sub_cost < best:
                best, op = sub_cost, "S"
            ins_cost = below[j] + 1
            if ins_cost < best:
                best, op = ins_cost, "I"
            del_cost = row[j + 1] + 1
            if del_cost < best:
                best, op = del_cost, "D"
            below[j + 1] = best
            op_row[j + 1] = op
    return cost, ops


def _backtrace(ops: list[list[str]], offset: int, edged: bool) -> list[Step] | None:
    """Return the cheapest sequence read back from the last cell of `ops`
    (`Alignment.get_cheapest_align_seq`), token indices shifted by `offset`, in reverse order;
    None when `edged` (the matrix starts inside the sentences) and it reaches an edge cell other
    than the first, whose operation may not be ERRANT's."""
    i, j = len(ops) - 1, len(ops[0]) - 1
    steps: list[Step] = []
    while i + j != 0:
        if edged and (i == 0 or j == 0):
            return None
        op = ops[i][j]
        if op == "M" or op == "S":
            steps.append((op, offset + i - 1, offset + i, offset + j - 1, offset + j))
            i -= 1
            j -= 1
        elif op == "D":
            steps.append((op, offset + i - 1, offset + i, offset + j, offset + j))
            i -= 1
        elif op == "I":
            steps.append((op, offset + i, offset + i, offset + j - 1, offset + j))
            j -= 1
        else:  # a transposition of k tokens
            k = int(op[1:])
            steps.append((op, offset + i - k, offset + i, offset + j - k, offset + j))
            i -= k
            j -= k
    return steps


def cheapest_sequence(orig: Any, cor: Any, lev: bool = False) -> list[Step]:
    """Return ERRANT's cheapest alignment sequence of two parsed sentences (`Alignment.align_seq`),
    the matrix filled only around where they differ (see the module's docstring)."""
    o_orth, c_orth = _orths(orig), _orths(cor)
    o_len, c_len = len(o_orth), len(c_orth)
    shortest = min(o_len, c_len)
    same_start = 0
    while same_start < shortest and o_orth[same_start] == c_orth[same_start]:
        same_start += 1
    same_end = 0
    while same_end < shortest - same_start and o_orth[o_len - 1 - same_end] == c_orth[c_len - 1 - same_end]:
        same_end += 1
    o_stop, c_stop = o_len - same_end, c_len - same_end
    steps: list[Step] | None = None
    start = max(same_start - 1, 0)
    if start > 0:
        _, ops = _matrices(
            [orig[i] for i in range(start, o_stop)], [cor[j] for j in range(start, c_stop)], lev
        )
        steps = _backtrace(ops, start, edged=True)
    if steps is None:  # from the first token: the matrix's edges are ERRANT's own
        start = 0
        _, ops = _matrices([orig[i] for i in range(o_stop)], [cor[j] for j in range(c_stop)], lev)
        steps = _backtrace(ops, 0, edged=False)
        assert steps is not None
    steps.reverse()
    prefix: list[Step] = [("M", i, i + 1, i, i + 1) for i in range(start)]
    suffix: list[Step] = [
        ("M", o_stop + k, o_stop + k + 1, c_stop + k, c_stop + k + 1) for k in range(same_end)
    ]
    return prefix + steps + suffix


class FastAlignment(Alignment):  # type: ignore[misc]  # errant has no type information
    """ERRANT's linguistically enhanced Damerau-Levenshtein alignment, filled only where the
    sentences differ; the full matrices are computed when read."""

    def __init__(self, orig: Any, cor: Any, lev: bool = False) -> None:
        self.orig = orig
        self.cor = cor
        self._lev = lev
        self._full: tuple[list[list[float]], list[list[str]]] | None = None
        self.align_seq = cheapest_sequence(orig, cor, lev)

    def align(self, lev: bool) -> tuple[list[list[float]], list[list[str]]]:
        """Return ERRANT's full cost matrix and operation matrix (as `Alignment.align`)."""
        return _matrices(list(self.orig), list(self.cor), lev)

    def _matrices(self) -> tuple[list[list[float]], list[list[str]]]:
        if self._full is None:
            self._full = self.align(self._lev)
        return self._full

    @property
    def cost_matrix(self) -> list[list[float]]:
        return self._matrices()[0]

    @property
    def op_matrix(self) -> list[list[str]]:
        return self._matrices()[1]


def install(annotator: Any) -> None:
    """Make `annotator` (an ERRANT Annotator) align with `FastAlignment`."""
    annotator.align = lambda orig, cor, lev=False: FastAlignment(orig, cor, lev)
