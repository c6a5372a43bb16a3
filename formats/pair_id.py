"""The one stable id of a minimal pair: `<UID>/<number>`, its paradigm and its number there.

BLiMP and ZhoBLiMP name a pair by these two fields (`UID`, `pairID`), and every export, page and
analysis of MPP Studio names it so (`only_npi_scope/32`). On the platform the number is the
pair's place in its dataset's paradigm (`Pair.index`: a generated pair's `pairID`; an imported
pair keeps its file's own `pairID` beside it), so a study's per-item agreement, a scoring run's
per-item scores and a dataset download join on one column without the database. It is unique
within a dataset; rows that span datasets carry the dataset beside it.
"""

from collections.abc import Mapping


def pair_id(uid: str, number: int | str) -> str:
    """Return the pair id of pair `number` of paradigm `uid`."""
    return f"{uid}/{number}"


def pair_id_of_record(record: Mapping[str, object]) -> str:
    """Return the pair id of a pair record: its `pair_id` when the platform gave it one (the
    pair's number in its dataset), else its `UID` and `pairID`; "" when it lacks one."""
    given = record.get("pair_id")
    if isinstance(given, str) and given:
        return given
    uid, number = record.get("UID"), record.get("pairID")
    if not isinstance(uid, str) or not uid or number is None or number == "":
        return ""
    return pair_id(uid, str(number))
