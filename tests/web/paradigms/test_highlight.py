"""Cutting a sentence into plain and marked segments by character spans."""

import pytest

from mpp_studio.paradigms.highlight import Segment, segments


@pytest.mark.parametrize(
    ("text", "spans", "expected"),
    [
        ("The cat sleeps.", [], [Segment("The cat sleeps.")]),
        (
            "The cat sleeps.",
            [(8, 14, "substitution")],
            [Segment("The cat "), Segment("sleeps", ("substitution",)), Segment(".")],
        ),
        (
            "一本书",
            [(1, 2, "substitution")],
            [Segment("一"), Segment("本", ("substitution",)), Segment("书")],
        ),
        # A zero-width span is a gap before the text at its point; at the end, after everything.
        ("Tom ran.", [(4, 4, "deletion")], [Segment("Tom "), Segment("", ("deletion",)), Segment("ran.")]),
        ("Tom ran", [(7, 7, "insertion")], [Segment("Tom ran"), Segment("", ("insertion",))]),
        # Overlapping spans: the overlap carries both labels.
        (
            "abcdef",
            [(0, 4, "move"), (2, 6, "move source")],
            [
                Segment("ab", ("move",)),
                Segment("cd", ("move", "move source")),
                Segment("ef", ("move source",)),
            ],
        ),
        # Offsets outside the text are clipped.
        ("abc", [(2, 9, "substitution")], [Segment("ab"), Segment("c", ("substitution",))]),
    ],
)
def test_segments_cut_text_at_span_boundaries(
    text: str, spans: list[tuple[int, int, str]], expected: list[Segment]
) -> None:
    result = segments(text, spans)
    assert result == expected
    assert "".join(segment.text for segment in result) == text


def test_segment_gap_and_title() -> None:
    gap = Segment("", ("deletion", "copy"))
    assert gap.gap and gap.marked and gap.title == "deletion, copy"
    assert not Segment("plain").marked
