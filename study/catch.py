"""Catch trials: pairs whose answer nobody who reads them can miss, to find participants who do
not read. Either the researcher writes them (good, bad), or one is made from a good sentence of
the study by scrambling its word order (characters for Chinese and Japanese, which are written
without spaces). A scramble is never the original sentence; it keeps the final punctuation and
the sentence-initial capital where they were, so neither gives the answer away."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from study.errors import StudyError

CatchMethod = Literal["reverse", "shuffle"]
CATCH_METHODS: tuple[str, ...] = ("reverse", "shuffle")
HAND_WRITTEN = "hand-written"

# Sentence-final punctuation stays at the end of a scramble (Western and CJK full-width forms).
_FINAL_PUNCTUATION = ".!?。！？…\"'”’」』)）"
# How many seeded shuffles are tried for one that keeps no two neighbouring words in order.
SHUFFLE_ATTEMPTS = 64


@dataclass(frozen=True, slots=True)
class CatchTrial:
    """A catch trial of one list: `good` is the right answer, `bad` the unmistakably bad one.

    `source` is the item id whose good sentence was scrambled, or "hand-written";
    `method` is "reverse", "shuffle" or "hand-written".
    """

    catch_id: str
    good: str
    bad: str
    source: str
    method: str

    def to_dict(self) -> dict[str, Any]:
        """Return the catch trial as JSON-ready data (`from_dict` reads it back)."""
        return {
            "catch_id": self.catch_id,
            "good": self.good,
            "bad": self.bad,
            "source": self.source,
            "method": self.method,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CatchTrial:
        """Return the catch trial `to_dict` wrote; a StudyError names a missing field."""
        try:
            return cls(
                catch_id=str(data["catch_id"]),
                good=str(data["good"]),
                bad=str(data["bad"]),
                source=str(data.get("source", HAND_WRITTEN)),
                method=str(data.get("method", HAND_WRITTEN)),
            )
        except KeyError as missing:
            raise StudyError(f"A stored catch trial has no {missing.args[0]!r} field.") from None


def _is_cjk_char(char: str) -> bool:
    code = ord(char)
    return (
        0x4E00 <= code <= 0x9FFF  # CJK unified ideographs
        or 0x3400 <= code <= 0x4DBF  # extension A
        or 0x20000 <= code <= 0x2FA1F  # extensions B-F, compatibility supplement
        or 0xF900 <= code <= 0xFAFF  # compatibility ideographs
        or 0x3040 <= code <= 0x30FF  # hiragana, katakana
    )


def is_cjk(text: str) -> bool:
    """Return True when most letters of `text` are Chinese characters (or kana): such text is
    written without spaces between words, so it is scrambled by characters."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    return sum(_is_cjk_char(c) for c in letters) * 2 >= len(letters)


def _split(sentence: str) -> tuple[list[str], str, bool]:
    """Return the units to scramble, the final punctuation, and whether units join without spaces."""
    text = sentence.strip()
    end = len(text)
    while end > 0 and text[end - 1] in _FINAL_PUNCTUATION:
        end -= 1
    body, tail = text[:end].rstrip(), text[end:]
    if is_cjk(body):
        return [c for c in body if not c.isspace()], tail, True
    return body.split(), tail, False


def _decapitalise(word: str) -> str:
    # "The" moves into the middle as "the"; "I", acronyms ("USA") and words with inner capitals
    # (proper names cannot be told apart, so "Mary" becomes "mary": the sentence is bad anyway).
    if len(word) > 1 and word[0].isupper() and word[1:] == word[1:].lower() and word != "I":
        return word[0].lower() + word[1:]
    return word


def _capitalise(word: str) -> str:
    return word[0].upper() + word[1:] if word else word


def _render(units: list[str], tail: str, joined: bool, capitalised: bool) -> str:
    if joined:
        return "".join(units) + tail
    words = list(units)
    if capitalised:
        words = [_decapitalise(w) for w in words]
        words[0] = _capitalise(words[0])
    return " ".join(words) + tail


def _kept_bigrams(original: list[str], order: list[int]) -> int:
    """Return how many neighbouring units of the original stay neighbours, in the same order."""
    return sum(1 for a, b in itertools.pairwise(order) if b == a + 1 or original[a] == original[b])


def _differs(candidate: str, sentence: str) -> bool:
    return candidate.casefold().split() != sentence.strip().casefold().split() and (
        "".join(candidate.split()).casefold() != "".join(sentence.split()).casefold()
    )


def scramble(
    sentence: str, rng: random.Random, method: CatchMethod = "shuffle", min_units: int = 4
) -> str | None:
    """Return `sentence` with its words (characters for CJK text) put in a bad order, or None
    when it has fewer than `min_units` words or no order differs from it (all words the same).

    "reverse" reverses the words; "shuffle" draws seeded shuffles until one keeps no two
    neighbouring words together (at most SHUFFLE_ATTEMPTS, else the one that keeps fewest).
    Whatever the method, the result is never equal to the sentence: a reversal that reads the
    same falls back to a shuffle, and a shuffle that finds nothing new to a rotation.
    """
    if method not in CATCH_METHODS:
        raise StudyError(f"The catch-trial method must be one of {', '.join(CATCH_METHODS)}, not {method!r}.")
    units, tail, joined = _split(sentence)
    if len(units) < max(2, min_units) or len(set(units)) < 2:
        return None
    capitalised = not joined and units[0][:1].isupper()
    candidates: list[list[int]] = []
    if method == "reverse":
        candidates.append(list(reversed(range(len(units)))))
    best: list[int] | None = None
    best_kept = len(units)
    for _ in range(SHUFFLE_ATTEMPTS):
        order = list(range(len(units)))
        rng.shuffle(order)
        kept = _kept_bigrams(units, order)
        if kept < best_kept and _differs(
            _render([units[i] for i in order], tail, joined, capitalised), sentence
        ):
            best, best_kept = order, kept
            if kept == 0:
                break
    if best is not None:
        candidates.append(best)
    candidates.append([*list(range(1, len(units))), 0])  # a rotation differs unless all units are equal
    for order in candidates:
        result = _render([units[i] for i in order], tail, joined, capitalised)
        if _differs(result, sentence):
            return result
    return None


def hand_written_catch(pairs: Sequence[Sequence[str]]) -> list[CatchTrial]:
    """Return the researcher's (good, bad) catch pairs as catch trials, numbered from 1; a pair
    with an empty sentence or two equal sentences is a StudyError naming it."""
    trials = []
    for number, pair in enumerate(pairs, start=1):
        if len(pair) != 2:
            raise StudyError(f"Catch pair {number} must have two sentences (good, bad), got {len(pair)}.")
        good, bad = (str(s).strip() for s in pair)
        if not good or not bad:
            raise StudyError(f"Catch pair {number} has an empty sentence.")
        if good == bad:
            raise StudyError(f"Catch pair {number} shows the same sentence twice: {good!r}.")
        trials.append(CatchTrial(f"catch-hw-{number}", good, bad, HAND_WRITTEN, HAND_WRITTEN))
    return trials
