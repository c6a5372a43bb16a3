"""Cut a sentence into plain and highlighted segments by character spans (its critical region)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of a sentence and the labels of the spans covering it (none: plain text).

    A marked segment with no text is a gap: the point where the other sentence has material
    this one lacks (the place of an insertion, deletion or copy).
    """

    text: str
    labels: tuple[str, ...] = ()

    @property
    def marked(self) -> bool:
        return bool(self.labels)

    @property
    def gap(self) -> bool:
        return self.marked and not self.text

    @property
    def title(self) -> str:
        return ", ".join(self.labels)


def segments(text: str, spans: Sequence[tuple[int, int, str]]) -> list[Segment]:
    """Return `text` as consecutive segments, marked by the (start, end, label) spans covering them.

    Offsets are character offsets (end exclusive), clipped to the text. An empty span becomes an
    empty marked segment at its point, before the text that starts there. Adjacent segments with
    the same labels are merged; joining the segments' texts gives back `text`.
    """
    length = len(text)
    clipped = [(min(max(s, 0), length), min(max(e, 0), length), label) for s, e, label in spans]
    clipped = [(s, max(s, e), label) for s, e, label in clipped]
    points = sorted({0, length, *(s for s, _, _ in clipped), *(e for _, e, _ in clipped)})
    out: list[Segment] = []

    def add(piece: Segment) -> None:
        if out and piece.text and out[-1].text and out[-1].labels == piece.labels:
            out[-1] = Segment(out[-1].text + piece.text, piece.labels)
        elif piece.text or piece.labels:
            out.append(piece)

    for index, point in enumerate(points):
        gap_labels = _unique(label for s, e, label in clipped if s == e == point)
        if gap_labels:
            add(Segment("", gap_labels))
        if index + 1 < len(points):
            end = points[index + 1]
            labels = _unique(label for s, e, label in clipped if s <= point and end <= e and s < e)
            add(Segment(text[point:end], labels))
    return out


def _unique(labels: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(labels))
