"""Compile one phrase expansion of a template into a plan: slots, candidates and constraints.

A *structure* is the tuple of alternatives chosen for every phrase occurrence (depth-first,
good grammar then the new positions of the bad grammar). For each structure the template
becomes a flat list of slots. A lexical slot holds the vocabulary items that satisfy its own
features; agreement constraints and selectional restrictions (`satisfies:`) link slots. Arc
consistency removes every candidate that has no partner in a linked slot, so sampling in
breadth-first constraint order never meets a dead end on constraint trees: agreement is solved
over indexed candidate sets, not by sample-and-retry. A restriction is evaluated once per
distinct expression text, against the whole vocabulary, and kept as the set of items meeting it.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from generator.inflection import OVERRIDE_PREFIX, inflect
from generator.template import (
    BAD_PREFIX,
    Constraint,
    Deletion,
    Direct,
    Lexical,
    PhraseRef,
    Position,
    Reference,
    Satisfies,
    Template,
)
from vocab.lexicon import Vocabulary
from vocab.restrictions import parse_restriction, satisfying_items

# Base candidates per (features, exclusions, form, exhausted items): item indexes and their words.
CandidateCache = dict[tuple[object, ...], tuple[tuple[int, ...], dict[int, str]]]

# How a slot's word relates to a linked slot's word (the last part of an edge): it agrees or
# disagrees on the edge's features; it satisfies the restriction the other word holds in the
# edge's one column; or it holds, in that column, the restriction the other word satisfies.
Relation = Literal["agree", "disagree", "satisfies", "restricts"]
Edge = tuple[int, tuple[str, ...], Relation]
_CONVERSE: dict[str, Relation] = {
    "agree": "agree",
    "disagree": "disagree",
    "satisfies": "restricts",
    "restricts": "satisfies",
}


def converse(relation: Relation) -> Relation:
    """Return how the other end of an edge relates back (`satisfies` <-> `restricts`)."""
    return _CONVERSE[relation]


# Features whose agreement means "the same word": slots linked by them may repeat an item.
IDENTITY_FEATURES = frozenset({"id", "lemma", "form"})


class PlanError(Exception):
    """A structure cannot be compiled (a reference that does not resolve to a word)."""


@dataclass(slots=True)
class Slot:
    """One terminal position occurrence: a lexical draw or a literal choice."""

    path: str
    grammar: str  # "good" or "bad"
    lexical: bool
    candidates: tuple[int, ...] = ()  # item indexes (lexical)
    words: dict[int, str] = field(default_factory=dict)  # item index -> rendered word
    options: tuple[str, ...] = ()  # literal choices (direct)
    edges: list[Edge] = field(default_factory=list)
    capped: bool = True  # its items count towards options.max_item_reuse
    line: int | None = None
    features: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # the rule's own (lexical)


@dataclass(slots=True)
class Unit:
    """A position occurrence: the slots it spans and, for a phrase, its inner units."""

    path: str
    position: Position
    slots: list[int] = field(default_factory=list)
    children: dict[str, Unit] = field(default_factory=dict)


@dataclass(slots=True)
class BadUnit:
    """A bad-grammar entry: new material (`unit`), a reference to a good unit, or nothing."""

    kind: str  # "new", "ref" or "none"
    unit: Unit | None = None
    good_index: int = -1


@dataclass(slots=True)
class Plan:
    """Everything needed to sample and render pairs for one structure."""

    structure: tuple[int, ...]
    slots: list[Slot]
    good_units: list[Unit]
    bad_units: list[BadUnit]
    order: list[int]  # sampling order (breadth-first over constraints)
    earlier: list[list[Edge]]  # per slot: edges to earlier slots
    good_lexical: list[int]  # lexical slots in the good sentence, for the distinct-word check
    bad_lexical: list[int]
    empty_slot: int | None = None  # a slot left with no candidate: the structure is unusable
    good_layout: list[list[int]] = field(default_factory=list)  # slots of each good unit
    bad_layout: list[tuple[int, list[int]]] = field(default_factory=list)  # (good unit or -1, slots)
    lexical_paths: list[tuple[int, str, str]] = field(default_factory=list)  # (slot, grammar, path)
    capped_slots: list[int] = field(default_factory=list)  # lexical slots under the reuse cap
    _tokens: list[dict[int, tuple[str, ...]]] = field(default_factory=list)
    tokenize: Callable[[str], tuple[str, ...]] | None = None
    partners: list[tuple[int, ...]] = field(default_factory=list)  # per slot: the earlier slots it links to
    _cache: dict[tuple[int, object], tuple[int, ...]] = field(default_factory=dict)
    _value_maps: dict[tuple[int, str], dict[str, frozenset[int]]] = field(default_factory=dict)
    _shared: dict[tuple[object, ...], tuple[int, ...]] = field(default_factory=dict)
    vocabulary: Vocabulary | None = None
    # Agreements in template order: (slot, target slot, features, agree, the target is a good
    # position seen from the bad grammar). `sample_by_values` reads them.
    constraints: list[tuple[int, int, tuple[str, ...], bool, bool]] = field(default_factory=list)
    _value_pools: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[tuple[int, ...], list[int]]] = field(
        default_factory=dict
    )
    _value_sets: dict[tuple[int, str, tuple[tuple[str, str], ...]], set[str]] = field(default_factory=dict)
    # Restriction text -> the vocabulary items satisfying it (None: blank, every item does).
    _satisfying: dict[str, frozenset[int] | None] = field(default_factory=dict)
    # (slot, column) -> restriction text -> the slot's candidates holding it ("" for none).
    _restriction_maps: dict[tuple[int, str], dict[str, frozenset[int]]] = field(default_factory=dict)

    def satisfying(self, text: str) -> frozenset[int] | None:
        """Return the vocabulary items that satisfy a restriction (None: it is blank)."""
        if text not in self._satisfying:
            assert self.vocabulary is not None
            self._satisfying[text] = satisfying_items(parse_restriction(text), self.vocabulary)
        return self._satisfying[text]

    def restriction_map(self, slot_index: int, column: str) -> dict[str, frozenset[int]]:
        """Return restriction text -> candidates of a slot holding it in `column` ("": none)."""
        key = (slot_index, column)
        cached = self._restriction_maps.get(key)
        if cached is None:
            assert self.vocabulary is not None
            items = self.vocabulary.items
            buckets: dict[str, set[int]] = {}
            for c in self.slots[slot_index].candidates:
                for text in items[c].values(column) or ("",):
                    buckets.setdefault(text, set()).add(c)
            cached = {text: frozenset(members) for text, members in buckets.items()}
            self._restriction_maps[key] = cached
        return cached

    def link_signature(self, item: int, features: Sequence[str], relation: Relation) -> tuple[object, ...]:
        """Return what decides which partners `item` has over an edge of its slot: its values of
        the edge's features, or the item itself when it is the one satisfying a restriction."""
        if relation == "satisfies":
            return ("item", item)
        assert self.vocabulary is not None
        entry = self.vocabulary.items[item]
        return tuple(entry.values(f) for f in features)

    def value_map(self, slot_index: int, feature: str) -> dict[str, frozenset[int]]:
        """Return value -> candidates of a slot having that value for `feature`."""
        key = (slot_index, feature)
        cached = self._value_maps.get(key)
        if cached is None:
            assert self.vocabulary is not None
            items = self.vocabulary.items
            buckets: dict[str, set[int]] = {}
            for c in self.slots[slot_index].candidates:
                for v in items[c].values(feature):
                    buckets.setdefault(v, set()).add(c)
            cached = {v: frozenset(s) for v, s in buckets.items()}
            self._value_maps[key] = cached
        return cached

    def compatible(
        self, slot_index: int, partner_item: int, features: Sequence[str], relation: Relation
    ) -> set[int]:
        """Return the candidates of a slot that stand in `relation` (the slot's side of the edge)
        to `partner_item`: agree or disagree with it, satisfy its restriction, or hold one it
        satisfies."""
        assert self.vocabulary is not None
        item = self.vocabulary.items[partner_item]
        if relation == "satisfies":
            restriction = item.values(features[0])
            allowed = self.satisfying(restriction[0]) if restriction else None
            candidates = self.slots[slot_index].candidates
            return set(candidates) if allowed is None else set(allowed.intersection(candidates))
        if relation == "restricts":
            found: set[int] = set()
            for text, holders in self.restriction_map(slot_index, features[0]).items():
                allowed = self.satisfying(text) if text else None
                if allowed is None or partner_item in allowed:
                    found |= holders
            return found
        agree = relation == "agree"
        result: set[int] | None = None
        for feature in features:
            vmap = self.value_map(slot_index, feature)
            matching: set[int] = set()
            for v in item.values(feature):
                bucket = vmap.get(v)
                if bucket:
                    matching |= bucket
            if not agree:
                having: set[int] = set()
                for bucket in vmap.values():
                    having |= bucket
                matching = having - matching
            result = matching if result is None else result & matching
            if not result:
                return set()
        return result if result is not None else set(self.slots[slot_index].candidates)

    def candidates_given(self, slot_index: int, assignment: Sequence[int]) -> tuple[int, ...]:
        """Return the candidates of a slot consistent with the already sampled earlier slots."""
        links = self.earlier[slot_index]
        if not links:
            return self.slots[slot_index].candidates
        partners = self.partners[slot_index]
        key = (
            slot_index,
            assignment[partners[0]] if len(partners) == 1 else tuple(assignment[o] for o in partners),
        )
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        # Compatibility depends only on the partners' feature values, so partners with equal
        # values share one candidate tuple (memory stays bounded by the distinct values).
        signature = (
            slot_index,
            tuple(
                (self.link_signature(assignment[other], features, converse(relation)), relation)
                for other, features, relation in links
            ),
        )
        found = self._shared.get(signature)
        if found is None:
            result: set[int] | None = None
            for other, features, relation in links:
                allowed = self.compatible(slot_index, assignment[other], features, relation)
                result = allowed if result is None else result & allowed
                if not result:
                    break
            found = tuple(sorted(result or ()))
            self._shared[signature] = found
        if len(self._cache) > 200_000:
            self._cache.clear()
        self._cache[key] = found
        return found

    def sample(self, rng: random.Random) -> list[int] | None:
        """Return one value per slot (item index or option index), or None at a dead end."""
        assignment = [-1] * len(self.slots)
        slots = self.slots
        for index in self.order:
            slot = slots[index]
            if slot.lexical:
                pool = self.candidates_given(index, assignment)
                if not pool:
                    return None
                assignment[index] = pool[int(rng.random() * len(pool))]
            else:
                assignment[index] = int(rng.random() * len(slot.options))
        return assignment

    def sample_by_values(self, rng: random.Random) -> list[int] | None:
        """Return one value per slot the way ZhoBLiMP's generator draws (`sampling: zhoblimp`).

        Each agreement, in template order, first draws a feature value: for Matched one of the
        values both positions' candidates have, for Mismatched a value of the target and another
        of its values for this position; both positions then keep only the candidates with their
        value. A bad-grammar agreement with a good position reads that position's candidates
        (as fixed by the good grammar's agreements), not the word drawn there, and leaves them
        as they are. Each word is then drawn with the weight ZhoBLiMP's exploded vocabulary
        gives it (`row_weight`), among the words meeting the selectional restrictions (`satisfies`)
        that link it to words drawn before it. Returns None at a dead end (no shared or other
        value, or no word meeting a restriction).
        """
        slots = self.slots
        fixed: dict[int, dict[str, str]] = {}
        # Values the bad grammar's agreements fix on a good position: ZhoBLiMP writes them into
        # its copy of the good rule, which later bad agreements read; the good word stays.
        bad_view: dict[int, dict[str, str]] = {}
        for here, target, features, agree, frozen_target in self.constraints:
            for feature in features:
                seen = (
                    {**fixed.get(target, {}), **bad_view.get(target, {})}
                    if frozen_target
                    else fixed.get(target, {})
                )
                theirs = self._values(target, feature, seen)
                if agree:
                    # ZhoBLiMP draws a word's expression from the target's alone, another
                    # feature's value from those both rules have.
                    if feature not in IDENTITY_FEATURES:
                        theirs &= self._values(here, feature, fixed.get(here, {}))
                    values = sorted(theirs)
                    if not values:
                        return None
                    value = new_value = values[int(rng.random() * len(values))]
                else:
                    already = seen.get(feature)
                    if already is not None:
                        # As ZhoBLiMP: the value fixed there is set aside; the target's other
                        # fixed values still select the words whose values this one may take.
                        others_fixed = {f: v for f, v in seen.items() if f != feature}
                        theirs = self._values(target, feature, others_fixed)
                    values = sorted(theirs)
                    if already is None:
                        if not values:
                            return None
                        already = values[int(rng.random() * len(values))]
                    others = [v for v in values if v != already]
                    if not others:
                        return None
                    value, new_value = already, others[int(rng.random() * len(others))]
                fixed.setdefault(here, {})[feature] = new_value
                if not self._pool(here, fixed[here])[0]:
                    return None
                if frozen_target:
                    bad_view.setdefault(target, {})[feature] = value
                else:
                    fixed.setdefault(target, {})[feature] = value
                    if not self._pool(target, fixed[target])[0]:
                        return None
        assignment = [-1] * len(slots)
        for index, slot in enumerate(slots):
            if not slot.lexical:
                assignment[index] = int(rng.random() * len(slot.options))
                continue
            pool, cumulative = self._pool(index, fixed.get(index))
            restrictions = [e for e in slot.edges if e[2] in ("satisfies", "restricts") and e[0] < index]
            if restrictions and pool:
                pool, cumulative = self._restricted(index, pool, cumulative, restrictions, assignment)
            if not pool:
                return None
            assignment[index] = pool[bisect.bisect_right(cumulative, rng.random() * cumulative[-1])]
        return assignment

    def _restricted(
        self,
        slot_index: int,
        pool: tuple[int, ...],
        cumulative: list[int],
        restrictions: Sequence[Edge],
        assignment: Sequence[int],
    ) -> tuple[tuple[int, ...], list[int]]:
        """Return the part of a weighted pool that meets the selectional restrictions linking the
        slot to words already drawn, with its cumulative weights."""
        allowed: set[int] | None = None
        for other, features, relation in restrictions:
            found = self.compatible(slot_index, assignment[other], features, relation)
            allowed = found if allowed is None else allowed & found
        kept = [i for i, c in enumerate(pool) if allowed is None or c in allowed]
        weights = [cumulative[i] - (cumulative[i - 1] if i else 0) for i in kept]
        return tuple(pool[i] for i in kept), list(itertools.accumulate(weights))

    def _values(self, slot_index: int, feature: str, fixed: Mapping[str, str]) -> set[str]:
        """Return the values of `feature` a slot's rule allows, given its fixed values: the fixed
        one itself, or those of its candidates (ZhoBLiMP's `get_values` on the filtered rows)."""
        if feature in fixed:
            return {fixed[feature]}
        key = (slot_index, feature, tuple(sorted(fixed.items())))
        found = self._value_sets.get(key)
        if found is None:
            assert self.vocabulary is not None
            items = self.vocabulary.items
            found = {v for c in self._pool(slot_index, fixed)[0] for v in items[c].values(feature)}
            accepted = self.slots[slot_index].features.get(feature)
            if accepted is not None:  # ZhoBLiMP's rows keep only the values the rule names
                found &= set(accepted)
            self._value_sets[key] = found
        return set(found)

    def _pool(self, slot_index: int, fixed: Mapping[str, str] | None) -> tuple[tuple[int, ...], list[int]]:
        """Return a slot's candidates having the `fixed` feature values, with cumulative weights."""
        key = (slot_index, tuple(sorted(fixed.items())) if fixed else ())
        found = self._value_pools.get(key)
        if found is None:
            assert self.vocabulary is not None
            items = self.vocabulary.items
            slot = self.slots[slot_index]
            chosen = dict(slot.features)
            for feature, value in key[1]:
                chosen[feature] = (value,)
            pool = tuple(
                c for c in slot.candidates if all(value in items[c].values(f) for f, value in key[1])
            )
            cumulative = list(itertools.accumulate(row_weight(items[c].features, chosen) for c in pool))
            found = (pool, cumulative)
            self._value_pools[key] = found
        return found

    def tokens(self, slot_index: int, value: int) -> tuple[str, ...]:
        """Return the word tokens a slot shows for its sampled value (cached)."""
        cache = self._tokens[slot_index]
        found = cache.get(value)
        if found is None:
            assert self.tokenize is not None
            found = self.tokenize(self.word(slot_index, value))
            cache[value] = found
        return found

    def word(self, slot_index: int, value: int) -> str:
        """Return the text a slot shows for its sampled value."""
        slot = self.slots[slot_index]
        return slot.words[value] if slot.lexical else slot.options[value]


class _Scope:
    """Names visible at one level: a grammar's top units or a phrase alternative's units."""

    def __init__(self, units: dict[str, Unit], parent: _Scope | None) -> None:
        self.units = units
        self.parent = parent

    def lookup(self, name: str) -> Unit | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.units:
                return scope.units[name]
            scope = scope.parent
        return None


def phrase_needs(template: Template) -> dict[str, float]:
    """Return, per phrase, the least nesting depth at which it can finish (inf: never)."""
    need: dict[str, float] = {name: float("inf") for name in template.phrases}
    changed = True
    while changed:
        changed = False
        for name, phrase in template.phrases.items():
            best = min((alternative_need(alt, need) for alt in phrase.alternatives), default=float("inf"))
            if best < need[name]:
                need[name] = best
                changed = True
    return need


def alternative_need(alternative: Sequence[Position], need: Mapping[str, float]) -> float:
    """Return the depth an alternative needs: 1 plus the deepest phrase inside it."""
    deepest = 0.0
    for position in alternative:
        if isinstance(position.rule, PhraseRef):
            deepest = max(deepest, need.get(position.rule.name, float("inf")))
    return 1 + deepest


def _new_bad_positions(template: Template) -> list[Position]:
    return [p for p in template.bad if not isinstance(p.rule, Reference | Deletion)]


def choose_structure(template: Template, need: Mapping[str, float], rng: random.Random) -> tuple[int, ...]:
    """Return a random structure: one alternative per phrase occurrence, within max_depth."""
    if not template.phrases:
        return ()
    choices: list[int] = []
    max_depth = template.options.max_depth

    def walk(positions: Sequence[Position], depth: int) -> None:
        for position in positions:
            rule = position.rule
            if isinstance(rule, PhraseRef):
                alts = template.phrases[rule.name].alternatives
                room = max_depth - depth
                allowed = [i for i, alt in enumerate(alts) if alternative_need(alt, need) <= room]
                pick = allowed[int(rng.random() * len(allowed))]
                choices.append(pick)
                walk(alts[pick], depth + 1)

    walk(template.good, 0)
    walk(_new_bad_positions(template), 0)
    return tuple(choices)


def enumerate_structures(
    template: Template, need: Mapping[str, float], limit: int
) -> Iterator[tuple[int, ...]]:
    """Yield every structure (up to `limit` of them) in a fixed order."""
    max_depth = template.options.max_depth
    top = list(template.good) + _new_bad_positions(template)
    produced = 0

    def expand(pending: list[tuple[Position, int]], prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        nonlocal produced
        if produced >= limit:
            return
        # Skip to the next phrase occurrence.
        index = 0
        while index < len(pending) and not isinstance(pending[index][0].rule, PhraseRef):
            index += 1
        if index == len(pending):
            produced += 1
            yield prefix
            return
        position, depth = pending[index]
        assert isinstance(position.rule, PhraseRef)
        alts = template.phrases[position.rule.name].alternatives
        for i, alt in enumerate(alts):
            if alternative_need(alt, need) > max_depth - depth:
                continue
            inner = [(p, depth + 1) for p in alt]
            yield from expand(inner + pending[index + 1 :], (*prefix, i))
            if produced >= limit:
                return

    yield from expand([(p, 0) for p in top], ())


class _Builder:
    """Builds the slots and units of one structure."""

    def __init__(
        self,
        template: Template,
        vocabulary: Vocabulary,
        candidate_cache: CandidateCache,
        structure: tuple[int, ...],
        exhausted: frozenset[int],
    ) -> None:
        self.template = template
        self.vocabulary = vocabulary
        self.cache = candidate_cache
        self.choices = iter(structure)
        self.slots: list[Slot] = []
        self.pending: list[tuple[int, Constraint | Satisfies, _Scope, bool]] = []
        self.exhausted = exhausted

    def base_candidates(
        self,
        features: Mapping[str, tuple[str, ...]],
        exclude: Mapping[str, tuple[str, ...]],
        form: str | None,
        capped: bool = True,
    ) -> tuple[tuple[int, ...], dict[int, str]]:
        removed = self.exhausted if capped else frozenset()
        key = (tuple(sorted(features.items())), tuple(sorted(exclude.items())), form, removed)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        vocab = self.vocabulary
        selected: set[int] | None = None
        for feature, values in features.items():
            index = vocab.index(feature)
            matching: set[int] = set()
            for value in values:
                matching.update(index.get(value, ()))
            selected = matching if selected is None else selected & matching
        if selected is None:
            selected = set(range(len(vocab)))
        for feature, values in exclude.items():
            index = vocab.index(feature)
            for value in values:
                selected.difference_update(index.get(value, ()))
        selected -= removed
        words: dict[int, str] = {}
        for i in sorted(selected):
            item = vocab.items[i]
            if form is None:
                words[i] = item.form
                continue
            override = item.values(OVERRIDE_PREFIX + form)
            word = override[0] if override else inflect(item.lemma, form)
            if word is not None:
                words[i] = word
        result = (tuple(words), words)
        self.cache[key] = result
        return result

    def lexical_slot(
        self,
        path: str,
        grammar: str,
        rule: Lexical,
        extra: Mapping[str, tuple[str, ...]],
        scope: _Scope,
        line: int | None,
    ) -> int:
        features = dict(rule.features)
        for feature, values in extra.items():
            if feature in features:
                features[feature] = tuple(v for v in features[feature] if v in values)
            else:
                features[feature] = values
        candidates, words = self.base_candidates(features, rule.exclude, rule.form, rule.capped)
        index = len(self.slots)
        self.slots.append(
            Slot(path, grammar, True, candidates, words, line=line, capped=rule.capped, features=features)
        )
        links: tuple[Constraint | Satisfies, ...] = (*rule.constraints, *rule.satisfies)
        for link in links:
            self.pending.append((index, link, scope, grammar == "bad"))
        return index

    def build(
        self, position: Position, path: str, grammar: str, scope: _Scope, extra: Mapping[str, tuple[str, ...]]
    ) -> Unit:
        unit = Unit(path, position)
        rule = position.rule
        if isinstance(rule, Lexical):
            unit.slots.append(self.lexical_slot(path, grammar, rule, extra, scope, position.line))
        elif isinstance(rule, Direct):
            unit.slots.append(len(self.slots))
            self.slots.append(Slot(path, grammar, False, options=rule.options, line=position.line))
        elif isinstance(rule, PhraseRef):
            alternative = self.template.phrases[rule.name].alternatives[next(self.choices)]
            inner = _Scope({}, scope)
            for child_position in alternative:
                child = self.build(
                    child_position,
                    f"{path}.{child_position.id}",
                    grammar,
                    inner,
                    rule.where.get(child_position.id, {}),
                )
                inner.units[child_position.id] = child
                unit.slots.extend(child.slots)
            unit.children = inner.units
        return unit

    def resolve(self, target: str, scope: _Scope, bad_scope: _Scope | None) -> Unit:
        parts = target.split(".")
        if target.startswith(BAD_PREFIX) and bad_scope is not None:
            parts = parts[1:]
            unit = bad_scope.units.get(parts[0])
        else:
            unit = scope.lookup(parts[0])
        for part in parts[1:]:
            if unit is None:
                break
            unit = unit.children.get(part)
        if unit is None:
            raise PlanError(f"'{target}' names no position")
        return unit


def compile_plan(
    template: Template,
    vocabulary: Vocabulary,
    structure: tuple[int, ...],
    candidate_cache: CandidateCache,
    exhausted: frozenset[int] = frozenset(),
    tokenize: Callable[[str], tuple[str, ...]] | None = None,
) -> Plan:
    """Return the plan of one structure, with arc-consistent candidate sets.

    Raises:
        PlanError: if a reference does not resolve to a lexical position.
    """
    builder = _Builder(template, vocabulary, candidate_cache, structure, exhausted)
    good_scope = _Scope({}, None)
    good_units: list[Unit] = []
    for position in template.good:
        unit = builder.build(position, position.id, "good", good_scope, {})
        good_scope.units[position.id] = unit
        good_units.append(unit)
    # New bad positions see the good grammar's names; `bad.<id>` names a bad position.
    bad_scope = _Scope({}, None)
    bad_top = _Scope(good_scope.units, None)
    good_index = {p.id: i for i, p in enumerate(template.good)}
    bad_units: list[BadUnit] = []
    for position in template.bad:
        rule = position.rule
        if isinstance(rule, Deletion):
            bad_units.append(BadUnit("none"))
        elif isinstance(rule, Reference):
            target = good_index[rule.target]
            if rule.form is None:
                bad_units.append(BadUnit("ref", good_index=target))
                bad_scope.units[position.id] = good_units[target]
            else:
                # A re-inflected reference is a new slot bound to the same item as the good one.
                alias = Lexical({}, {}, rule.form, (Constraint(rule.target, ("id",), True),))
                unit = Unit(f"bad.{position.id}", position)
                unit.slots.append(builder.lexical_slot(unit.path, "bad", alias, {}, bad_top, position.line))
                bad_units.append(BadUnit("new", unit=unit, good_index=target))
                bad_scope.units[position.id] = unit
        else:
            unit = builder.build(position, f"bad.{position.id}", "bad", bad_top, {})
            bad_units.append(BadUnit("new", unit=unit))
            bad_scope.units[position.id] = unit
    slots = builder.slots
    constraints: list[tuple[int, int, tuple[str, ...], bool, bool]] = []
    by_values = template.options.sampling == "zhoblimp"
    for index, constraint, scope, in_bad in builder.pending:
        unit = builder.resolve(constraint.target, scope, bad_scope if in_bad else None)
        if len(unit.slots) != 1 or not slots[unit.slots[0]].lexical:
            raise PlanError(f"'{constraint.target}' is not a single lexical position")
        other = unit.slots[0]
        if other == index:
            raise PlanError(f"'{constraint.target}' refers to the position itself")
        if isinstance(constraint, Satisfies):
            slots[index].edges.append((other, (constraint.column,), "satisfies"))
            slots[other].edges.append((index, (constraint.column,), "restricts"))
            continue
        frozen = in_bad and slots[other].grammar == "good"
        constraints.append((index, other, constraint.features, constraint.agree, frozen))
        if frozen and by_values:
            # ZhoBLiMP agrees with the good rule, not its word: no good candidate is pruned for it.
            continue
        relation: Relation = "agree" if constraint.agree else "disagree"
        slots[index].edges.append((other, constraint.features, relation))
        slots[other].edges.append((index, constraint.features, relation))
    plan = Plan(structure, slots, good_units, bad_units, [], [], [], [], vocabulary=vocabulary)
    plan.constraints = constraints
    plan.empty_slot = _arc_consistency(plan)
    plan.order, plan.earlier = _sampling_order(slots)
    plan.partners = [tuple(other for other, _, _ in links) for links in plan.earlier]
    group = _identity_groups(slots)
    good_slot_ids = [s for u in good_units for s in u.slots]
    plan.good_lexical = _one_per_group([s for s in good_slot_ids if slots[s].lexical], group)
    bad_ids: list[int] = []
    for bad_unit in bad_units:
        if bad_unit.kind == "ref":
            bad_ids.extend(good_units[bad_unit.good_index].slots)
        elif bad_unit.kind == "new" and bad_unit.unit is not None:
            bad_ids.extend(bad_unit.unit.slots)
    plan.bad_lexical = _one_per_group(sorted({s for s in bad_ids if slots[s].lexical}), group)
    plan.good_layout = [unit.slots for unit in good_units]
    plan.bad_layout = [
        (b.good_index if b.kind == "ref" else -1, b.unit.slots if b.unit else []) for b in bad_units
    ]
    plan.capped_slots = [i for i, slot in enumerate(slots) if slot.lexical and slot.capped]
    plan.lexical_paths = [(i, slot.grammar, slot.path) for i, slot in enumerate(slots) if slot.lexical]
    plan._tokens = [{} for _ in slots]
    plan.tokenize = tokenize or (lambda text: tuple(text.split()))
    return plan


def row_weight(features: Mapping[str, tuple[str, ...]], chosen: Mapping[str, tuple[str, ...]]) -> int:
    """Return how many rows ZhoBLiMP's vocabulary makes of an item that a rule selects.

    ZhoBLiMP splits every cell on "/" and makes one row per combination of values; a rule keeps
    the rows whose values it accepts, and a word is drawn from the rows, so its chance grows
    with the product, over its features, of the number of its values the rule accepts (a
    feature the rule names) or of all its values (a feature it does not name).
    """
    weight = 1
    for feature, values in features.items():
        accepted = chosen.get(feature)
        weight *= len(values) if accepted is None else sum(v in accepted for v in values)
    return weight


def _identity_groups(slots: Sequence[Slot]) -> list[int]:
    """Return, per slot, the smallest slot index of the group of slots agreeing on id/lemma/form.

    Slots of one group show the same word by design; the repeated-word check compares groups.
    """
    group = list(range(len(slots)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for index, slot in enumerate(slots):
        for other, features, relation in slot.edges:
            if relation == "agree" and IDENTITY_FEATURES.intersection(features):
                a, b = root(index), root(other)
                group[max(a, b)] = min(a, b)
    return [root(i) for i in range(len(slots))]


def _one_per_group(lexical: Sequence[int], group: Sequence[int]) -> list[int]:
    """Return the lexical slots of one sentence, keeping the first slot of each identity group."""
    seen: set[int] = set()
    kept = []
    for s in lexical:
        if group[s] not in seen:
            seen.add(group[s])
            kept.append(s)
    return kept


def _arc_consistency(plan: Plan) -> int | None:
    """Prune candidates without a partner in each linked slot; return a slot left empty, if any."""
    slots = plan.slots
    queue = [(i, j, f, a) for i, s in enumerate(slots) for (j, f, a) in s.edges]
    while queue:
        index, other, features, relation = queue.pop()
        slot = slots[index]
        if not slot.candidates:
            return index
        supported: dict[tuple[object, ...], bool] = {}
        kept: list[int] = []
        for candidate in slot.candidates:
            signature = plan.link_signature(candidate, features, relation)
            ok = supported.get(signature)
            if ok is None:
                ok = bool(plan.compatible(other, candidate, features, converse(relation)))
                supported[signature] = ok
            if ok:
                kept.append(candidate)
        if len(kept) != len(slot.candidates):
            slot.candidates = tuple(kept)
            plan._value_maps = {k: v for k, v in plan._value_maps.items() if k[0] != index}
            plan._value_pools.clear()
            plan._value_sets.clear()
            plan._restriction_maps = {k: v for k, v in plan._restriction_maps.items() if k[0] != index}
            plan._cache.clear()
            plan._shared.clear()
            if not kept:
                return index
            queue.extend((j, index, f, a) for (j, f, a) in slot.edges)
    return None


def _sampling_order(slots: list[Slot]) -> tuple[list[int], list[list[Edge]]]:
    """Return a breadth-first order over the constraint graph and each slot's earlier links."""
    order: list[int] = []
    placed = [False] * len(slots)
    for start in range(len(slots)):
        if placed[start]:
            continue
        placed[start] = True
        queue = [start]
        while queue:
            current = queue.pop(0)
            order.append(current)
            for other, _, _ in slots[current].edges:
                if not placed[other]:
                    placed[other] = True
                    queue.append(other)
    rank = {slot: i for i, slot in enumerate(order)}
    earlier = [[(o, f, a) for (o, f, a) in slots[i].edges if rank[o] < rank[i]] for i in range(len(slots))]
    return order, earlier


def restrict_plan(plan: Plan, keep: Mapping[int, Collection[int]]) -> Plan:
    """Return a copy of the plan in which each slot of `keep` holds only the given values (item
    indexes of a lexical slot, option indexes of a literal one), made arc-consistent again.

    The copy is for counting: a literal slot's kept options are renumbered from 0.
    """
    slots = []
    for index, slot in enumerate(plan.slots):
        values = keep.get(index)
        if values is None:
            slots.append(dataclasses.replace(slot))
        elif slot.lexical:
            slots.append(
                dataclasses.replace(slot, candidates=tuple(c for c in slot.candidates if c in values))
            )
        else:
            options = tuple(option for k, option in enumerate(slot.options) if k in values)
            slots.append(dataclasses.replace(slot, options=options))
    copy = dataclasses.replace(
        plan,
        slots=slots,
        _tokens=[{} for _ in slots],
        _cache={},
        _value_maps={},
        _shared={},
        _value_pools={},
        _restriction_maps={},
    )
    copy.empty_slot = plan.empty_slot if plan.empty_slot is not None else _arc_consistency(copy)
    return copy
