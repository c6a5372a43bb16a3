"""A hand-computable validation study: 3 analysed participants x 4 items, one participant
excluded for a failed catch trial, with practice and filler trials that must not count.

Responses (1 = chose the gold sentence); p3 did not see i4:

    item  paradigm  words               p1 p2 p3   correct/n
    i1    A         N1=dog  V=sleeps     1  1  1   3/3
    i2    A         N1=dog  V=runs       1  1  0   2/3
    i3    B         N1=gnu  V=sleeps     1  0  0   1/3
    i4    B         N1=gnu  V=runs       1  0  -   1/2 (tie)

p4 answers every item wrong but fails one of two catch trials, so is excluded. Every item is
phenomenon X.
"""

from __future__ import annotations

from study.agreement import ItemInfo, Judgement, WordUse

PARADIGM = {"i1": "A", "i2": "A", "i3": "B", "i4": "B"}
ANSWERS = {
    "p1": {"i1": True, "i2": True, "i3": True, "i4": True},
    "p2": {"i1": True, "i2": True, "i3": False, "i4": False},
    "p3": {"i1": True, "i2": False, "i3": False},
    "p4": {"i1": False, "i2": False, "i3": False, "i4": False},
}
WORDS = {
    "i1": (WordUse("N1", "dog"), WordUse("V", "sleeps")),
    "i2": (WordUse("N1", "dog"), WordUse("V", "runs")),
    "i3": (WordUse("N1", "gnu"), WordUse("V", "sleeps")),
    "i4": (WordUse("N1", "gnu"), WordUse("V", "runs")),
}


def tiny_judgements() -> list[Judgement]:
    """Return the study's judgements: experimental, catch, practice and filler trials."""
    out = []
    for participant, answers in ANSWERS.items():
        out.append(Judgement("practice", participant, False, is_practice=True, rt_ms=50.0))
        out.append(Judgement("catch1", participant, True, is_catch=True, rt_ms=1500.0))
        out.append(Judgement("catch2", participant, participant != "p4", is_catch=True, rt_ms=1500.0))
        out.append(Judgement("filler1", participant, False, is_filler=True, rt_ms=1500.0))
        for item, correct in answers.items():
            out.append(
                Judgement(item, participant, correct, PARADIGM[item], "X", rt_ms=2000.0, chose_left=correct)
            )
    return out


def tiny_items() -> list[ItemInfo]:
    """Return the items' provenance (paradigm, phenomenon, template positions and words)."""
    return [ItemInfo(item, PARADIGM[item], "X", words) for item, words in WORDS.items()]
