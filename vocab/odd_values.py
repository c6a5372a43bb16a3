"""Feature values that look like slips of the keyboard: without a schema that lists a feature's
values, `plural` beside `pl`, or `x` beside `sg` and `pl`, becomes a value of its own, and a
template asking for `pl` silently never meets that item. A value held by very few items, in a
feature whose other values are each held by many, is shown to the author to check."""

import difflib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# At most this many items hold an odd value...
RARE = 1
# ...while some other value of the feature is held by at least this many.
COMMON = 3
# How alike two values must be (difflib's ratio) for one to be offered as the meant one.
ALIKE = 0.5


@dataclass(frozen=True, slots=True)
class OddValue:
    """A value few items hold beside common ones, the items that hold it, and the common value
    it most resembles ("" when none is alike)."""

    feature: str
    value: str
    item_ids: tuple[str, ...]
    like: str
    like_count: int


def odd_values(
    items: Iterable[tuple[str, Mapping[str, Sequence[str]]]], *, features: Iterable[str]
) -> list[OddValue]:
    """Return the odd values of `features` among `items` ((item id, feature -> values) each),
    feature by feature in the order given, each feature's values in alphabetical order."""
    wanted = list(features)
    holders: dict[str, dict[str, list[str]]] = {name: defaultdict(list) for name in wanted}
    for item_id, values in items:
        for name in wanted:
            for value in values.get(name, ()):
                holders[name][value].append(item_id)
    found: list[OddValue] = []
    for name in wanted:
        counts = Counter({value: len(ids) for value, ids in holders[name].items()})
        common = [value for value, count in counts.items() if count >= COMMON]
        if not common:
            continue
        for value in sorted(v for v, count in counts.items() if count <= RARE):
            like = _most_alike(value, common)
            found.append(
                OddValue(name, value, tuple(holders[name][value]), like, counts[like] if like else 0)
            )
    return found


def _most_alike(value: str, candidates: Sequence[str]) -> str:
    """Return the candidate most like `value` (a prefix of it, or it of one, counts as alike)."""
    best, score = "", ALIKE
    for candidate in sorted(candidates):
        ratio = difflib.SequenceMatcher(None, value.lower(), candidate.lower()).ratio()
        if value.lower().startswith(candidate.lower()) or candidate.lower().startswith(value.lower()):
            ratio = max(ratio, 0.9)
        if ratio > score:
            best, score = candidate, ratio
    return best
