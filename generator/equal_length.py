"""The equal-length option (`options.equal_length`): how long a sentence is, and how much each
slot of a plan adds to the difference between the good and the bad sentence's length.

A slot's value adds the same length wherever it stands when the language joins words without
exceptions: in characters, its tokens plus one separator each (none in Chinese); in words, its
token count. A slot made in both sentences (a `same` reference) adds to both and cancels out,
so the difference is a sum over the slots that appear more often in one sentence than in the
other. Where English punctuation joins tokens, or a capital first letter is longer than the
small one, the lengths are not such a sum and no model is made (generation still checks each
pair's real lengths).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.language import NO_SPACE_AFTER, NO_SPACE_BEFORE, LanguageRules, Rendered
from generator.plan import Plan
from generator.template import EqualLength


def sentence_length(rendered: Rendered, mode: EqualLength) -> int:
    """Return a rendered sentence's length: its characters or its word tokens."""
    return len(rendered.text) if mode == "characters" else len(rendered.tokens)


@dataclass(frozen=True, slots=True)
class LengthModel:
    """The slots whose values change good length minus bad length, and how.

    The difference is `sum(sign[i] * length of slots[i]'s value)`; `classes[i]` maps each length
    slot i's values can add to those values (item indexes of a lexical slot, option indexes of
    a literal one).
    """

    slots: tuple[int, ...]
    sign: tuple[int, ...]
    classes: tuple[dict[int, tuple[int, ...]], ...]

    def differences(self) -> set[int]:
        """Return every good-minus-bad length difference the slots' values can make, ignoring
        agreement (so a difference missing here can never occur)."""
        sums = {0}
        for sign, classes in zip(self.sign, self.classes, strict=True):
            sums = {total + sign * length for total in sums for length in classes}
        return sums

    def balanced(self, limit: int) -> list[tuple[int, ...]] | None:
        """Return every choice of one length per slot whose difference is 0 (in slot order), or
        None if there are more than `limit` of them."""
        # reach[i]: the sums slots i.. can add; a prefix is kept only if the rest can cancel it.
        reach: list[set[int]] = [set() for _ in self.slots] + [{0}]
        for i in range(len(self.slots) - 1, -1, -1):
            reach[i] = {self.sign[i] * length + rest for length in self.classes[i] for rest in reach[i + 1]}
        found: list[tuple[int, ...]] = []
        prefix: list[int] = []

        def extend(i: int, total: int) -> bool:
            if i == len(self.slots):
                found.append(tuple(prefix))
                return len(found) <= limit
            for length in sorted(self.classes[i]):
                moved = total + self.sign[i] * length
                if -moved in reach[i + 1]:
                    prefix.append(length)
                    going = extend(i + 1, moved)
                    prefix.pop()
                    if not going:
                        return False
            return True

        if 0 not in reach[0]:
            return []
        return found if extend(0, 0) else None


def sentence_slots(plan: Plan) -> tuple[list[int], list[int]]:
    """Return the slots of the good and of the bad sentence, in sentence order (a slot a `same`
    or `copy` reference repeats appears in both, or twice)."""
    good = [s for unit in plan.good_layout for s in unit]
    bad: list[int] = []
    for good_index, slots in plan.bad_layout:
        bad.extend(plan.good_layout[good_index] if good_index >= 0 else slots)
    return good, bad


def _values(plan: Plan, slot: int) -> Sequence[int]:
    found = plan.slots[slot]
    return found.candidates if found.lexical else range(len(found.options))


def length_model(plan: Plan, mode: EqualLength, rules: LanguageRules, capitalize: bool) -> LengthModel | None:
    """Return the plan's length model, or None when a sentence's length is not a sum over its
    slots (a token English joins to the next one, a possible first token English joins to the
    previous one or whose capital letter has another length, a sentence that may be empty)."""
    good, bad = sentence_slots(plan)
    width = len(rules.separator) if mode == "characters" else 0

    def tokens(slot: int, value: int) -> tuple[str, ...]:
        return rules.tokenize(plan.word(slot, value))

    if mode == "characters":
        if width and any(
            t in NO_SPACE_AFTER for s in set(good + bad) for v in _values(plan, s) for t in tokens(s, v)
        ):
            return None
        for sentence in (good, bad):
            # Every sentence drops the separator before its first token: the same for both, as
            # long as that token would take one elsewhere and keeps its length when capitalised.
            for s in sentence:
                firsts = [tokens(s, v)[:1] for v in _values(plan, s)]
                for first in firsts:
                    if first and width and first[0] in NO_SPACE_BEFORE:
                        return None
                    if first and capitalize and first[0] and len(first[0][0].upper()) != 1:
                        return None
                if all(firsts):
                    break
            else:
                return None

    def length(slot: int, value: int) -> int:
        found = tokens(slot, value)
        if mode == "words":
            return len(found)
        return sum(len(t) + (0 if t in NO_SPACE_BEFORE else width) for t in found)

    sign: dict[int, int] = {}
    for s in good:
        sign[s] = sign.get(s, 0) + 1
    for s in bad:
        sign[s] = sign.get(s, 0) - 1
    slots = tuple(s for s in sorted(sign) if sign[s])
    classes: list[dict[int, tuple[int, ...]]] = []
    for s in slots:
        by_length: dict[int, list[int]] = {}
        for v in _values(plan, s):
            by_length.setdefault(length(s, v), []).append(v)
        classes.append({k: tuple(v) for k, v in by_length.items()})
    return LengthModel(slots, tuple(sign[s] for s in slots), tuple(classes))


def describe_differences(differences: set[int], mode: EqualLength) -> str:
    """Return in words how the good sentence's length differs from the bad one's, for
    differences that never include 0: 'the good sentence is always 1 to 2 characters longer'."""
    unit: str = mode  # the option's values are the units' names
    low, high = min(differences), max(differences)
    if low < 0 < high:
        return f"good minus bad is never 0 {unit} (it is between {low} and {high}, 0 left out)"
    which = "good" if low > 0 else "bad"
    least, most = (low, high) if low > 0 else (-high, -low)
    amount = f"{least}" if least == most else f"{least} to {most}"
    if amount == "1":
        unit = unit[:-1]  # character, word
    return f"the {which} sentence is always {amount} {unit} longer"
