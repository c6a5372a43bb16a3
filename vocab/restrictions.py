"""Selectional restrictions: expressions over feature values that a word must satisfy.

A restriction is written in disjunctive normal form, as BLiMP's `arg_1`/`arg_2` columns are:
`;` separates alternatives (or), `^` joins conditions (and), and each condition is
`feature=value`. `animate=1^sg=1;institution=1` holds for an item that is animate and singular,
or an institution. A blank restriction holds for every item (BLiMP reads a blank cell so).

An item satisfies a condition when the feature (a schema feature or a reserved column such as
`form`) has that value among its values; an item without the feature satisfies none of them,
except `feature=` with no value, which holds exactly for the items without it (BLiMP compares
the blank cell so: `physical=1^locale=` is a physical thing that is not marked for locale).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vocab.lexicon import Vocabulary


class RestrictionError(ValueError):
    """A restriction that is not in the `f=v^f=v;f=v` form; the message names the bad part."""


@dataclass(frozen=True, slots=True)
class Restriction:
    """A parsed restriction: alternatives, each a conjunction of (feature, value) conditions."""

    text: str
    alternatives: tuple[tuple[tuple[str, str], ...], ...]

    @property
    def features(self) -> frozenset[str]:
        """Return the features the restriction names."""
        return frozenset(f for conj in self.alternatives for f, _ in conj)


def parse_restriction(text: str) -> Restriction:
    """Return the restriction written in `text` (blank: no restriction, no alternatives).

    Raises:
        RestrictionError: naming the alternative or condition that is not `feature=value`.
    """
    stripped = text.strip()
    if not stripped:
        return Restriction("", ())
    alternatives: list[tuple[tuple[str, str], ...]] = []
    for alternative in stripped.split(";"):
        if not alternative.strip():
            raise RestrictionError(f"'{stripped}' has an empty alternative between its ';'")
        conditions: list[tuple[str, str]] = []
        for condition in alternative.split("^"):
            feature, equals, value = condition.partition("=")
            feature, value = feature.strip(), value.strip()
            if not equals or not feature or "=" in value:
                raise RestrictionError(
                    f"'{condition.strip()}' in '{stripped}' is not a condition feature=value "
                    "(write alternatives as a=1;b=1 and joined conditions as a=1^b=1)"
                )
            conditions.append((feature, value))
        alternatives.append(tuple(conditions))
    return Restriction(stripped, tuple(alternatives))


def restriction_text(text: str) -> str:
    """Return a restriction's canonical text (trimmed, checked), as a vocabulary cell stores it.

    Raises:
        RestrictionError: if the text is not a restriction.
    """
    return parse_restriction(text).text


def satisfying_items(restriction: Restriction, vocabulary: Vocabulary) -> frozenset[int] | None:
    """Return the indexes of the vocabulary's items that satisfy `restriction`, or None when it
    is blank (every item does).

    A value is compared in the vocabulary's spelling of it (a bool feature's `yes` is `1`); one
    its feature cannot hold matches no item.
    """
    if not restriction.alternatives:
        return None
    found: set[int] = set()
    for conjunction in restriction.alternatives:
        selected: set[int] | None = None
        for feature, value in conjunction:
            spec = vocabulary.schema.spec(feature)
            try:
                spelled = spec.normalize(value) if spec is not None else value
            except ValueError:  # not a value of the feature (FeatureValueError)
                spelled = value
            index = vocabulary.index(feature)
            if value:
                matching = set(index.get(spelled, ()))
            else:
                matching = set(range(len(vocabulary))).difference(*index.values())
            selected = matching if selected is None else selected & matching
            if not selected:
                break
        found |= selected or set()
    return frozenset(found)
