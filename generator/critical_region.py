"""Derive the critical region of a template from the difference of its two grammars.

The bad grammar says, for each of its positions, whether it reuses a good position's word
(`same`, `copy`, `move`), drops one (`delete`) or brings new material. The `same` references,
in good-grammar order, are the anchors where the sentences agree. Between two anchors, new
bad material facing dropped good positions is a substitution; new material alone an insertion;
dropped positions alone a deletion. `move` and `copy` are their own edits. Each pair then turns
these template-level edits into token spans and character offsets.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from generator import errors as E
from generator.errors import Problem
from generator.template import Deletion, Reference, Template

EDIT_TYPES = ("substitution", "insertion", "deletion", "move", "copy")


@dataclass(frozen=True, slots=True)
class Edit:
    """One template-level difference between the grammars.

    `good` / `bad` are indexes of the positions involved (0-based). Where one side is empty the
    edit sits at `good_at` / `bad_at`: the index of the first position after the gap.
    `source` is the good position a moved or copied word comes from.
    """

    type: str
    good: tuple[int, ...]
    bad: tuple[int, ...]
    good_at: int
    bad_at: int
    source: int | None = None


def _longest_increasing(values: Sequence[int]) -> list[int]:
    """Return the indexes (into `values`) of one longest strictly increasing subsequence."""
    tails: list[int] = []
    tail_index: list[int] = []
    previous = [-1] * len(values)
    import bisect

    for i, value in enumerate(values):
        k = bisect.bisect_left(tails, value)
        if k == len(tails):
            tails.append(value)
            tail_index.append(i)
        else:
            tails[k] = value
            tail_index[k] = i
        previous[i] = tail_index[k - 1] if k else -1
    result: list[int] = []
    i = tail_index[-1] if tail_index else -1
    while i != -1:
        result.append(i)
        i = previous[i]
    return result[::-1]


def template_edits(template: Template) -> tuple[list[Edit], list[Problem]]:
    """Return the edits that turn the good grammar into the bad one, and any misuse found."""
    name = template.file.rsplit("/", 1)[-1] if template.file else template.uid
    problems: list[Problem] = []
    good_index = {p.id: i for i, p in enumerate(template.good)}
    n_good, n_bad = len(template.good), len(template.bad)

    def problem(message: str, j: int) -> None:
        pos = template.bad[j]
        problems.append(Problem(E.E_EDIT, message, name, "bad", pos.label, pos.line))

    same_refs: list[tuple[int, int]] = []  # (bad index, good index)
    referenced: dict[int, list[int]] = {}
    for j, position in enumerate(template.bad):
        rule = position.rule
        if isinstance(rule, Reference | Deletion):
            if rule.target not in good_index:
                problems.append(
                    Problem(
                        E.E_DANGLING_REF,
                        f"'{rule.kind}: {rule.target}' names no position of the good grammar",
                        name,
                        "bad",
                        position.label,
                        position.line,
                    )
                )
                continue
            if isinstance(rule, Reference):
                referenced.setdefault(good_index[rule.target], []).append(j)
                if rule.mode == "same":
                    same_refs.append((j, good_index[rule.target]))
    if problems:
        return [], problems
    chosen = _longest_increasing([g for _, g in same_refs])
    anchors = [same_refs[k] for k in chosen]
    anchored_good = {g for _, g in anchors}
    anchored_bad = {j for j, _ in anchors}
    for j, g in same_refs:
        if j not in anchored_bad:
            if g in anchored_good:
                problem(
                    f"'same: {template.good[g].id}' repeats a word that already stays in place; "
                    f"write 'copy: {template.good[g].id}'",
                    j,
                )
            else:
                problem(
                    f"'same: {template.good[g].id}' puts the word in another place; "
                    f"write 'move: {template.good[g].id}'",
                    j,
                )
    moved: set[int] = set()
    for j, position in enumerate(template.bad):
        rule = position.rule
        if isinstance(rule, Reference) and rule.mode == "move":
            g = good_index[rule.target]
            if g in anchored_good:
                problem(
                    f"'move: {rule.target}' but {rule.target} also stays in place; "
                    f"write 'copy: {rule.target}'",
                    j,
                )
            elif g in moved:
                problem(f"{rule.target} is moved twice; move it once and copy it", j)
            moved.add(g)
        elif isinstance(rule, Reference) and rule.mode == "copy":
            g = good_index[rule.target]
            if g not in anchored_good:
                problem(
                    f"'copy: {rule.target}' but {rule.target} does not stay in place "
                    f"(no 'same: {rule.target}'); write 'move: {rule.target}'",
                    j,
                )
        elif isinstance(rule, Deletion):
            g = good_index[rule.target]
            if g in referenced:
                used = ", ".join(str(template.bad[k].number) for k in referenced[g])
                problem(f"'delete: {rule.target}' but the word is still used at bad position {used}", j)
    for j, g in _moves_in_place(template, anchors, good_index):
        target = template.good[g].id
        problem(
            f"'move: {target}' leaves the word where it is: the words around it are those around "
            f"{target} in the good sentence. Put this row where {target} should go, or write "
            f"'same: {target}' if it stays",
            j,
        )
    if problems:
        return [], problems

    edits: list[Edit] = []
    bounds = [(-1, -1), *[(g, j) for j, g in anchors], (n_good, n_bad)]
    for (g0, j0), (g1, j1) in itertools.pairwise(bounds):
        anchor_rule = template.bad[j0].rule if g0 >= 0 else None
        if isinstance(anchor_rule, Reference) and anchor_rule.form:
            edits.append(Edit("substitution", (g0,), (j0,), g0, j0))
        gap_good = [g for g in range(g0 + 1, g1) if g not in referenced]
        gap_new = [j for j in range(j0 + 1, j1) if not isinstance(template.bad[j].rule, Reference | Deletion)]
        if gap_new and gap_good:
            edits.append(Edit("substitution", tuple(gap_good), tuple(gap_new), g0 + 1, j0 + 1))
        elif gap_new:
            edits.append(Edit("insertion", (), tuple(gap_new), g0 + 1, j0 + 1))
        elif gap_good:
            edits.append(Edit("deletion", tuple(gap_good), (), g0 + 1, j0 + 1))
        for j in range(j0 + 1, j1):
            rule = template.bad[j].rule
            if isinstance(rule, Reference) and rule.mode in ("move", "copy"):
                g = good_index[rule.target]
                kind = rule.mode
                if kind == "move":
                    edits.append(Edit("move", (g,), (j,), g, j, source=g))
                else:
                    edits.append(Edit("copy", (), (j,), g0 + 1, j, source=g))
    if not edits:
        problems.append(
            Problem(
                E.E_SAME_GRAMMARS,
                "the bad grammar reuses every good position in "
                "the same order, so good and bad sentences would be identical",
                name,
                "bad",
                "",
                template.bad[0].line if template.bad else None,
            )
        )
    return edits, problems


def _moves_in_place(
    template: Template, anchors: Sequence[tuple[int, int]], good_index: Mapping[str, int]
) -> list[tuple[int, int]]:
    """Return (bad index, good index) of each Move that leaves its word where it was.

    Such a Move sits between the two words that stay in place around its word in the good
    sentence (anchors: (bad index, good index) of the Same positions that stay), with nothing
    else new between them, only words left out: the bad sentence keeps the word in its place.
    """
    found: list[tuple[int, int]] = []
    bounds = [(-1, -1), *anchors, (len(template.bad), len(template.good))]
    for (j0, g0), (j1, g1) in itertools.pairwise(bounds):
        between = [template.bad[j].rule for j in range(j0 + 1, j1)]
        moves = [
            (j0 + 1 + k, good_index[rule.target])
            for k, rule in enumerate(between)
            if isinstance(rule, Reference) and rule.mode == "move" and rule.target in good_index
        ]
        others = [rule for rule in between if not isinstance(rule, Deletion)]
        if len(moves) == 1 and len(others) == 1 and g0 < moves[0][1] < g1:
            found.append(moves[0])
    return found


@dataclass(frozen=True, slots=True)
class SideSpan:
    """One side of an edit in one sentence: token span, character span and position ids."""

    tokens: tuple[int, int]
    chars: tuple[int, int]
    positions: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {"tokens": list(self.tokens), "chars": list(self.chars), "positions": list(self.positions)}


def span_of(
    indexes: Sequence[int],
    at: int,
    unit_spans: Sequence[tuple[int, int]],
    offsets: Sequence[tuple[int, int]],
    text_length: int,
    ids: Sequence[str],
) -> SideSpan:
    """Return the tokens/characters covered by the given units (zero-width at unit `at`)."""
    if indexes:
        start = min(unit_spans[i][0] for i in indexes)
        end = max(unit_spans[i][1] for i in indexes)
    else:
        start = unit_spans[at][0] if at < len(unit_spans) else (unit_spans[-1][1] if unit_spans else 0)
        end = start
    return token_span(start, end, offsets, text_length, tuple(ids[i] for i in indexes))


def token_span(
    start: int, end: int, offsets: Sequence[tuple[int, int]], text_length: int, positions: tuple[str, ...]
) -> SideSpan:
    """Return the SideSpan of tokens [start, end), with its character offsets."""
    if end > start:
        chars = (offsets[start][0], offsets[end - 1][1])
    else:
        point = offsets[start][0] if start < len(offsets) else text_length
        chars = (point, point)
    return SideSpan((start, end), chars, positions)


def narrow_substitution(
    good: SideSpan,
    bad: SideSpan,
    good_tokens: Sequence[str],
    bad_tokens: Sequence[str],
    good_offsets: Sequence[tuple[int, int]],
    bad_offsets: Sequence[tuple[int, int]],
    good_length: int,
    bad_length: int,
) -> tuple[SideSpan, SideSpan] | None:
    """Return the spans without the tokens both sides share at their edges; None if all are shared.

    A re-inflected multi-word item ("sit down" -> "sits down") differs in one token only; the
    critical region is that token, while `positions` still names the whole position.
    """
    gs, ge = good.tokens
    bs, be = bad.tokens
    while gs < ge and bs < be and good_tokens[gs] == bad_tokens[bs]:
        gs, bs = gs + 1, bs + 1
    while ge > gs and be > bs and good_tokens[ge - 1] == bad_tokens[be - 1]:
        ge, be = ge - 1, be - 1
    if gs == ge and bs == be:
        return None
    return (
        token_span(gs, ge, good_offsets, good_length, good.positions),
        token_span(bs, be, bad_offsets, bad_length, bad.positions),
    )
