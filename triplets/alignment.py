"""ERRANT's token alignment with the tokens read once.

`errant.alignment.Alignment.align` indexes the spaCy `Doc` inside its double loop, and every
`Doc[i]` builds a new Token object: about 900,000 of them for 1,755 alignments, half of ERRANT's
time in the pipeline. `FastAlignment` reads each token's attributes into lists first and then
does the same arithmetic in the same order, so its cost and operation matrices (and hence the
edits) are ERRANT's own; `tests/triplets/test_alignment.py` checks that against the
stock class on the whole demo corpus, so an ERRANT upgrade that changes the algorithm fails a
test instead of silently changing edits.
"""

from __future__ import annotations

from typing import Any

from errant.alignment import Alignment
from rapidfuzz.distance import Indel

_OPEN_POS = Alignment._open_pos


class FastAlignment(Alignment):  # type: ignore[misc]  # errant has no type information
    """ERRANT's linguistically enhanced Damerau-Levenshtein alignment, tokens read once."""

    def align(self, lev: bool) -> tuple[list[list[float]], list[list[str]]]:
        """Return the cost matrix and the operation matrix (as `Alignment.align`)."""
        orig, cor = list(self.orig), list(self.cor)
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
            for j in range(c_len):
                if o_orth[i] == c_orth[j]:
                    below[j + 1] = row[j]
                    op_row[j + 1] = "M"
                    continue
                del_cost = row[j + 1] + 1
                ins_cost = below[j] + 1
                trans_cost = float("inf")
                k = 1
                if lev:
                    sub_cost = row[j] + 1
                else:
                    sub_cost = row[j] + self._substitution(
                        o_low[i] == c_low[j],
                        o_lemma[i] == c_lemma[j],
                        o_pos[i],
                        c_pos[j],
                        o_text[i],
                        c_text[j],
                    )
                    while i - k >= 0 and j - k >= 0 and cost[i - k + 1][j - k + 1] != cost[i - k][j - k]:
                        if sorted(o_low[i - k : i + 1]) == sorted(c_low[j - k : j + 1]):
                            trans_cost = cost[i - k][j - k] + k
                            break
                        k += 1
                costs = [trans_cost, sub_cost, ins_cost, del_cost]
                cheapest = costs.index(min(costs))
                below[j + 1] = costs[cheapest]
                op_row[j + 1] = ("T" + str(k + 1), "S", "I", "D")[cheapest]
        return cost, ops

    @staticmethod
    def _substitution(
        same_lower: bool, same_lemma: bool, o_pos: Any, c_pos: Any, o_text: str, c_text: str
    ) -> float:
        # Alignment.get_sub_cost, term for term and in its order of addition.
        if same_lower:
            return 0
        lemma_cost = 0 if same_lemma else 0.499
        if o_pos == c_pos:
            pos_cost = 0.0
        elif o_pos in _OPEN_POS and c_pos in _OPEN_POS:
            pos_cost = 0.25
        else:
            pos_cost = 0.5
        return float(lemma_cost + pos_cost + Indel.normalized_distance(o_text, c_text))


def install(annotator: Any) -> None:
    """Make `annotator` (an ERRANT Annotator) align with `FastAlignment`."""
    annotator.align = lambda orig, cor, lev=False: FastAlignment(orig, cor, lev)
