"""Two versions of a template side by side: which lines of the YAML changed (a unified diff, as
lines an HTML page marks), for the template's compare page."""

import difflib
from dataclasses import dataclass
from typing import Literal

LineKind = Literal["hunk", "same", "added", "removed"]
# Lines of context around each change.
CONTEXT = 3


@dataclass(frozen=True, slots=True)
class DiffLine:
    """One line of the diff: a hunk header ("lines 3–8"), a line both have, or one only the
    newer (added) or the older (removed) has; `old`/`new` are its line numbers in each text."""

    kind: LineKind
    text: str
    old: int | None = None
    new: int | None = None


def text_diff(older: str, newer: str) -> list[DiffLine]:
    """Return the lines that differ between two texts, with CONTEXT lines around each change
    (an empty list when they are the same)."""
    old_lines, new_lines = older.splitlines(), newer.splitlines()
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    out: list[DiffLine] = []
    for group in matcher.get_grouped_opcodes(CONTEXT):
        first, last = group[0], group[-1]
        out.append(
            DiffLine(
                "hunk", f"lines {first[1] + 1}–{last[2]} of the older, {first[3] + 1}–{last[4]} of the newer"
            )
        )
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [
                    DiffLine("same", old_lines[i], i + 1, j1 + k + 1) for k, i in enumerate(range(i1, i2))
                ]
                continue
            out += [DiffLine("removed", old_lines[i], old=i + 1) for i in range(i1, i2)]
            out += [DiffLine("added", new_lines[j], new=j + 1) for j in range(j1, j2)]
    return out
