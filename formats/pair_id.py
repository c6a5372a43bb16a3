"""The one stable id of a minimal pair: `<UID>/<pairID>`, its paradigm and its number there.

BLiMP and ZhoBLiMP name a pair by these two fields, and every export, page and analysis of MPP
Studio names it so (`only_npi_scope/32`), so a study's per-item agreement, a scoring run's
per-item scores and a dataset download join on one column without the database. It is unique
within a dataset; rows that span datasets carry the dataset beside it.
"""

from collections.abc import Mapping


def pair_id(uid: str, number: int | str) -> str:
    """Return the pair id of pair `number` of paradigm `uid`."""
    return f"{uid}/{number}"


def record_pair_id(record: Mapping[str, object]) -> str:
    """Return the pair id of a pair record (its `UID` and `pairID`), or "" when it lacks one."""
    uid, number = record.get("UID"), record.get("pairID")
    if not isinstance(uid, str) or not uid or number is None or number == "":
        return ""
    return pair_id(uid, str(number))
