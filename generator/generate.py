"""Generate unique, reproducible minimal pairs from a validated template and its vocabulary."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import orjson

from generator import GENERATOR_VERSION
from generator import errors as E
from generator.capacity import Capacity, count_balanced, count_plan, count_without_repeats, policy_slots
from generator.critical_region import Edit, SideSpan, narrow_substitution, span_of, template_edits
from generator.equal_length import length_model, sentence_length
from generator.errors import GenerationError, Problem, TemplateError
from generator.language import language_rules
from generator.plan import (
    IDENTITY_FEATURES,
    CandidateCache,
    Plan,
    Unit,
    choose_structure,
    compile_plan,
    enumerate_structures,
    phrase_needs,
)
from generator.seen import DigestSet
from generator.template import Direct, Lexical, Position, Template, problems_keyed
from generator.validate import validate
from vocab.lexicon import Vocabulary

CAPACITY_STRUCTURES = 500
CAPACITY_CACHE_SIZE = 1024
_CAPACITY_CACHE: dict[tuple[str, str, str], Capacity] = {}
MIN_ATTEMPTS = 2_000

REJECTION_WORDS = {
    "dead_end": "the constraints left no word for some position",
    "repeated_word": "a word appeared twice in one sentence",
    "identical": "the good and bad sentences came out the same",
    "duplicate": "the sentence had already been made",
    "reuse_cap": "a word had reached options.max_item_reuse",
    "unequal_length": "the good and bad sentences differed in length (options.equal_length)",
}


@dataclass(frozen=True, slots=True)
class Pair:
    """One generated minimal pair with its critical region and provenance."""

    index: int
    item_id: str
    good: str
    bad: str
    words_good: tuple[str, ...]
    words_bad: tuple[str, ...]
    critical_region: tuple[tuple[Edit, SideSpan, SideSpan, SideSpan | None], ...]
    fillers: dict[str, dict[str, str]]
    structure: tuple[int, ...]

    def edit_types(self) -> list[str]:
        """Return the edit type of each critical-region part."""
        return [edit.type for edit, _, _, _ in self.critical_region]


@dataclass(slots=True)
class GenerationStats:
    """What happened during one generation run."""

    produced: int = 0
    attempts: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    # With `as_many_as_possible`: why the run stopped before `n` (the E_SHORTFALL it would raise).
    short: Problem | None = None


@lru_cache(maxsize=1024)
def _as_type(edit: Edit, edit_type: str) -> Edit:
    """Return the edit with another type (a narrowed substitution that left one side empty)."""
    return dataclasses.replace(edit, type=edit_type)


def _repeat_allowed(position: Position) -> bool:
    """Return whether ZhoBLiMP lets this position's word occur again: a literal, or a word
    matched on its expression."""
    rule = position.rule
    if isinstance(rule, Direct):
        return True
    if isinstance(rule, Lexical):
        return "form" in rule.features or any(
            c.agree and IDENTITY_FEATURES.intersection(c.features) for c in rule.constraints
        )
    return False


def repeats_zhoblimp_word(plan: Plan, units: Sequence[Unit], values: Sequence[int]) -> bool:
    """Return whether a sentence breaks ZhoBLiMP's repeated-word rule (`sampling: zhoblimp`).

    ZhoBLiMP compares the text of the positions of one grammar or phrase alternative, a phrase
    counted as its whole text: a position whose text occurred before is refused unless it is a
    literal or matched on its expression; the texts of literals count as occurred. Each phrase's
    own positions are checked the same way. Only the good sentence is checked, as ZhoBLiMP does.
    """
    seen: set[str] = set()
    for unit in units:
        text = "".join(plan.word(s, values[s]) for s in unit.slots)
        # A phrase whose chosen alternative is one position is that position: ZhoBLiMP's
        # `A | B` cell (our `p<k>_choices` phrase) is judged by the rule it drew.
        chosen = next(iter(unit.children.values())) if len(unit.children) == 1 else unit
        if text in seen and not _repeat_allowed(chosen.position):
            return True
        seen.add(text)
        if unit.children and repeats_zhoblimp_word(plan, list(unit.children.values()), values):
            return True
    return False


def derive_seed(seed: int, uid: str) -> str:
    """Return the per-paradigm seed: a paradigm's pairs do not depend on which others run."""
    return f"{seed}:{uid}"


class Generator:
    """Holds a validated template and vocabulary and makes pairs from them.

    Raises (on construction):
        TemplateError: with every problem `validate` finds.
    """

    def __init__(self, template: Template, vocabulary: Vocabulary) -> None:
        normalized, problems = validate(template, vocabulary)
        if problems:
            raise TemplateError(problems_keyed(problems, template.key_lines))
        self.template = normalized
        self.vocabulary = vocabulary
        self.language = language_rules(normalized.language)
        self.capitalize = (
            normalized.options.capitalize
            if normalized.options.capitalize is not None
            else self.language.capitalize_default
        )
        self.edits, _ = template_edits(normalized)
        self.need = phrase_needs(normalized)
        self._plans: dict[tuple[int, ...], Plan] = {}
        self._candidate_cache: CandidateCache = {}
        self._exhausted: frozenset[int] = frozenset()
        # One integer per distinct (lemma, POS): the repeated-word check compares these.
        words: dict[tuple[str, str], int] = {}
        self._word_ids = [words.setdefault((i.lemma, i.pos), len(words)) for i in vocabulary.items]
        self._zhoblimp = normalized.options.sampling == "zhoblimp"
        # ZhoBLiMP's own repeated-word rule replaces ours under its sampling.
        self._distinct_words = normalized.options.distinct_words and not self._zhoblimp
        self.good_ids = [p.id for p in normalized.good]
        self.bad_ids = [p.id for p in normalized.bad]

    # -- plans -------------------------------------------------------------------------------
    def plan(self, structure: tuple[int, ...]) -> Plan:
        """Return the compiled plan of a structure (cached)."""
        plan = self._plans.get(structure)
        if plan is None:
            plan = compile_plan(
                self.template,
                self.vocabulary,
                structure,
                self._candidate_cache,
                self._exhausted,
                self.language.tokenize,
            )
            self._plans[structure] = plan
        return plan

    def _exhaust(self, items: set[int]) -> None:
        self._exhausted = self._exhausted | items
        self._plans.clear()
        self._candidate_cache.clear()

    def _restore_items(self) -> None:
        """Make every item usable again: the reuse cap counts within one run of `pairs` only."""
        if self._exhausted:
            self._exhausted = frozenset()
            self._plans.clear()
            self._candidate_cache.clear()

    def capacity(self, unique: str | None = None) -> Capacity:
        """Return how many distinct results (per the uniqueness policy) the template can yield."""
        policy = unique or self.template.options.unique
        # Counting can take seconds, and the platform checks the same template text against the
        # same vocabulary many times (library import, project import, each dataset): the template
        # hash (phrases and options included) and the vocabulary version decide the count.
        key = (self.template.content_hash, self.vocabulary.version, policy)
        known = _CAPACITY_CACHE.get(key)
        if known is None:
            known = self._count_capacity(policy)
            if not self._exhausted:
                if len(_CAPACITY_CACHE) >= CAPACITY_CACHE_SIZE:
                    _CAPACITY_CACHE.pop(next(iter(_CAPACITY_CACHE)))
                _CAPACITY_CACHE[key] = known
        return known

    def _count_capacity(self, policy: str) -> Capacity:
        total = 0
        exact = True
        structures = 0
        for structure in enumerate_structures(self.template, self.need, CAPACITY_STRUCTURES + 1):
            structures += 1
            if structures > CAPACITY_STRUCTURES:
                return Capacity(total, False, False, CAPACITY_STRUCTURES)
            plan = self.plan(structure)
            chosen = policy_slots(plan, policy)
            mode = self.template.options.equal_length
            if mode is None or plan.empty_slot is not None:
                count, plan_exact = self._count_plan(plan, chosen)
            else:
                model = length_model(plan, mode, self.language, self.capitalize)
                count, plan_exact = count_balanced(plan, chosen, model, self._count_plan)
            total += count
            exact = exact and plan_exact
        return Capacity(total, exact and structures == 1, True, structures)

    def _count_plan(self, plan: Plan, chosen: Sequence[int]) -> tuple[int, bool]:
        """Return (distinct assignments of the chosen slots, exact?), the repeated-word rule
        applied."""
        count, exact = count_plan(plan, chosen)
        if count and self._repeats_possible(plan):
            without = count_without_repeats(plan, chosen, (plan.good_lexical, plan.bad_lexical))
            if without is None:
                exact = False
            else:
                count = without
        return count, exact

    def _any_structure_usable(self) -> bool:
        """Return whether some structure still has a word for every slot (after the reuse cap)."""
        for structure in enumerate_structures(self.template, self.need, CAPACITY_STRUCTURES):
            if self.plan(structure).empty_slot is None:
                return True
        return False

    def _repeats_possible(self, plan: Plan) -> bool:
        """Return whether the repeated-word rule can remove combinations the count includes."""
        if not self._distinct_words:
            return False
        items = self.vocabulary.items
        for lexical in (plan.good_lexical, plan.bad_lexical):
            seen: set[tuple[str, str]] = set()
            for s in lexical:
                lemmas = {(items[c].lemma, items[c].pos) for c in plan.slots[s].candidates}
                if seen & lemmas:
                    return True
                seen |= lemmas
        return False

    # -- generation --------------------------------------------------------------------------
    def pairs(
        self,
        n: int,
        seed: int,
        *,
        unique: str | None = None,
        stats: GenerationStats | None = None,
        as_many_as_possible: bool = False,
    ) -> Iterator[Pair]:
        """Yield `n` unique pairs, reproducibly for a seed.

        With `as_many_as_possible`, a template that cannot make `n` yields as many as it can
        (at most its capacity) and stops; `stats.short` then says why, as the error would.

        Raises:
            GenerationError: E_SHORTFALL if the template cannot yield `n` unique pairs (only
                without `as_many_as_possible`).
        """
        # A run that reached the reuse cap removed the capped items from the plans; the next run
        # starts from the full vocabulary, so the same seed always gives the same pairs.
        self._restore_items()
        run_stats = stats if stats is not None else GenerationStats()
        try:
            yield from self._run(n, seed, unique, run_stats, as_many_as_possible)
        except GenerationError as exc:
            if not as_many_as_possible or exc.problem.code != E.E_SHORTFALL:
                raise
            run_stats.short = exc.problem
        finally:
            self._restore_items()

    def _run(
        self, n: int, seed: int, unique: str | None, stats: GenerationStats, as_many_as_possible: bool
    ) -> Iterator[Pair]:
        template = self.template
        policy = unique or template.options.unique
        name = Path(template.file).name if template.file else template.uid
        capacity = self.capacity(policy)
        target = n
        if capacity.complete and capacity.count < n:
            beyond = Problem(
                E.E_SHORTFALL,
                f"{template.uid} can make at most {capacity.count:,} different "
                f"{'pairs' if policy == 'pair' else policy + ' sentences'} with vocabulary "
                f"'{self.vocabulary.name}'{self._length_note()}, but {n:,} were asked for: add words "
                "to the vocabulary, loosen the constraints, or ask for fewer",
                name,
            )
            if not as_many_as_possible or capacity.count == 0:
                raise GenerationError(beyond)
            # Try for every pair the template can make; the run then ends with this problem,
            # after the pairs, which the caller keeps.
            target = capacity.count
        else:
            beyond = None
        yield from self._sample(target, n, seed, policy, name, stats)
        if beyond is not None:
            raise GenerationError(beyond)

    def _sample(
        self, n: int, asked: int, seed: int, policy: str, name: str, stats: GenerationStats
    ) -> Iterator[Pair]:
        """Yield `n` unique pairs (`asked` is the number asked for, more when the capacity is
        lower), or raise the E_SHORTFALL of a run whose tries ran out."""
        template = self.template
        rng = random.Random(derive_seed(seed, template.uid))
        budget = max(MIN_ATTEMPTS, n * template.options.attempts_per_pair)
        seen = DigestSet()
        uses: Counter[int] = Counter()
        cap = template.options.max_item_reuse
        id_prefix = f"{template.uid}:{template.content_hash}:{self.vocabulary.version}:{seed}:"
        while stats.produced < n:
            if stats.attempts >= budget:
                raise GenerationError(self._shortfall(name, asked, stats))
            stats.attempts += 1
            structure = choose_structure(template, self.need, rng)
            plan = self.plan(structure)
            if plan.empty_slot is not None:
                stats.rejected["reuse_cap" if self._exhausted else "dead_end"] += 1
                continue
            values = plan.sample_by_values(rng) if self._zhoblimp else plan.sample(rng)
            if values is None:
                stats.rejected["reuse_cap" if self._exhausted else "dead_end"] += 1
                continue
            reason, pair = self._make(plan, values, stats.produced, id_prefix)
            if pair is None:
                stats.rejected[reason] += 1
                continue
            key = (
                pair.good
                if policy == "good"
                else pair.bad
                if policy == "bad"
                else pair.good + "\x00" + pair.bad
            )
            digest = DigestSet.digest(key)
            if digest in seen:
                stats.rejected["duplicate"] += 1
                continue
            if cap is not None:
                used = {values[s] for s in plan.capped_slots}
                full = {item for item in used if uses[item] >= cap}
                if full:
                    stats.rejected["reuse_cap"] += 1
                    self._exhaust(full)
                    if not self._any_structure_usable():
                        raise GenerationError(self._shortfall(name, asked, stats))
                    continue
                uses.update(used)
            seen.add(digest)
            stats.produced += 1
            yield pair

    def _length_note(self) -> str:
        """Return what options.equal_length keeps out of the count, in words, or ''."""
        mode = self.template.options.equal_length
        if mode is None:
            return ""
        return (
            f" (counting only pairs whose two sentences have the same number of {mode}: options.equal_length)"
        )

    def _shortfall(self, name: str, n: int, stats: GenerationStats) -> Problem:
        reasons = ", ".join(f"{REJECTION_WORDS[r]} ({c:,} times)" for r, c in stats.rejected.most_common(3))
        return Problem(
            E.E_SHORTFALL,
            f"made only {stats.produced:,} of {n:,} unique pairs for "
            f"{self.template.uid} in {stats.attempts:,} tries; tries failed because {reasons}. "
            "Add words to the vocabulary or loosen the constraints",
            name,
        )

    def _make(self, plan: Plan, values: list[int], index: int, id_prefix: str) -> tuple[str, Pair | None]:
        """Return ("", pair) for a valid sample, or (rejection reason, None)."""
        items = self.vocabulary.items
        if self._distinct_words:
            word_ids = self._word_ids
            for lexical in (plan.good_lexical, plan.bad_lexical):
                if len(lexical) > 1 and len({word_ids[values[s]] for s in lexical}) < len(lexical):
                    return "repeated_word", None
        if self._zhoblimp and repeats_zhoblimp_word(plan, plan.good_units, values):
            return "repeated_word", None
        tokens_of = plan.tokens
        good_tokens: list[str] = []
        good_spans: list[tuple[int, int]] = []
        for unit_slots in plan.good_layout:
            start = len(good_tokens)
            for s in unit_slots:
                good_tokens.extend(tokens_of(s, values[s]))
            good_spans.append((start, len(good_tokens)))
        bad_tokens: list[str] = []
        bad_spans: list[tuple[int, int]] = []
        for good_index, unit_slots in plan.bad_layout:
            start = len(bad_tokens)
            if good_index >= 0:
                g0, g1 = good_spans[good_index]
                bad_tokens.extend(good_tokens[g0:g1])
            else:
                for s in unit_slots:
                    bad_tokens.extend(tokens_of(s, values[s]))
            bad_spans.append((start, len(bad_tokens)))
        good = self.language.render(good_tokens, self.capitalize)
        bad = self.language.render(bad_tokens, self.capitalize)
        if good.text == bad.text:
            return "identical", None
        equal_length = self.template.options.equal_length
        if equal_length is not None and sentence_length(good, equal_length) != sentence_length(
            bad, equal_length
        ):
            return "unequal_length", None
        region = []
        good_length, bad_length = len(good.text), len(bad.text)
        for edit in self.edits:
            g = span_of(edit.good, edit.good_at, good_spans, good.offsets, good_length, self.good_ids)
            b = span_of(edit.bad, edit.bad_at, bad_spans, bad.offsets, bad_length, self.bad_ids)
            if edit.type == "substitution":
                narrowed = narrow_substitution(
                    g, b, good_tokens, bad_tokens, good.offsets, bad.offsets, good_length, bad_length
                )
                if narrowed is None:
                    continue
                g, b = narrowed
                if g.tokens[0] == g.tokens[1] or b.tokens[0] == b.tokens[1]:
                    # "弄丢了" -> "弄": what is left of the substitution is words removed (or added).
                    edit = _as_type(edit, "insertion" if g.tokens[0] == g.tokens[1] else "deletion")
            source = None
            if edit.source is not None:
                source = span_of(
                    (edit.source,), edit.source, good_spans, good.offsets, good_length, self.good_ids
                )
            region.append((edit, g, b, source))
        fillers: dict[str, dict[str, str]] = {"good": {}, "bad": {}}
        for s, grammar, path in plan.lexical_paths:
            fillers[grammar][path] = items[values[s]].id
        item_id = hashlib.blake2b(f"{id_prefix}{index}".encode(), digest_size=8).hexdigest()
        return "", Pair(
            index,
            item_id,
            good.text,
            bad.text,
            good.tokens,
            bad.tokens,
            tuple(region),
            fillers,
            plan.structure,
        )

    # -- output ------------------------------------------------------------------------------
    def record(self, pair: Pair, seed: int) -> dict[str, object]:
        """Return the BLiMP-compatible JSON record of a pair, with region and provenance."""
        template = self.template
        region = []
        for edit, good, bad, source in pair.critical_region:
            entry: dict[str, object] = {"type": edit.type, "good": good.to_dict(), "bad": bad.to_dict()}
            if source is not None:
                entry["source"] = source.to_dict()
            region.append(entry)
        record: dict[str, object] = {
            "sentence_good": pair.good,
            "sentence_bad": pair.bad,
            "UID": template.uid,
            "phenomenon": template.phenomenon,
            "pairID": str(pair.index),
            "item_id": pair.item_id,
            "language": template.language,
            "words_good": list(pair.words_good),
            "words_bad": list(pair.words_bad),
            "critical_region": region,
            "provenance": {
                "template": template.uid,
                "template_version": template.content_hash,
                "template_label": template.version,
                "vocabulary": self.vocabulary.name,
                "vocabulary_version": self.vocabulary.version,
                "seed": seed,
                "generator": GENERATOR_VERSION,
                "structure": list(pair.structure),
                "fillers": pair.fillers,
            },
        }
        if template.blimp:
            record["blimp"] = dict(template.blimp)  # BLiMP's fields the template sets
        return record

    def jsonl_lines(
        self, n: int, seed: int, *, unique: str | None = None, stats: GenerationStats | None = None
    ) -> Iterator[bytes]:
        """Yield one JSON line (bytes, newline-terminated) per pair, streaming."""
        for pair in self.pairs(n, seed, unique=unique, stats=stats):
            yield orjson.dumps(self.record(pair, seed)) + b"\n"
