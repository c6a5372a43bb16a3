"""Study items built by hand for the study-design tests."""

from __future__ import annotations

from study.items import StudyItem

NOUNS = ("dog", "cat", "bird", "horse", "teacher", "child", "farmer", "doctor", "singer", "baker")


def pair_items(paradigms: dict[str, int], phenomenon: str = "agreement") -> list[StudyItem]:
    """Return `n` English pairs for each paradigm name -> n, ids "<paradigm>-<i>"."""
    items = []
    for paradigm, n in paradigms.items():
        for i in range(n):
            noun = NOUNS[i % len(NOUNS)]
            items.append(
                StudyItem(
                    item_id=f"{paradigm}-{i}",
                    paradigm=paradigm,
                    phenomenon=phenomenon,
                    kind="pair",
                    sentences=(
                        f"The {noun} near the {paradigm} house sees {i} apples.",
                        f"The {noun} near the {paradigm} house see {i} apples.",
                    ),
                    words=(("subject", noun), ("verb", "see")),
                )
            )
    return items


def triplet_items(n: int, paradigm: str = "R:VERB:SVA") -> list[StudyItem]:
    """Return `n` learner triplets of one ERRANT type."""
    return [
        StudyItem(
            item_id=f"t-{i}",
            paradigm=paradigm,
            phenomenon=paradigm,
            kind="triplet",
            sentences=(
                f"She goes to school every day number {i}.",
                f"She go to school every day number {i}.",
                f"She goes to school every days number {i}.",
            ),
        )
        for i in range(n)
    ]
