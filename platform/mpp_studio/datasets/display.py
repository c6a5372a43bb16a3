"""A stored pair as the pages show it: each sentence cut into segments, the critical region marked."""

from dataclasses import dataclass

from mpp_studio.datasets.models import Pair
from mpp_studio.paradigms.highlight import Segment, segments


@dataclass(frozen=True, slots=True)
class PairView:
    pair: Pair
    good_segments: list[Segment]
    bad_segments: list[Segment]
    edits: tuple[str, ...]  # the edit type of each part of the critical region


def _chars(side: object) -> tuple[int, int] | None:
    if not isinstance(side, dict):
        return None
    chars = side.get("chars")
    if isinstance(chars, list) and len(chars) == 2 and all(isinstance(c, int) for c in chars):
        return chars[0], chars[1]
    return None


def pair_view(pair: Pair) -> PairView:
    """Return the pair with the character spans of its recorded critical region marked."""
    region = pair.record.get("critical_region") if isinstance(pair.record, dict) else None
    good_spans: list[tuple[int, int, str]] = []
    bad_spans: list[tuple[int, int, str]] = []
    edits: list[str] = []
    for part in region if isinstance(region, list) else []:
        if not isinstance(part, dict):
            continue
        kind = str(part.get("type", "edit"))
        edits.append(kind)
        good, bad, source = _chars(part.get("good")), _chars(part.get("bad")), _chars(part.get("source"))
        if good is not None:
            good_spans.append((*good, kind))
        if bad is not None:
            bad_spans.append((*bad, kind))
        if source is not None and source != good:
            good_spans.append((*source, f"{kind} source"))
    return PairView(
        pair=pair,
        good_segments=segments(pair.sentence_good, good_spans),
        bad_segments=segments(pair.sentence_bad, bad_spans),
        edits=tuple(edits),
    )
