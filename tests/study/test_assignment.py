"""List assignment: least filled by completed + live leases, expired leases free their slot."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from study.assignment import (
    Lease,
    ListFill,
    assign_list,
    lease_expired,
    lease_status,
    least_filled_list,
    list_fills,
)
from study.errors import StudyError

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
TTL = timedelta(minutes=60)


def started(minutes_ago: float) -> datetime:
    return NOW - timedelta(minutes=minutes_ago)


def test_least_filled_counts_completed_and_active_leases() -> None:
    fills = [ListFill(0, completed=2, active=0), ListFill(1, completed=0, active=3), ListFill(2, completed=1)]
    assert least_filled_list(fills) == 2  # list 1 has no completions, but three people are on it
    assert [f.filled for f in fills] == [2, 3, 1]


def test_ties_go_to_the_lowest_index() -> None:
    assert least_filled_list([ListFill(0, 2, 0), ListFill(1, 1, 1), ListFill(2, 0, 2)]) == 0
    assert least_filled_list([ListFill(0, 2, 1), ListFill(1, 1, 1), ListFill(2, 0, 2)]) == 1


def test_abandoned_participations_do_not_count() -> None:
    fills = [ListFill(0, completed=2, active=0, abandoned=0), ListFill(1, completed=1, active=0, abandoned=9)]
    assert least_filled_list(fills) == 1


def test_a_wave_of_starters_spreads_over_all_lists() -> None:
    """The PCIbex pitfall: with completions alone, everyone who starts before the first
    finishes gets list 1; counting leases spreads them."""
    leases: list[Lease] = []
    for i in range(9):
        assignment = assign_list(f"p{i}", 3, leases, NOW, TTL)
        assert not assignment.resumed
        leases.append(Lease(f"p{i}", assignment.list_index, NOW))
    assert sorted(lease.list_index for lease in leases) == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_an_expired_lease_frees_its_slot() -> None:
    leases = [
        Lease("a", 0, started(120), completed_at=started(70)),  # completed late: still completed
        Lease("b", 1, started(61)),  # abandoned: older than the TTL
        Lease("c", 2, started(10)),  # active
        Lease("d", 0, started(5)),  # active
    ]
    fills = list_fills(3, leases, NOW, TTL)
    assert fills == (ListFill(0, 1, 1, 0), ListFill(1, 0, 0, 1), ListFill(2, 0, 1, 0))
    assert assign_list("new", 3, leases, NOW, TTL).list_index == 1
    # ten minutes earlier b was still working: its list counted as filled
    earlier = list_fills(3, leases, NOW - timedelta(minutes=10), TTL)
    assert earlier[1].active == 1
    assert [f.filled for f in earlier] == [2, 1, 1]


def test_released_leases_free_their_slot_at_once() -> None:
    leases = [Lease("a", 0, started(1), released=True), Lease("b", 1, started(1))]
    assert lease_status(leases[0], NOW, TTL) == "abandoned"
    assert assign_list("c", 2, leases, NOW, TTL).list_index == 0


def test_lease_expiry_boundary() -> None:
    assert not lease_expired(started(60), NOW, TTL)
    assert lease_expired(started(60.01), NOW, TTL)
    assert lease_status(Lease("x", 0, started(30)), NOW, TTL) == "active"


def test_a_returning_participant_resumes_their_list() -> None:
    leases = [Lease("a", 2, started(5)), Lease("b", 0, started(90))]
    assert assign_list("a", 3, leases, NOW, TTL).list_index == 2
    assert assign_list("a", 3, leases, NOW, TTL).resumed
    back = assign_list("b", 3, leases, NOW, TTL)  # expired, came back: same list
    assert back.list_index == 0 and back.resumed


def test_one_participation_per_participant() -> None:
    done = [Lease("a", 0, started(50), completed_at=started(10))]
    with pytest.raises(StudyError, match="already taken part"):
        assign_list("a", 2, done, NOW, TTL)
    gone = [Lease("a", 0, started(50), released=True)]
    with pytest.raises(StudyError, match="withdrew"):
        assign_list("a", 2, gone, NOW, TTL)


def test_dropouts_do_not_unbalance_completed_counts() -> None:
    """Simulate arrivals where everyone on list 0 drops out at first: freed slots are refilled,
    so every list ends with the same number of completions."""
    leases: list[Lease] = []
    clock = NOW
    completions = [0, 0, 0]
    for i in range(60):
        clock += timedelta(minutes=10)
        assignment = assign_list(f"p{i}", 3, leases, clock, TTL)
        index = assignment.list_index
        drops = index == 0 and i < 30
        if drops:
            leases.append(Lease(f"p{i}", index, clock))
        else:
            leases.append(Lease(f"p{i}", index, clock, completed_at=clock + timedelta(minutes=5)))
            completions[index] += 1
        if min(completions) == 10:
            break
    assert max(completions) - min(completions) <= 1


def test_a_lease_on_a_list_that_does_not_exist_is_named() -> None:
    with pytest.raises(StudyError, match="holds list 5, but the study has 3 lists"):
        list_fills(3, [Lease("z", 4, NOW)], NOW, TTL)
    with pytest.raises(StudyError, match="at least one list"):
        least_filled_list([])
