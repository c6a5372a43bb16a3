"""How many distinct sentences (or pairs) a template can yield with a vocabulary.

For each structure the count is taken over the slots that decide uniqueness (the good
sentence's slots by default). Agreement constraints and selectional restrictions form a graph
over those slots: on a tree
the count is exact by dynamic programming over candidates grouped by their feature values; a
small cyclic component is counted by enumeration; a large one by the product of its candidate
counts. Every count is an upper bound on distinct sentences (two assignments can spell the same
sentence, and the repeated-word rule removes some), and it is exact where the report says so.
Under `options.equal_length` only equally long pairs count: the plan is split by the length
each differing slot's value adds, and each balanced part is counted (`count_balanced`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.equal_length import LengthModel
from generator.plan import Plan, converse, restrict_plan

BRUTE_FORCE_LIMIT = 200_000
# Equal-length counting counts one restricted copy of a plan per balanced choice of lengths;
# past this many choices it gives the count without the option (an upper bound).
BALANCED_LIMIT = 2_000


@dataclass(frozen=True, slots=True)
class Capacity:
    """The number of distinct results a template can yield, and how sure that number is."""

    count: int
    exact: bool  # the count is the true number of distinct assignments
    complete: bool  # every structure was counted, so `count` is an upper bound
    structures: int

    def describe(self) -> str:
        """Return the capacity in words for reports."""
        if not self.complete:
            return f"at least {self.count:,} (counted over the first {self.structures:,} phrase structures)"
        if self.exact:
            return f"{self.count:,}"
        return f"at most {self.count:,}"


def capacity_bound(described: str) -> int | None:
    """Return the most pairs a capacity in words (`Capacity.describe`) allows, or None when it
    sets no bound (a count over part of the structures, or no count)."""
    found = _BOUND.fullmatch(described.strip())
    return int(found.group(1).replace(",", "")) if found else None


# `Capacity.describe` of a complete count: "1,008" (exact) or "at most 1,008".
_BOUND = re.compile(r"(?:at most )?(\d{1,3}(?:,\d{3})*|\d+)")


def policy_slots(plan: Plan, unique: str) -> list[int]:
    """Return the slots whose values decide uniqueness under the policy (good, bad or pair)."""
    good = [s for unit in plan.good_units for s in unit.slots]
    if unique == "good":
        return good
    bad: list[int] = []
    for bad_unit in plan.bad_units:
        if bad_unit.kind == "ref":
            bad += plan.good_units[bad_unit.good_index].slots
        elif bad_unit.unit is not None:
            bad += bad_unit.unit.slots
    if unique == "bad":
        return sorted(set(bad))
    return sorted(set(good) | set(bad))


def count_plan(plan: Plan, chosen: Sequence[int]) -> tuple[int, bool]:
    """Return (number of distinct assignments of `chosen` slots, whether it is exact)."""
    if plan.empty_slot is not None:
        return 0, True
    inside = set(chosen)
    slots = plan.slots
    total = 1
    exact = True
    seen: set[int] = set()
    for start in chosen:
        if start in seen:
            continue
        slot = slots[start]
        if not slot.lexical:
            seen.add(start)
            total *= len(set(slot.options))
            continue
        component = _component(plan, start, inside)
        seen.update(component)
        edges = sum(1 for i in component for (j, _, _) in slots[i].edges if j in inside) // 2
        if len(component) == 1:
            total *= len(set(slot.words[c] for c in slot.candidates))
        elif edges == len(component) - 1:
            total *= _count_tree(plan, component[0], inside)
        else:
            sizes = 1
            for i in component:
                sizes *= len(slots[i].candidates)
            if sizes <= BRUTE_FORCE_LIMIT:
                total *= _count_brute(plan, component)
            else:
                total *= sizes
                exact = False
        # Slots outside the policy that link to more than one chosen slot can make some
        # combinations impossible, which a count over the chosen slots alone cannot see.
    for i, slot in enumerate(slots):
        if i not in inside and sum(1 for (j, _, _) in slot.edges if j in inside) > 1:
            exact = False
    return total, exact


def _component(plan: Plan, start: int, inside: set[int]) -> list[int]:
    found = [start]
    queue = [start]
    marked = {start}
    while queue:
        current = queue.pop()
        for other, _, _ in plan.slots[current].edges:
            if other in inside and other not in marked and plan.slots[other].lexical:
                marked.add(other)
                found.append(other)
                queue.append(other)
    return found


def _count_tree(plan: Plan, root: int, inside: set[int]) -> int:
    """Count assignments of a tree of linked slots by dynamic programming."""

    def ways(node: int, parent: int) -> dict[int, int]:
        slot = plan.slots[node]
        result = {c: 1 for c in slot.candidates}
        for child, features, relation in slot.edges:
            if child == parent or child not in inside:
                continue
            child_ways = ways(child, node)
            by_signature: dict[tuple[object, ...], int] = {}
            for c in slot.candidates:
                signature = plan.link_signature(c, features, relation)
                subtotal = by_signature.get(signature)
                if subtotal is None:
                    compatible = plan.compatible(child, c, features, converse(relation))
                    subtotal = sum(child_ways[d] for d in compatible)
                    by_signature[signature] = subtotal
                result[c] *= subtotal
        return result

    return sum(ways(root, -1).values())


def _count_brute(plan: Plan, component: list[int]) -> int:
    """Count assignments of a small cyclic component by backtracking."""
    order = list(component)
    assignment: dict[int, int] = {}

    def consistent(node: int, value: int) -> bool:
        for other, features, relation in plan.slots[node].edges:
            if other in assignment and value not in plan.compatible(
                node, assignment[other], features, relation
            ):
                return False
        return True

    def search(depth: int) -> int:
        if depth == len(order):
            return 1
        node = order[depth]
        count = 0
        for value in plan.slots[node].candidates:
            if consistent(node, value):
                assignment[node] = value
                count += search(depth + 1)
                del assignment[node]
        return count

    return search(0)


def count_without_repeats(plan: Plan, chosen: Sequence[int], groups: Sequence[Sequence[int]]) -> int | None:
    """Return the exact count of assignments where no word (lemma and POS) repeats within a group.

    Returns None when the search space (product of candidate counts) is too large to enumerate.
    """
    inside = set(chosen)
    lexical = [s for s in plan.order if s in inside and plan.slots[s].lexical]
    size = 1
    for s in lexical:
        size *= len(plan.slots[s].candidates)
    if size > BRUTE_FORCE_LIMIT:
        return None
    literal = 1
    for s in chosen:
        if not plan.slots[s].lexical:
            literal *= len(set(plan.slots[s].options))
    assert plan.vocabulary is not None
    items = plan.vocabulary.items
    group_of = {s: [g for g, members in enumerate(groups) if s in members] for s in lexical}
    used: list[set[tuple[str, str]]] = [set() for _ in groups]
    assignment: dict[int, int] = {}

    def search(depth: int) -> int:
        if depth == len(lexical):
            return 1
        node = lexical[depth]
        total = 0
        for value in plan.slots[node].candidates:
            if any(
                other in assignment and value not in plan.compatible(node, assignment[other], f, a)
                for other, f, a in plan.slots[node].edges
            ):
                continue
            lemma = (items[value].lemma, items[value].pos)
            if any(lemma in used[g] for g in group_of[node]):
                continue
            for g in group_of[node]:
                used[g].add(lemma)
            assignment[node] = value
            total += search(depth + 1)
            del assignment[node]
            for g in group_of[node]:
                used[g].discard(lemma)
        return total

    return search(0) * literal


def count_balanced(
    plan: Plan,
    chosen: Sequence[int],
    model: LengthModel | None,
    count: Callable[[Plan, Sequence[int]], tuple[int, bool]],
) -> tuple[int, bool]:
    """Return (number of distinct assignments of `chosen` whose good and bad sentences are equally
    long, whether it is exact), `count` counting one plan as without the option.

    The plan is split by the lengths the model's slots add, keeping only the choices whose
    difference is 0, and each part (those slots restricted to values of that length) is counted.
    Parts differ in a chosen slot's value, so the sum is exact when at most one model slot lies
    outside `chosen` (its length then follows from the others) and it links only to chosen
    slots; otherwise an assignment may be counted in several parts, and the sum is an upper
    bound. Without a model, or with too many parts, the count is that without the option, an
    upper bound too.
    """
    if model is None:
        return count(plan, chosen)[0], False
    choices = model.balanced(BALANCED_LIMIT)
    if choices is None:
        return count(plan, chosen)[0], False
    inside = set(chosen)
    outside = [s for s in model.slots if s not in inside]
    exact = len(outside) <= 1 and all(other in inside for s in outside for other, _, _ in plan.slots[s].edges)
    if not model.slots:
        found, found_exact = count(plan, chosen)
        return found, exact and found_exact
    total = 0
    for lengths in choices:
        keep = {
            s: model.classes[i][length]
            for i, (s, length) in enumerate(zip(model.slots, lengths, strict=True))
        }
        found, found_exact = count(restrict_plan(plan, keep), chosen)
        total += found
        exact = exact and found_exact
    return total, exact
