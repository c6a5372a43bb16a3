"""Each participant's trials: which trials their list gives, in what order, and which sentence is
on which side, all drawn from a seed derived from the study's seed and the participant's id (so
the order can be rebuilt and is recorded with the participation).

Order: practice items first, in the order the researcher gave; then the list's items and
fillers shuffled so that no two neighbouring trials come from the same paradigm whenever the
counts allow it; then the catch trials placed in spread-out gaps (never first, never next to
each other while there are enough trials between which to put them).

Rating studies (task "rating" or "magnitude") show one sentence per trial: the list's items each
as the sentence the list holds (good or bad), fillers and practice items as two trials each (their
good and their bad sentence; practice in the researcher's order, its two sentences shuffled), and
each catch trial as its scrambled sentence alone, expected at the low end. The order and the catch
spacing are the same as for 2AFC; there are no sides.

Sides: in each kind of 2AFC trial (practice, experimental, filler, catch) half the acceptable
sentences are on the left and half on the right, and over the whole session the left count is
within one of half. A rank3 trial shows its three sentences in a shuffled order, drawn from
Latin squares so each sentence (corrected, learner, artificial) takes each position equally often.

A Trial holds the gold answer and the paradigm for the server; `Trial.public_view()` is all
the browser may see.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from study.design import StudyDesign
from study.errors import StudyError
from study.items import StudyItem
from study.rating_scale import RatingJudgement, expected_end, validate_rating
from study.seeds import participant_seed

TrialKind = Literal["experimental", "catch", "practice", "filler"]
TaskName = Literal["2afc", "rank3", "rating", "magnitude"]
CATCH_PARADIGM = "catch"  # the paradigm a catch trial counts as when neighbours are compared


@dataclass(frozen=True, slots=True)
class Trial:
    """One screen of a participant's session (server side: it holds the answer).

    sentences: the sentences in display order (index 0 is left, or top on a phone).
    gold_index: for a 2AFC trial, the displayed index of the acceptable sentence (for a
      learner-artificial comparison, of the learner sentence: BLiSS's expected preference).
    gold_ranking: for a rank3 trial, the displayed indices best first (corrected, learner,
      artificial); empty for 2AFC.
    roles: the role of each displayed sentence ("good"/"bad", "corrected"/"learner"/"artificial").
    comparison: for a triplet's pairwise trial, e.g. "corrected-learner"; "" otherwise.
    expected: for a rating or magnitude trial (one sentence, gold_index None), the end of the
      scale its sentence is expected at: "high" (good) or "low" (bad, or a catch scramble);
      "" otherwise. `rating_scale.rating_agrees(trial, value)` says whether an answer agrees.
    scale_points: the points of a rating trial's scale (0 for other trials).
    reference_sentence, reference_value: what a magnitude trial's sentence is compared with
      ("" and 0 for other trials).
    """

    trial_index: int
    item_id: str
    kind: TrialKind
    task: TaskName
    sentences: tuple[str, ...]
    gold_index: int | None
    gold_ranking: tuple[int, ...]
    roles: tuple[str, ...]
    paradigm: str
    phenomenon: str
    comparison: str = ""
    confidence: bool = False
    expected: str = ""
    scale_points: int = 0
    reference_sentence: str = ""
    reference_value: int = 0

    @property
    def rated(self) -> bool:
        """Return True for a trial that takes a rating (task "rating" or "magnitude")."""
        return self.task in ("rating", "magnitude")

    @property
    def analysed(self) -> bool:
        """Return True for trials whose answers count in the analysis (experimental ones)."""
        return self.kind == "experimental"

    @property
    def analysis_key(self) -> str:
        """Return the key answers are pooled under: the item id, plus "#comparison" for a
        triplet's pairwise trial (its three comparisons are three separate judgements)."""
        return f"{self.item_id}#{self.comparison}" if self.comparison else self.item_id

    @property
    def gold_side(self) -> str:
        """Return "left" or "right": where a 2AFC trial shows its acceptable sentence ("" for rank3)."""
        if self.gold_index is None:
            return ""
        return "left" if self.gold_index == 0 else "right"

    def public_view(self) -> dict[str, Any]:
        """Return what the browser may see of this trial: its index, task, sentences in display
        order and whether to ask for confidence; a rating trial adds `scale_points`, a magnitude
        trial `reference_sentence` and `reference_value`. No gold, no expected end, no role, no
        paradigm, no item id, no kind."""
        view: dict[str, Any] = {
            "trial_index": self.trial_index,
            "task": self.task,
            "sentences": list(self.sentences),
            "confidence": self.confidence,
        }
        if self.task == "rating":
            view["scale_points"] = self.scale_points
        elif self.task == "magnitude":
            view["reference_sentence"] = self.reference_sentence
            view["reference_value"] = self.reference_value
        return view

    def rating_judgement(
        self, participant_id: str, value: object, list_id: str = "", rt_ms: float | None = None
    ) -> RatingJudgement:
        """Return the RatingJudgement of the answer `value` to this rating or magnitude trial
        (what `study.exclusion.exclude_raters` and `study.ratings` read).

        Raises:
            StudyError: for an invalid answer or a trial that is not rated.
        """
        number = validate_rating(self, value)
        return RatingJudgement(
            participant_id=str(participant_id),
            item_id=self.item_id,
            paradigm=self.paradigm,
            phenomenon=self.phenomenon,
            role="good" if self.roles == ("good",) else "bad",
            kind=self.kind,
            value=number,
            list_id=list_id,
            rt_ms=rt_ms,
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the whole trial (gold included: server side only) as JSON-ready data; a rating
        or magnitude trial adds `expected`, `scale_points`, `reference_sentence` and
        `reference_value`."""
        data: dict[str, Any] = {
            "trial_index": self.trial_index,
            "item_id": self.item_id,
            "kind": self.kind,
            "task": self.task,
            "sentences": list(self.sentences),
            "gold_index": self.gold_index,
            "gold_ranking": list(self.gold_ranking),
            "roles": list(self.roles),
            "paradigm": self.paradigm,
            "phenomenon": self.phenomenon,
            "comparison": self.comparison,
            "confidence": self.confidence,
        }
        if self.rated:
            data["expected"] = self.expected
            data["scale_points"] = self.scale_points
            data["reference_sentence"] = self.reference_sentence
            data["reference_value"] = self.reference_value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Trial:
        """Return the trial `to_dict` wrote."""
        gold = data.get("gold_index")
        return cls(
            trial_index=int(data["trial_index"]),
            item_id=str(data["item_id"]),
            kind=data["kind"],
            task=data["task"],
            sentences=tuple(str(s) for s in data["sentences"]),
            gold_index=None if gold is None else int(gold),
            gold_ranking=tuple(int(i) for i in data.get("gold_ranking") or ()),
            roles=tuple(str(r) for r in data.get("roles") or ()),
            paradigm=str(data.get("paradigm", "")),
            phenomenon=str(data.get("phenomenon", "")),
            comparison=str(data.get("comparison", "")),
            confidence=bool(data.get("confidence", False)),
            expected=str(data.get("expected", "")),
            scale_points=int(data.get("scale_points", 0)),
            reference_sentence=str(data.get("reference_sentence", "")),
            reference_value=int(data.get("reference_value", 0)),
        )


@dataclass(frozen=True, slots=True)
class ParticipantSchedule:
    """A participant's whole session: their list, the seed their order was drawn with, and
    the trials in order (trial_index 0, 1, ...)."""

    participant_id: str
    list_index: int
    seed: int
    trials: tuple[Trial, ...]

    def public_view(self) -> list[dict[str, Any]]:
        """Return every trial's public view, in order (what the browser may see)."""
        return [t.public_view() for t in self.trials]

    def to_dict(self) -> dict[str, Any]:
        """Return the schedule (gold included: server side only) as JSON-ready data."""
        return {
            "participant_id": self.participant_id,
            "list_index": self.list_index,
            "seed": self.seed,
            "trials": [t.to_dict() for t in self.trials],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ParticipantSchedule:
        """Return the schedule `to_dict` wrote."""
        return cls(
            participant_id=str(data["participant_id"]),
            list_index=int(data["list_index"]),
            seed=int(data["seed"]),
            trials=tuple(Trial.from_dict(t) for t in data["trials"]),
        )


@dataclass(frozen=True, slots=True)
class _Unit:
    """A trial before it has a place and sides: sentences stored with the expected one first."""

    item_id: str
    kind: TrialKind
    task: TaskName
    sentences: tuple[str, ...]
    roles: tuple[str, ...]
    paradigm: str
    phenomenon: str
    comparison: str = ""
    words: frozenset[str] = frozenset()
    expected: str = ""


def _rating_units(item: StudyItem, kind: TrialKind, design: StudyDesign, roles: Sequence[str]) -> list[_Unit]:
    """Return one rating trial per role in `roles` ("good", "bad") of a pair. A trial's words
    include its item (marked), so spread_order keeps an item's two sentences apart."""
    task: TaskName = "magnitude" if design.settings.task == "magnitude" else "rating"
    words = frozenset(word for _, word in item.words) | {f"\x00item:{item.item_id}"}
    by_role = dict(zip(item.roles, item.sentences, strict=True))
    return [
        _Unit(
            item.item_id,
            kind,
            task,
            (by_role[role],),
            (role,),
            item.paradigm,
            item.phenomenon,
            words=words,
            expected=expected_end(role),
        )
        for role in roles
    ]


def _item_units(item: StudyItem, kind: TrialKind, design: StudyDesign, condition: str = "") -> list[_Unit]:
    """Return the trials one item gives: one for a pair or a rank3 triplet, one per comparison
    for a pairwise triplet; in a rating study one for a list entry (its `condition`, the
    sentence the list holds) and two (good, bad) for a practice item or filler."""
    settings = design.settings
    if settings.rated:
        return _rating_units(item, kind, design, (condition,) if condition else ("good", "bad"))
    words = frozenset(word for _, word in item.words)
    base = (item.paradigm, item.phenomenon)
    if item.kind == "pair":
        return [_Unit(item.item_id, kind, "2afc", item.sentences, item.roles, *base, words=words)]
    if settings.triplet_task == "rank3":
        return [_Unit(item.item_id, kind, "rank3", item.sentences, item.roles, *base, words=words)]
    by_role = dict(zip(item.roles, item.sentences, strict=True))
    units = []
    for comparison in settings.comparisons:
        first, second = comparison.split("-")
        sentences = (by_role[first], by_role[second])
        units.append(_Unit(item.item_id, kind, "2afc", sentences, (first, second), *base, comparison, words))
    return units


def spread_order(
    labels: Sequence[str], rng: random.Random, words: Sequence[frozenset[str]] | None = None
) -> list[int]:
    """Return a random order (indices into `labels`) in which no two neighbours share a label,
    whenever the counts allow it (no label more than half, rounded up, of all).

    Each step picks at random, weighted by how many are left, among the labels other than the
    previous one that still leave a feasible remainder; this never needs a retry. When no
    order can avoid equal neighbours, the most frequent label other than the previous one is
    taken (ties at random), which keeps the equal neighbours to the fewest possible.
    With `words` (one set per index), the trial taken from the chosen label is, where its
    label has one, one that shares no word with the previous trial (lexical priming).
    """
    pools: dict[str, list[int]] = {}
    for index, label in enumerate(labels):
        pools.setdefault(label, []).append(index)
    for pool in pools.values():
        rng.shuffle(pool)
    counts = {label: len(pool) for label, pool in pools.items()}
    every = sorted(counts)
    order: list[int] = []
    last: str | None = None
    while len(order) < len(labels):
        names = [label for label in every if counts[label]]
        total = sum(counts[label] for label in names)
        # Taking one of `label` leaves total-1 trials, `label` next to the following one: it
        # may fill at most (total-1)//2 of them, any other label at most total//2.
        ranked = sorted((counts[label] for label in names), reverse=True)
        top, second = ranked[0], (ranked[1] if len(ranked) > 1 else 0)
        unique_top = ranked.count(top) == 1
        eligible = []
        for label in names:
            if label == last or counts[label] - 1 > (total - 1) // 2:
                continue
            others_max = second if unique_top and counts[label] == top else top
            if others_max <= total // 2:
                eligible.append(label)
        if eligible:
            ticket = rng.randrange(sum(counts[label] for label in eligible))
            for label in eligible:
                ticket -= counts[label]
                if ticket < 0:
                    break
        else:
            others = [label for label in names if label != last] or names
            most = max(counts[label] for label in others)
            label = rng.choice([other for other in others if counts[other] == most])
        counts[label] -= 1
        pool = pools[label]
        take = len(pool) - 1
        if words is not None and order:
            previous = words[order[-1]]
            take = next((j for j in range(len(pool) - 1, -1, -1) if not words[pool[j]] & previous), take)
        order.append(pool.pop(take))
        last = label
    return order


def catch_gaps(n_trials: int, n_catch: int, rng: random.Random) -> list[int]:
    """Return, for each catch trial, after how many other trials it goes (sorted, 1..n_trials):
    one random gap in each of `n_catch` equal stretches of the session, so catch trials are
    spread out, never first, and never next to each other while n_catch <= n_trials."""
    if n_catch == 0:
        return []
    if n_trials == 0:
        return [0] * n_catch
    if n_catch > n_trials:
        # Not enough trials to keep them apart: every gap gets one, the rest double up.
        return sorted(1 + (j % n_trials) for j in range(n_catch))
    gaps = []
    for j in range(n_catch):
        low, high = 1 + j * n_trials // n_catch, (j + 1) * n_trials // n_catch
        gaps.append(rng.randint(low, high))
    return gaps


def _sides(units: Sequence[_Unit], rng: random.Random) -> list[bool]:
    """Return, per unit, True when its expected sentence goes on the left: balanced within each
    kind, odd extras alternating across kinds so the whole session is within one of half."""
    flips = [False] * len(units)
    extra_left = rng.random() < 0.5
    for kind in ("practice", "experimental", "filler", "catch"):
        positions = [i for i, u in enumerate(units) if u.kind == kind and u.task == "2afc"]
        half = len(positions) // 2
        sides = [True] * half + [False] * half
        if len(positions) % 2:
            sides.append(extra_left)
            extra_left = not extra_left
        rng.shuffle(sides)
        for position, left in zip(positions, sides, strict=True):
            flips[position] = left
    return flips


# The six orders of three sentences, as two Latin squares: in each square every sentence takes
# every position once.
_SQUARES = (((0, 1, 2), (1, 2, 0), (2, 0, 1)), ((0, 2, 1), (2, 1, 0), (1, 0, 2)))


def _rank3_orders(n: int, rng: random.Random) -> list[list[int]]:
    """Return `n` display orders for rank3 trials, drawn square by square (shuffled), so over the
    session each of the three sentences is shown in each position equally often (within one)."""
    orders: list[list[int]] = []
    while len(orders) < n:
        squares = [list(square) for square in _SQUARES]
        rng.shuffle(squares)
        for square in squares:
            rng.shuffle(square)
            orders.extend(list(order) for order in square)
    return orders[:n][::-1]  # popped from the end


def build_schedule(design: StudyDesign, list_index: int, participant_id: str) -> ParticipantSchedule:
    """Return the ParticipantSchedule of `participant_id` on list `list_index` (0-based): their
    seed (from the study seed and the id) and their trials in order, with sides drawn."""
    if not 0 <= list_index < len(design.lists):
        raise StudyError(f"The study has lists 1 to {len(design.lists)}; there is no list {list_index + 1}.")
    if not str(participant_id).strip():
        raise StudyError("A participant needs an id to get a trial order.")
    seed = participant_seed(design.settings.seed, participant_id)
    rng = random.Random(seed)
    study_list = design.lists[list_index]

    settings = design.settings
    practice = []
    for item in design.practice:
        units = _item_units(item, "practice", design)
        if settings.rated:
            rng.shuffle(units)  # a practice item's good sentence is not always first
        practice.extend(units)
    main = [
        u
        for item, condition in design.list_entries(list_index)
        for u in _item_units(item, "experimental", design, condition)
    ]
    main += [u for item in design.fillers for u in _item_units(item, "filler", design)]
    catch = [_catch_unit(c.catch_id, c.good, c.bad, design) for c in study_list.catch]

    arranged = [main[i] for i in spread_order([u.paradigm for u in main], rng, [u.words for u in main])]
    rng.shuffle(catch)
    session = list(practice)
    pending = list(zip(catch_gaps(len(arranged), len(catch), rng), catch, strict=True))
    for done, unit in enumerate(arranged):
        while pending and pending[0][0] == done:
            session.append(pending.pop(0)[1])
        session.append(unit)
    session.extend(unit for _, unit in pending)

    lefts = _sides(session, rng)
    displays = _rank3_orders(sum(1 for u in session if u.task == "rank3"), rng)
    trials = []
    for index, (unit, left) in enumerate(zip(session, lefts, strict=True)):
        if unit.task == "rank3":
            display = displays.pop()  # display[k] = stored index shown at position k
            sentences = tuple(unit.sentences[s] for s in display)
            roles = tuple(unit.roles[s] for s in display)
            gold_index: int | None = None
            ranking = tuple(display.index(stored) for stored in range(3))
        elif unit.task in ("rating", "magnitude"):
            sentences, roles, gold_index, ranking = unit.sentences, unit.roles, None, ()
        else:
            sentences = unit.sentences if left else unit.sentences[::-1]
            roles = unit.roles if left else unit.roles[::-1]
            gold_index, ranking = (0 if left else 1), ()
        trials.append(
            Trial(
                trial_index=index,
                item_id=unit.item_id,
                kind=unit.kind,
                task=unit.task,
                sentences=sentences,
                gold_index=gold_index,
                gold_ranking=ranking,
                roles=roles,
                paradigm=unit.paradigm,
                phenomenon=unit.phenomenon,
                comparison=unit.comparison,
                confidence=settings.confidence,
                **_rating_fields(unit, design),
            )
        )
    return ParticipantSchedule(str(participant_id), list_index, seed, tuple(trials))


def _catch_unit(catch_id: str, good: str, bad: str, design: StudyDesign) -> _Unit:
    """Return a catch trial: a 2AFC choice between its sentences, or in a rating study its
    scrambled sentence alone, expected at the low end."""
    if design.settings.task == "magnitude":
        return _Unit(catch_id, "catch", "magnitude", (bad,), ("bad",), CATCH_PARADIGM, "", expected="low")
    if design.settings.task == "rating":
        return _Unit(catch_id, "catch", "rating", (bad,), ("bad",), CATCH_PARADIGM, "", expected="low")
    return _Unit(catch_id, "catch", "2afc", (good, bad), ("good", "bad"), CATCH_PARADIGM, "")


def _rating_fields(unit: _Unit, design: StudyDesign) -> dict[str, Any]:
    """Return the Trial fields of a rating or magnitude trial (none for other trials)."""
    settings = design.settings
    if unit.task == "rating":
        return {"expected": unit.expected, "scale_points": settings.scale_points}
    if unit.task == "magnitude":
        return {
            "expected": unit.expected,
            "reference_sentence": settings.reference_sentence,
            "reference_value": settings.reference_value,
        }
    return {}


def trial_counts(design: StudyDesign) -> tuple[int, ...]:
    """Return, per list, how many trials a participant sees (practice, items, fillers and catch
    trials), e.g. to estimate the study's duration."""
    fixed = sum(len(_item_units(i, "practice", design)) for i in design.practice)
    fixed += sum(len(_item_units(i, "filler", design)) for i in design.fillers)
    return tuple(
        fixed
        + len(s.catch)
        + sum(len(_item_units(design.item(i), "experimental", design, c)) for i, c in s.entries())
        for s in design.lists
    )
