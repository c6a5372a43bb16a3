"""Lists of a rating study (Latin square): each participant rates one sentence at a time, so the
good and bad sentences of a pair go to different lists and nobody sees both.

Dealing. Every item has 2r versions to place (r = replication): its good sentence in r lists
and its bad sentence in r other lists. Versions are dealt one slot at a time round the lists,
as `study.design.build_lists` deals items: each paradigm's items shuffled (seeded), an item's
2r versions on 2r consecutive lists (distinct, since n >= 2r), continuing where the previous
item and paradigm stopped. So every list holds floor or ceil of 2rk / n entries of each
paradigm, as in a 2AFC study.

Conditions. Slot s (counted over the whole deal) goes to list s mod n in round s // n. Its
condition alternates along the slots (good, bad, good, ...), and when n is even it also flips
at each new round (n odd needs no flip: a list's consecutive slots are n apart, an odd step).
Then:
- each item's 2r versions are r good and r bad: its slots are consecutive and start on an even
  slot (every item takes an even number of slots, and the deal starts on an even slot when n
  is even), so they alternate, or, where they wrap round to list 1 (n even), they break into
  two runs of even length that each alternate;
- each list's entries alternate between good and bad from one round to the next, within a
  paradigm and over the whole list, so each list holds half its items of every paradigm as
  good sentences and half as bad ones (within one).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Literal

from study.errors import StudyError
from study.items import StudyItem
from study.seeds import derive_seed

Condition = Literal["good", "bad"]
CONDITIONS: tuple[Condition, Condition] = ("good", "bad")


def build_rating_lists(
    items: Sequence[StudyItem], n_lists: int, seed: int, replication: int = 1
) -> tuple[tuple[tuple[str, ...], tuple[Condition, ...]], ...]:
    """Return, for each of `n_lists` lists, (the item ids it holds, the condition of each: the
    sentence it shows, "good" or "bad"), dealt as the module docstring says.

    Raises:
        StudyError: when an item is not a pair, or there are fewer than 2 x replication lists
            (an item's good and bad sentences each need `replication` lists of their own).
    """
    if replication < 1 or n_lists < 2 * replication:
        raise StudyError(
            f"A rating study shows each item's good and bad sentences in different lists, so with "
            f"replication {replication} it needs at least {2 * replication} lists; it has {n_lists}."
        )
    triplets = [i.item_id for i in items if i.kind != "pair"]
    if triplets:
        raise StudyError(
            f"Ratings are made of minimal pairs only; {len(triplets)} item(s) are learner triplets "
            f"(e.g. {triplets[0]!r})."
        )
    by_paradigm: dict[str, list[StudyItem]] = defaultdict(list)
    for item in items:
        by_paradigm[item.paradigm].append(item)
    rng = random.Random(derive_seed("mpp-study", seed, "rating-lists"))
    # A seeded start list (list 1 does not always get the extra entries) and a seeded first
    # condition; with n even the start slot is even (see the module docstring).
    slot = rng.randrange(n_lists) if n_lists % 2 else 2 * rng.randrange(n_lists // 2)
    flip = rng.randrange(2)
    ids: list[list[str]] = [[] for _ in range(n_lists)]
    conditions: list[list[Condition]] = [[] for _ in range(n_lists)]
    for paradigm in sorted(by_paradigm):
        pool = sorted(by_paradigm[paradigm], key=lambda i: i.item_id)
        random.Random(derive_seed("mpp-study", seed, "deal", paradigm)).shuffle(pool)
        for item in pool:
            for _ in range(2 * replication):
                position, round_ = slot % n_lists, slot // n_lists
                parity = slot + flip + (round_ if n_lists % 2 == 0 else 0)
                ids[position].append(item.item_id)
                conditions[position].append(CONDITIONS[parity % 2])
                slot += 1
    return tuple((tuple(i), tuple(c)) for i, c in zip(ids, conditions, strict=True))
