"""Which list the next participant gets: the least-filled one, counting completed participations
and live leases (participations started and not yet expired), as pure functions the platform
calls inside its own transaction.

Why count started participations, and free them when they expire: PCIbex's counter (the
usual tool for Latin-square lists) moves on when a participant *finishes*, so the first wave of
participants, who all start before anyone finishes, get the same list; moving the increment to
the start (`SetCounter("inc", 1)`) fixes that but counts every dropout as if they had finished,
so a list whose participants happen to drop out ends with fewer completed responses than the
others (tmalsburg.github.io/latin-squares-with-ibex.html; bride-of-frankensystem #16 saw "24 in
some conditions and 16 in others"). Here a participation counts from the moment it starts (a
lease), so a wave spreads over all lists, and a lease that is not completed within its TTL, or
that the participant returns or withdraws from, stops counting, so its slot goes to the next
participant and every list fills to the same number of completes. A participant slower than the
TTL who still finishes counts as completed: that list gets one extra response, never one fewer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from study.errors import StudyError

LeaseStatus = Literal["completed", "active", "abandoned"]


@dataclass(frozen=True, slots=True)
class Lease:
    """One participation: the list it holds, when it started, when it was completed (None while
    not), and whether it was released early (returned on Prolific, withdrawn, rejected)."""

    participant_id: str
    list_index: int
    started_at: datetime
    completed_at: datetime | None = None
    released: bool = False


@dataclass(frozen=True, slots=True)
class ListFill:
    """A list's participations: completed ones, active leases, and abandoned ones (expired or
    released; shown on the dashboard, not counted when assigning)."""

    list_index: int
    completed: int = 0
    active: int = 0
    abandoned: int = 0

    @property
    def filled(self) -> int:
        """Return the count that decides assignment: completed + active leases."""
        return self.completed + self.active


def lease_expired(started_at: datetime, now: datetime, ttl: timedelta) -> bool:
    """Return True when a lease started at `started_at` is older than `ttl` at `now`."""
    return now - started_at > ttl


def lease_status(lease: Lease, now: datetime, ttl: timedelta) -> LeaseStatus:
    """Return "completed" when the lease was completed, "abandoned" when it was released or has
    expired without completion, else "active"."""
    if lease.completed_at is not None:
        return "completed"
    if lease.released or lease_expired(lease.started_at, now, ttl):
        return "abandoned"
    return "active"


def list_fills(n_lists: int, leases: Iterable[Lease], now: datetime, ttl: timedelta) -> tuple[ListFill, ...]:
    """Return one ListFill per list (index 0..n_lists-1) counting `leases` by their status at `now`."""
    if n_lists < 1:
        raise StudyError("A study needs at least one list to assign participants to.")
    counts = [[0, 0, 0] for _ in range(n_lists)]
    slot = {"completed": 0, "active": 1, "abandoned": 2}
    for lease in leases:
        if not 0 <= lease.list_index < n_lists:
            raise StudyError(
                f"Participant {lease.participant_id!r} holds list {lease.list_index + 1}, "
                f"but the study has {n_lists} lists."
            )
        counts[lease.list_index][slot[lease_status(lease, now, ttl)]] += 1
    return tuple(ListFill(i, *c) for i, c in enumerate(counts))


def least_filled_list(fills: Sequence[ListFill]) -> int:
    """Return the index of the list with the fewest completed + active participations (the
    lowest index among ties). Abandoned participations do not count: their slots are free."""
    if not fills:
        raise StudyError("A study needs at least one list to assign participants to.")
    return min(fills, key=lambda f: (f.filled, f.list_index)).list_index


class ListsFull(StudyError):
    """Every list is at its quota: `for_now` when live leases hold some of the places (one may
    free up when a participant abandons), else every place is a completed participation."""

    def __init__(self, quota: int, for_now: bool) -> None:
        held = "some are held by participants still working" if for_now else "all are completed"
        super().__init__(f"Every list has its {quota} participants: {held}.")
        self.quota = quota
        self.for_now = for_now


@dataclass(frozen=True, slots=True)
class Assignment:
    """The list a participant works on, and whether it is their earlier lease resumed."""

    list_index: int
    resumed: bool


def assign_list(
    participant_id: str,
    n_lists: int,
    leases: Sequence[Lease],
    now: datetime,
    ttl: timedelta,
    quota: int | None = None,
) -> Assignment:
    """Return the participant's Assignment: the list of their own earlier lease if they have one
    (a reload resumes; so does a return after the lease expired, and the platform renews the
    lease, so their answers stay on one list), else the least-filled list. A participant who
    completed, withdrew or returned the study is a StudyError: one participation per id.

    With a `quota` (participants per list), a new participant gets a list only while its
    completed + active count is under the quota; ListsFull when no list is."""
    for lease in leases:
        if lease.participant_id != participant_id:
            continue
        if lease.completed_at is not None:
            raise StudyError("This participant has already taken part in the study.")
        if lease.released:
            raise StudyError(
                "This participant withdrew from (or returned) the study and cannot take it again."
            )
        return Assignment(lease.list_index, resumed=True)
    return Assignment(open_list(list_fills(n_lists, leases, now, ttl), quota), resumed=False)


def open_list(fills: Sequence[ListFill], quota: int | None = None) -> int:
    """Return the list the next new participant gets: the least-filled one, while its completed
    + active count is under `quota` (no limit when None); ListsFull when no list has a place."""
    chosen = least_filled_list(fills)
    if quota is not None and fills[chosen].filled >= quota:
        raise ListsFull(quota, for_now=any(fill.completed < quota for fill in fills))
    return chosen
