"""A validation study's design: which items are shown (k per paradigm, sampled with a recorded
seed), how they are spread over n lists (each paradigm balanced across lists), the catch trials
of each list, the practice items and fillers every list shows, and how many participants the
target number of responses per item needs. `StudyDesign.to_dict()` is what the platform stores.

Lists are a partition (Latin-square style): each item goes in exactly `replication` lists, and
every list holds floor or ceil of k * replication / n items of each paradigm, so a participant
sees every paradigm and no paradigm is over-represented in one list.

A rating study (task "rating", a Likert scale, or "magnitude", magnitude estimation) shows one
sentence per trial: each list holds an item as its good or its bad sentence
(`StudyList.conditions`), never both, dealt by `study.rating_lists.build_rating_lists`.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from study.catch import (
    CATCH_METHODS,
    CatchMethod,
    CatchTrial,
    hand_written_catch,
    scramble,
)
from study.errors import StudyError
from study.items import StudyItem
from study.rating_lists import CONDITIONS, Condition, build_rating_lists
from study.rating_scale import MAX_MAGNITUDE, MAX_SCALE_POINTS, MIN_SCALE_POINTS, RatingScale
from study.seeds import derive_seed

FORMAT = "mpp-study-design"
FORMAT_VERSION = 1

TripletTask = Literal["pairwise", "rank3"]
DesignTask = Literal["2afc", "rating", "magnitude"]
DESIGN_TASKS: tuple[DesignTask, ...] = ("2afc", "rating", "magnitude")
TASK_NAMES = {"2afc": "forced choice", "rating": "acceptability rating", "magnitude": "magnitude estimation"}
# The 2AFC comparisons a triplet can give; the first named sentence is the expected answer
# (for learner-artificial that is BLiSS's hypothesis that learner errors sound more natural,
# not a grammaticality label).
COMPARISONS: tuple[str, ...] = ("corrected-learner", "learner-artificial", "corrected-artificial")


@dataclass(frozen=True, slots=True)
class DesignSettings:
    """What the researcher chose.

    seed: the recorded seed every random choice of the design derives from.
    items_per_paradigm: k, how many items each paradigm contributes (all, when it has fewer).
    n_lists: how many lists the items are spread over.
    target_responses: responses wanted per item.
    replication: in how many lists each item appears (1 = a partition).
    catch_per_list: catch trials in each list.
    catch_method: how generated catch trials scramble a sentence ("shuffle" or "reverse").
    catch_min_units: the fewest words (characters for CJK) a sentence needs to be scrambled.
    task: "2afc" (which of two sounds more natural; the default), "rating" (each sentence rated
      alone on a Likert scale) or "magnitude" (each sentence given a number relative to a
      reference sentence). Rating and magnitude take minimal pairs only, and need at least
      2 x replication lists (an item's good and bad sentences go to different lists).
    confidence: ask for a confidence rating after each choice.
    triplet_task: "pairwise" (a 2AFC trial per comparison) or "rank3" (rank the three).
    comparisons: for "pairwise", which of COMPARISONS each triplet gives.
    scale_points: the points of the rating scale (2 to 11; task "rating" only).
    reference_sentence: the reference (modulus) sentence shown with every magnitude trial
      (required for task "magnitude").
    reference_value: the number the reference sentence is worth (task "magnitude").
    """

    seed: int
    items_per_paradigm: int
    n_lists: int
    target_responses: int
    replication: int = 1
    catch_per_list: int = 2
    catch_method: CatchMethod = "shuffle"
    catch_min_units: int = 4
    task: DesignTask = "2afc"
    confidence: bool = False
    triplet_task: TripletTask = "pairwise"
    comparisons: tuple[str, ...] = COMPARISONS
    scale_points: int = 7
    reference_sentence: str = ""
    reference_value: int = 100

    def __post_init__(self) -> None:
        for name, value, least in (
            ("items per paradigm", self.items_per_paradigm, 1),
            ("number of lists", self.n_lists, 1),
            ("target responses per item", self.target_responses, 1),
            ("replication (lists per item)", self.replication, 1),
            ("catch trials per list", self.catch_per_list, 0),
            ("fewest words of a scrambled catch sentence", self.catch_min_units, 2),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise StudyError(f"The {name} must be a whole number of at least {least}, got {value!r}.")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise StudyError(f"The seed must be a whole number, got {self.seed!r}.")
        if self.replication > self.n_lists:
            raise StudyError(
                f"Each item can appear in at most {self.n_lists} lists (the number of lists), "
                f"but replication is {self.replication}."
            )
        if self.catch_method not in CATCH_METHODS:
            raise StudyError(
                f"The catch-trial method must be one of {', '.join(CATCH_METHODS)}, "
                f"not {self.catch_method!r}."
            )
        if self.task not in DESIGN_TASKS:
            raise StudyError(f"The task must be one of {', '.join(DESIGN_TASKS)}, not {self.task!r}.")
        self._check_rating()
        if self.triplet_task not in ("pairwise", "rank3"):
            raise StudyError(f"The triplet task must be 'pairwise' or 'rank3', not {self.triplet_task!r}.")
        unknown = [c for c in self.comparisons if c not in COMPARISONS]
        if unknown or not self.comparisons or len(set(self.comparisons)) != len(self.comparisons):
            raise StudyError(
                f"Triplet comparisons must be distinct names from {', '.join(COMPARISONS)}; "
                f"got {', '.join(self.comparisons) or 'none'}."
            )

    def _check_rating(self) -> None:
        """Check the settings of rating and magnitude estimation (the scale, the reference
        sentence and value, and enough lists to keep an item's two sentences apart)."""
        points = self.scale_points
        if (
            not isinstance(points, int)
            or isinstance(points, bool)
            or not MIN_SCALE_POINTS <= points <= MAX_SCALE_POINTS
        ):
            raise StudyError(
                f"The rating scale has {MIN_SCALE_POINTS} to {MAX_SCALE_POINTS} points, got {points!r}."
            )
        value = self.reference_value
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_MAGNITUDE:
            raise StudyError(
                f"The reference sentence's value must be a whole number from 1 to {MAX_MAGNITUDE:,.0f}, "
                f"got {value!r}."
            )
        if not isinstance(self.reference_sentence, str):
            raise StudyError(f"The reference sentence must be text, got {self.reference_sentence!r}.")
        if self.task == "magnitude" and not self.reference_sentence.strip():
            raise StudyError(
                "Magnitude estimation needs a reference sentence, shown with every trial, that "
                "participants compare each sentence with."
            )
        if self.task != "2afc" and self.n_lists < 2 * self.replication:
            raise StudyError(
                f"In {TASK_NAMES[self.task]} each participant sees only one sentence of a pair, so "
                f"an item's good and bad sentences go to different lists: with replication "
                f"{self.replication} the study needs at least {2 * self.replication} lists, not "
                f"{self.n_lists}."
            )

    @property
    def rated(self) -> bool:
        """Return True for a study whose sentences are rated one at a time (rating, magnitude)."""
        return self.task != "2afc"

    def rating_scale(self) -> RatingScale:
        """Return the RatingScale of a rating or magnitude estimation study.

        Raises:
            StudyError: for a 2AFC study (its answers are choices, not ratings).
        """
        if self.task == "rating":
            return RatingScale("rating", self.scale_points)
        if self.task == "magnitude":
            return RatingScale("magnitude", reference_value=self.reference_value)
        raise StudyError("A forced-choice (2AFC) study has no rating scale: its answers are choices.")

    def to_dict(self) -> dict[str, Any]:
        """Return the settings as JSON-ready data (`from_dict` reads them back)."""
        return {
            "seed": self.seed,
            "items_per_paradigm": self.items_per_paradigm,
            "n_lists": self.n_lists,
            "target_responses": self.target_responses,
            "replication": self.replication,
            "catch_per_list": self.catch_per_list,
            "catch_method": self.catch_method,
            "catch_min_units": self.catch_min_units,
            "task": self.task,
            "confidence": self.confidence,
            "triplet_task": self.triplet_task,
            "comparisons": list(self.comparisons),
            "scale_points": self.scale_points,
            "reference_sentence": self.reference_sentence,
            "reference_value": self.reference_value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DesignSettings:
        """Return the settings `to_dict` wrote (missing optional fields take their defaults)."""
        try:
            return cls(
                seed=data["seed"],
                items_per_paradigm=data["items_per_paradigm"],
                n_lists=data["n_lists"],
                target_responses=data["target_responses"],
                replication=data.get("replication", 1),
                catch_per_list=data.get("catch_per_list", 2),
                catch_method=data.get("catch_method", "shuffle"),
                catch_min_units=data.get("catch_min_units", 4),
                task=data.get("task", "2afc"),
                confidence=bool(data.get("confidence", False)),
                triplet_task=data.get("triplet_task", "pairwise"),
                comparisons=tuple(data.get("comparisons", COMPARISONS)),
                scale_points=data.get("scale_points", 7),
                reference_sentence=data.get("reference_sentence", ""),
                reference_value=data.get("reference_value", 100),
            )
        except KeyError as missing:
            raise StudyError(f"The stored design settings have no {missing.args[0]!r} field.") from None


@dataclass(frozen=True, slots=True)
class ParadigmSample:
    """What sampling did for one paradigm: how many items it had, how many were asked for, and
    the ids drawn (all of them when it had fewer than asked: `shortfall` says by how many)."""

    paradigm: str
    phenomenon: str
    available: int
    requested: int
    item_ids: tuple[str, ...]

    @property
    def shortfall(self) -> int:
        """Return how many items fewer than requested the paradigm gave (0 when it had enough)."""
        return max(0, self.requested - len(self.item_ids))

    def to_dict(self) -> dict[str, Any]:
        """Return the sample record as JSON-ready data."""
        return {
            "paradigm": self.paradigm,
            "phenomenon": self.phenomenon,
            "available": self.available,
            "requested": self.requested,
            "item_ids": list(self.item_ids),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ParadigmSample:
        """Return the sample record `to_dict` wrote."""
        return cls(
            paradigm=str(data["paradigm"]),
            phenomenon=str(data.get("phenomenon", "")),
            available=int(data["available"]),
            requested=int(data["requested"]),
            item_ids=tuple(str(i) for i in data["item_ids"]),
        )


@dataclass(frozen=True, slots=True)
class StudyList:
    """One list: the experimental items it shows (ids, in the order dealt; each participant's
    order is drawn by `order.build_schedule`) and its catch trials.

    `conditions` is empty in a 2AFC study; in a rating study it says, for each entry of
    `item_ids`, which sentence of the pair the list shows: "good" or "bad"."""

    index: int
    item_ids: tuple[str, ...]
    catch: tuple[CatchTrial, ...] = ()
    conditions: tuple[Condition, ...] = ()

    def __post_init__(self) -> None:
        if self.conditions and len(self.conditions) != len(self.item_ids):
            raise StudyError(
                f"List {self.index + 1} has {len(self.item_ids)} items but {len(self.conditions)} "
                "conditions (one per item: 'good' or 'bad')."
            )
        wrong = [c for c in self.conditions if c not in CONDITIONS]
        if wrong:
            raise StudyError(f"List {self.index + 1}: a condition is 'good' or 'bad', not {wrong[0]!r}.")

    def entries(self) -> tuple[tuple[str, str], ...]:
        """Return (item id, condition) for each entry: the condition is "" in a 2AFC study."""
        conditions: Sequence[str] = self.conditions or [""] * len(self.item_ids)
        return tuple(zip(self.item_ids, conditions, strict=True))

    def to_dict(self) -> dict[str, Any]:
        """Return the list as JSON-ready data (`conditions` only in a rating study)."""
        data: dict[str, Any] = {
            "index": self.index,
            "item_ids": list(self.item_ids),
            "catch": [c.to_dict() for c in self.catch],
        }
        if self.conditions:
            data["conditions"] = list(self.conditions)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StudyList:
        """Return the list `to_dict` wrote."""
        return cls(
            index=int(data["index"]),
            item_ids=tuple(str(i) for i in data["item_ids"]),
            catch=tuple(CatchTrial.from_dict(c) for c in data.get("catch") or ()),
            conditions=tuple(data.get("conditions") or ()),
        )


@dataclass(frozen=True, slots=True)
class BalanceReport:
    """How evenly the lists hold each paradigm.

    counts[paradigm][list index] is the number of that paradigm's items in that list;
    spread[paradigm] the max-min difference over lists; list_sizes the experimental items per
    list; balanced is True when every spread, and the spread of list sizes, is at most 1.
    In a rating study good[paradigm][list index] and bad[...] split counts by the sentence
    shown (empty dicts in a 2AFC study).
    """

    counts: dict[str, tuple[int, ...]]
    spread: dict[str, int]
    list_sizes: tuple[int, ...]
    good: dict[str, tuple[int, ...]] = field(default_factory=dict)
    bad: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def max_spread(self) -> int:
        """Return the largest max-min difference of any paradigm across lists."""
        return max(self.spread.values(), default=0)

    @property
    def max_condition_gap(self) -> int:
        """Return, in a rating study, the largest |good - bad| of any paradigm in any list, and
        of any whole list (0 in a 2AFC study)."""
        gaps = [abs(g - b) for p in self.good for g, b in zip(self.good[p], self.bad[p], strict=True)]
        lists = len(self.list_sizes)
        for index in range(lists if self.good else 0):
            goods = sum(self.good[p][index] for p in self.good)
            bads = sum(self.bad[p][index] for p in self.bad)
            gaps.append(abs(goods - bads))
        return max(gaps, default=0)

    @property
    def balanced(self) -> bool:
        """Return True when no paradigm and no list size differs by more than 1 between lists
        and, in a rating study, every list holds as many good as bad sentences of each paradigm
        (within 1)."""
        sizes = self.list_sizes
        return (
            self.max_spread <= 1
            and (not sizes or max(sizes) - min(sizes) <= 1)
            and self.max_condition_gap <= 1
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the report as JSON-ready data, for the design page (a rating study adds the
        good and bad sentences per paradigm per list and the largest gap between them)."""
        data: dict[str, Any] = {
            "counts": {p: list(c) for p, c in self.counts.items()},
            "spread": dict(self.spread),
            "list_sizes": list(self.list_sizes),
            "max_spread": self.max_spread,
            "balanced": self.balanced,
        }
        if self.good:
            data["good"] = {p: list(c) for p, c in self.good.items()}
            data["bad"] = {p: list(c) for p, c in self.bad.items()}
            data["max_condition_gap"] = self.max_condition_gap
        return data


@dataclass(frozen=True)
class StudyDesign:
    """A whole study design: settings, the sampled items, practice items (shown first, not
    analysed), fillers (in every list, not analysed), the lists, and the sampling record."""

    settings: DesignSettings
    items: tuple[StudyItem, ...]
    lists: tuple[StudyList, ...]
    sampling: tuple[ParadigmSample, ...]
    practice: tuple[StudyItem, ...] = ()
    fillers: tuple[StudyItem, ...] = ()
    _by_id: dict[str, StudyItem] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[str, StudyItem] = {}
        for item in (*self.items, *self.practice, *self.fillers):
            if item.item_id in by_id:
                raise StudyError(
                    f"Item id {item.item_id!r} is used twice (items, practice items and fillers "
                    "need distinct ids)."
                )
            by_id[item.item_id] = item
        for study_list in self.lists:
            if self.settings.rated and study_list.item_ids and not study_list.conditions:
                raise StudyError(
                    f"List {study_list.index + 1} of this {TASK_NAMES[self.settings.task]} study does "
                    "not say which sentence of each pair it shows (its 'conditions' are missing)."
                )
            for item_id in study_list.item_ids:
                if item_id not in by_id:
                    raise StudyError(
                        f"List {study_list.index + 1} names item {item_id!r}, which the design lacks."
                    )
        object.__setattr__(self, "_by_id", by_id)

    def item(self, item_id: str) -> StudyItem:
        """Return the item (experimental, practice or filler) with this id; KeyError if none."""
        return self._by_id[item_id]

    def list_items(self, list_index: int) -> tuple[StudyItem, ...]:
        """Return the experimental items of list `list_index` (0-based)."""
        return tuple(self._by_id[i] for i in self.lists[list_index].item_ids)

    def list_entries(self, list_index: int) -> tuple[tuple[StudyItem, str], ...]:
        """Return (item, condition) for each experimental entry of list `list_index` (0-based):
        the condition is "good" or "bad" in a rating study, "" in a 2AFC study."""
        return tuple((self._by_id[i], c) for i, c in self.lists[list_index].entries())

    def balance(self) -> BalanceReport:
        """Return the balance report: items per paradigm per list and the max-min differences."""
        return balance_report(self.items, self.lists)

    def participants_per_list(self) -> int:
        """Return the participants each list needs: ceil(target responses / replication) (in a
        rating study the target counts the ratings of each of an item's two sentences)."""
        return math.ceil(self.settings.target_responses / self.settings.replication)

    def participants_needed(self) -> int:
        """Return the participants the study needs: lists x participants per list."""
        return len(self.lists) * self.participants_per_list()

    def shortfalls(self) -> dict[str, int]:
        """Return, for each paradigm that had fewer items than k, how many it lacked."""
        return {s.paradigm: s.shortfall for s in self.sampling if s.shortfall}

    def to_dict(self) -> dict[str, Any]:
        """Return the whole design as JSON-ready data (`from_dict` rebuilds an equal design)."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "settings": self.settings.to_dict(),
            "items": [i.to_dict() for i in self.items],
            "practice": [i.to_dict() for i in self.practice],
            "fillers": [i.to_dict() for i in self.fillers],
            "lists": [s.to_dict() for s in self.lists],
            "sampling": [s.to_dict() for s in self.sampling],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StudyDesign:
        """Return the design `to_dict` wrote; a StudyError says what is wrong with other data."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise StudyError("This is not a stored study design (its 'format' is not 'mpp-study-design').")
        if data.get("version") != FORMAT_VERSION:
            raise StudyError(
                f"This study design has version {data.get('version')!r}; "
                f"this engine reads version {FORMAT_VERSION}."
            )
        try:
            return cls(
                settings=DesignSettings.from_dict(data["settings"]),
                items=tuple(StudyItem.from_dict(i) for i in data["items"]),
                lists=tuple(StudyList.from_dict(s) for s in data["lists"]),
                sampling=tuple(ParadigmSample.from_dict(s) for s in data.get("sampling") or ()),
                practice=tuple(StudyItem.from_dict(i) for i in data.get("practice") or ()),
                fillers=tuple(StudyItem.from_dict(i) for i in data.get("fillers") or ()),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, StudyError):
                raise
            raise StudyError(f"The stored study design is incomplete or damaged ({error!r}).") from None


def _check_unique(items: Sequence[StudyItem], what: str) -> None:
    seen: set[str] = set()
    for item in items:
        if item.item_id in seen:
            raise StudyError(f"Item id {item.item_id!r} appears twice among the {what}.")
        seen.add(item.item_id)


def sample_items(
    items: Iterable[StudyItem], items_per_paradigm: int, seed: int
) -> tuple[tuple[StudyItem, ...], tuple[ParadigmSample, ...]]:
    """Return (the sampled items, one ParadigmSample per paradigm): `items_per_paradigm` items
    drawn at random from each paradigm (all of them when it has fewer), paradigms sorted by
    name and items kept in a stable order.

    Each paradigm draws with its own seed, derived from `seed` and the paradigm's name, so the
    sample is the same whatever order the items come in and adding a paradigm changes no
    other paradigm's sample.
    """
    items = list(items)
    _check_unique(items, "items")
    by_paradigm: dict[str, list[StudyItem]] = defaultdict(list)
    for item in items:
        by_paradigm[item.paradigm].append(item)
    chosen: list[StudyItem] = []
    records: list[ParadigmSample] = []
    for paradigm in sorted(by_paradigm):
        pool = sorted(by_paradigm[paradigm], key=lambda i: i.item_id)
        if len(pool) <= items_per_paradigm:
            drawn = pool
        else:
            rng = random.Random(derive_seed("mpp-study", seed, "sample", paradigm))
            drawn = sorted(rng.sample(pool, items_per_paradigm), key=lambda i: i.item_id)
        chosen.extend(drawn)
        phenomena = sorted({i.phenomenon for i in pool if i.phenomenon})
        records.append(
            ParadigmSample(
                paradigm=paradigm,
                phenomenon=", ".join(phenomena),
                available=len(pool),
                requested=items_per_paradigm,
                item_ids=tuple(i.item_id for i in drawn),
            )
        )
    return tuple(chosen), tuple(records)


def practice_items(items: Sequence[StudyItem], settings: DesignSettings, wanted: int) -> list[StudyItem]:
    """Return `wanted` practice items drawn (seeded) from the items the sample leaves out, one
    paradigm after another so practice shows several paradigms.

    Raises:
        StudyError: if the sample leaves fewer than `wanted` items.
    """
    if wanted == 0:
        return []
    sampled, _ = sample_items(items, settings.items_per_paradigm, settings.seed)
    taken = {i.item_id for i in sampled}
    rng = random.Random(derive_seed("mpp-study", settings.seed, "practice"))
    by_paradigm: dict[str, list[StudyItem]] = {}
    for item in items:
        if item.item_id not in taken:
            by_paradigm.setdefault(item.paradigm, []).append(item)
    pools = [by_paradigm[p] for p in sorted(by_paradigm)]
    for pool in pools:
        rng.shuffle(pool)
    rng.shuffle(pools)
    chosen: list[StudyItem] = []
    while len(chosen) < wanted and any(pools):
        for pool in pools:
            if pool and len(chosen) < wanted:
                chosen.append(pool.pop())
    if len(chosen) < wanted:
        raise StudyError(
            f"Only {len(chosen)} items are left over for practice after sampling "
            f"{settings.items_per_paradigm} per paradigm; ask for fewer practice items or sample fewer."
        )
    return chosen


def build_lists(
    items: Sequence[StudyItem], n_lists: int, seed: int, replication: int = 1
) -> tuple[tuple[str, ...], ...]:
    """Return, for each of `n_lists` lists, the ids of the items it holds.

    Each paradigm's items are shuffled (seeded) and dealt round the lists: item j goes to the
    `replication` consecutive lists after the previous item's, continuing from where the
    previous paradigm stopped. So each item is in exactly `replication` distinct lists, each
    list gets floor or ceil of k * replication / n items of every paradigm, and the list sizes
    differ by at most one.
    """
    if not 1 <= replication <= n_lists:
        raise StudyError(
            f"Replication must be between 1 and the number of lists ({n_lists}), got {replication}."
        )
    by_paradigm: dict[str, list[StudyItem]] = defaultdict(list)
    for item in items:
        by_paradigm[item.paradigm].append(item)
    lists: list[list[str]] = [[] for _ in range(n_lists)]
    # Start at a seeded list so that list 1 does not always get the extra items.
    cursor = random.Random(derive_seed("mpp-study", seed, "lists")).randrange(n_lists)
    for paradigm in sorted(by_paradigm):
        pool = sorted(by_paradigm[paradigm], key=lambda i: i.item_id)
        random.Random(derive_seed("mpp-study", seed, "deal", paradigm)).shuffle(pool)
        for item in pool:
            for _ in range(replication):
                lists[cursor].append(item.item_id)
                cursor = (cursor + 1) % n_lists
    return tuple(tuple(ids) for ids in lists)


def balance_report(items: Sequence[StudyItem], lists: Sequence[StudyList]) -> BalanceReport:
    """Return the BalanceReport of `lists`: each paradigm's item count per list and spread, and
    in a rating study (lists with conditions) the good and bad sentences per paradigm per list."""
    paradigm_of = {i.item_id: i.paradigm for i in items}
    paradigms = sorted({i.paradigm for i in items})
    counts = {p: [0] * len(lists) for p in paradigms}
    rated = any(s.conditions for s in lists)
    by_condition: dict[str, dict[str, list[int]]] = (
        {c: {p: [0] * len(lists) for p in paradigms} for c in CONDITIONS} if rated else {}
    )
    for position, study_list in enumerate(lists):
        for item_id, condition in study_list.entries():
            counts[paradigm_of[item_id]][position] += 1
            if condition:
                by_condition[condition][paradigm_of[item_id]][position] += 1
    return BalanceReport(
        counts={p: tuple(c) for p, c in counts.items()},
        spread={p: (max(c) - min(c)) if c else 0 for p, c in counts.items()},
        list_sizes=tuple(len(s.item_ids) for s in lists),
        good={p: tuple(c) for p, c in by_condition.get("good", {}).items()},
        bad={p: tuple(c) for p, c in by_condition.get("bad", {}).items()},
    )


def _catch_for_lists(
    settings: DesignSettings,
    lists: Sequence[tuple[str, ...]],
    items: Sequence[StudyItem],
    fillers: Sequence[StudyItem],
    catch_pairs: Sequence[Sequence[str]],
) -> list[tuple[CatchTrial, ...]]:
    """Return each list's catch trials: the hand-written ones first (dealt round the lists), then
    scrambles of good sentences, preferring items the list does not show (so nobody sees a
    sentence both intact and scrambled), then the list's own items and fillers."""
    wanted = settings.catch_per_list
    written = hand_written_catch(catch_pairs)
    result: list[tuple[CatchTrial, ...]] = []
    for index, item_ids in enumerate(lists):
        chosen: list[CatchTrial] = []
        if written:
            take = min(wanted, len(written))
            start = (index * take) % len(written)
            chosen.extend(written[(start + j) % len(written)] for j in range(take))
        rng = random.Random(derive_seed("mpp-study", settings.seed, "catch", index))
        in_list = set(item_ids)
        others = [i for i in items if i.item_id not in in_list]
        own = [i for i in items if i.item_id in in_list]
        used = {c.good for c in chosen}
        for group in (others, list(fillers), own):
            if len(chosen) >= wanted:
                break
            pool = sorted(group, key=lambda i: i.item_id)
            rng.shuffle(pool)
            for item in pool:
                if len(chosen) >= wanted:
                    break
                if item.good in used:
                    continue
                bad = scramble(item.good, rng, settings.catch_method, settings.catch_min_units)
                if bad is None:
                    continue
                used.add(item.good)
                chosen.append(
                    CatchTrial(
                        f"catch-{index + 1}-{len(chosen) + 1}",
                        item.good,
                        bad,
                        item.item_id,
                        settings.catch_method,
                    )
                )
        if len(chosen) < wanted:
            raise StudyError(
                f"List {index + 1} needs {wanted} catch trials but only {len(chosen)} could be made: "
                f"too few good sentences have at least {settings.catch_min_units} words "
                "(characters in Chinese). Add hand-written catch pairs or ask for fewer catch trials."
            )
        result.append(tuple(chosen))
    return result


def _check_pairs_only(
    settings: DesignSettings,
    items: Sequence[StudyItem],
    practice: Sequence[StudyItem],
    fillers: Sequence[StudyItem],
) -> None:
    """Raise a StudyError naming the first item, practice item or filler that is not a minimal
    pair: rating and magnitude estimation rate a pair's good and bad sentences one at a time."""
    for what, group in (("item", items), ("practice item", practice), ("filler", fillers)):
        triplets = [i.item_id for i in group if i.kind != "pair"]
        if triplets:
            raise StudyError(
                f"{TASK_NAMES[settings.task].capitalize()} works on minimal pairs only, but "
                f"{len(triplets)} {what}{'s are' if len(triplets) > 1 else ' is a'} learner "
                f"triplet{'s' if len(triplets) > 1 else ''} (first: {triplets[0]!r}); use forced "
                "choice (2AFC) for triplets."
            )


def build_design(
    items: Iterable[StudyItem],
    settings: DesignSettings,
    *,
    practice: Sequence[StudyItem] = (),
    fillers: Sequence[StudyItem] = (),
    catch_pairs: Sequence[Sequence[str]] = (),
) -> StudyDesign:
    """Return the StudyDesign of `items` under `settings`: k items sampled per paradigm, dealt
    over the lists (see `build_lists`; in a rating study `rating_lists.build_rating_lists`,
    each item's good and bad sentences in different lists), each list given `catch_per_list`
    catch trials (hand-written `catch_pairs` first, then scrambles of the study's good
    sentences; in a rating study only the scramble is shown, to be rated low). Practice items
    and fillers are shown in every list and are not sampled (in a rating study each gives two
    trials, its good and its bad sentence).

    Raises:
        StudyError: no items, ids used twice, lists left empty, too few catch trials, or (rating
            and magnitude) an item, practice item or filler that is not a minimal pair.
    """
    items = list(items)
    if not items:
        raise StudyError("The study has no items: choose at least one dataset with pairs or triplets.")
    _check_unique([*items, *practice, *fillers], "items, practice items and fillers")
    if settings.rated:
        _check_pairs_only(settings, items, practice, fillers)
    sampled, sampling = sample_items(items, settings.items_per_paradigm, settings.seed)
    conditions: tuple[tuple[Condition, ...], ...]
    if settings.rated:
        rated = build_rating_lists(sampled, settings.n_lists, settings.seed, settings.replication)
        dealt = tuple(ids for ids, _ in rated)
        conditions = tuple(c for _, c in rated)
    else:
        dealt = build_lists(sampled, settings.n_lists, settings.seed, settings.replication)
        conditions = tuple(() for _ in dealt)
    empty = [str(i + 1) for i, ids in enumerate(dealt) if not ids]
    if empty:
        raise StudyError(
            f"{len(sampled)} sampled items cannot fill {settings.n_lists} lists "
            f"(list {', '.join(empty)} would be empty): ask for fewer lists or more items per paradigm."
        )
    catch = _catch_for_lists(settings, dealt, sampled, fillers, catch_pairs)
    lists = tuple(StudyList(i, ids, catch[i], conditions[i]) for i, ids in enumerate(dealt))
    return StudyDesign(
        settings=settings,
        items=sampled,
        lists=lists,
        sampling=sampling,
        practice=tuple(practice),
        fillers=tuple(fillers),
    )
