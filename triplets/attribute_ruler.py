"""spaCy's attribute ruler, memoised: the same token attributes for a fifth of the time.

In `en_core_web_sm` the attribute ruler (which maps tags to POS and morphology) runs a Matcher
of 179 patterns over every sentence: a fifth of the parse time in the triplet pipeline, and
batching does not help it. 171 of the patterns look at one token and read only its tag, lower
form, dependency and whether it is a space, so which of them match depends on those four values
alone: `MemoisedAttributeRuler` computes that once per distinct combination and applies the
matching rules in spaCy's order (by rule id; a rule only ever changes the token it matched). The
few multi-token patterns (two tokens each in en_core_web_sm) are matched from the same memoised
values when each is a fixed sequence of such token patterns (else by a Matcher), before any
attribute is changed, as spaCy's own ruler does. The values are read from the doc's arrays, not
token by token.

`install` replaces the ruler only when every single-token pattern is of that kind; otherwise the
stock ruler stays. `tests/triplets/test_attribute_ruler.py` checks every token of the
demo corpus against the stock pipeline.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

# The token attributes single-token patterns may read, and the Token property each one is.
_READ = {"TAG": "tag_", "LOWER": "lower_", "DEP": "dep_", "IS_SPACE": "is_space"}
_OPERATORS = frozenset({"IN", "NOT_IN", "REGEX"})
MEMO_LIMIT = 200_000  # distinct (tag, lower, dep, space) combinations kept before starting over


def _value_matches(value: Any, spec: Any) -> bool:
    if isinstance(spec, dict):
        ((operator, argument),) = spec.items()
        if operator == "IN":
            return value in argument
        if operator == "NOT_IN":
            return value not in argument
        return re.search(argument, value) is not None
    return bool(value == spec)


def _supported(pattern: dict[str, Any]) -> bool:
    if not set(pattern) <= set(_READ):
        return False
    return all(
        not isinstance(spec, dict) or (len(spec) == 1 and set(spec) <= _OPERATORS)
        for spec in pattern.values()
    )


class _Rules:
    """The ruler's rules split into memoisable single-token ones and the multi-token ones (matched
    here when each is a fixed sequence of supported token patterns, else by a Matcher)."""

    def __init__(self, ruler: Any) -> None:
        from spacy.matcher import Matcher

        self.single: list[tuple[int, list[dict[str, Any]]]] = []
        self.multi = Matcher(ruler.vocab)
        self.has_multi = False
        # (rule id, its alternatives) of the multi-token rules; None: one needs the Matcher
        self.sequences: list[tuple[int, list[list[dict[str, Any]]]]] | None = []
        self.memo: dict[tuple[int, ...], tuple[list[int], frozenset[tuple[int, int, int]]]] = {}
        self.strings = ruler.vocab.strings
        self.supported = True
        for rule_id in range(len(ruler.attrs)):
            alternatives = ruler.matcher.get(str(rule_id))[1]
            if all(len(p) == 1 for p in alternatives):
                if not all(_supported(p[0]) for p in alternatives):
                    self.supported = False
                self.single.append((rule_id, [p[0] for p in alternatives]))
            else:
                self.multi.add(str(rule_id), alternatives)
                self.has_multi = True
                if self.sequences is not None and all(_supported(t) for p in alternatives for t in p):
                    self.sequences.append((rule_id, alternatives))
                else:  # an operator ("OP") or another attribute: spaCy's Matcher decides
                    self.sequences = None

    def matching(self, key: tuple[int, ...]) -> tuple[list[int], frozenset[tuple[int, int, int]]]:
        """Return the ids of the single-token rules a token with these values (hashes of the tag,
        lower form and dependency, and is-space) matches, and the (rule, alternative, position)
        of the multi-token patterns it fits."""
        found = self.memo.get(key)
        if found is None:
            tag, lower, dep, space = key
            values = dict(
                zip(
                    _READ,
                    (self.strings[tag], self.strings[lower], self.strings[dep], bool(space)),
                    strict=True,
                )
            )

            def fits(pattern: dict[str, Any]) -> bool:
                return all(_value_matches(values[k], v) for k, v in pattern.items())

            single = [rule_id for rule_id, alternatives in self.single if any(fits(p) for p in alternatives)]
            places = frozenset(
                (rule_id, a, position)
                for rule_id, alternatives in self.sequences or ()
                for a, alternative in enumerate(alternatives)
                for position, pattern in enumerate(alternative)
                if fits(pattern)
            )
            found = (single, places)
            if len(self.memo) >= MEMO_LIMIT:
                self.memo.clear()
            self.memo[key] = found
        return found


def _sequence_matches(
    rules: _Rules, places: list[frozenset[tuple[int, int, int]]]
) -> set[tuple[int, int, int]]:
    # (rule id, start, end) of every multi-token pattern that fits, as the Matcher reports them:
    # from each token that fits a pattern's first position, the pattern's other positions.
    assert rules.sequences is not None
    lengths = {(rule_id, a): len(alt) for rule_id, alts in rules.sequences for a, alt in enumerate(alts)}
    found: set[tuple[int, int, int]] = set()
    n = len(places)
    for start, fitting in enumerate(places):
        for rule_id, a, position in fitting:
            if position:
                continue
            length = lengths[(rule_id, a)]
            if start + length <= n and all((rule_id, a, k) in places[start + k] for k in range(1, length)):
                found.add((rule_id, start, start + length))
    return found


def _apply(ruler: Any, rules: _Rules, doc: Doc) -> Doc:
    from spacy.tokens._retokenize import set_token_attrs

    if not len(doc):
        return doc
    keys = doc.to_array(list(_READ)).tolist()  # the hashes of tag, lower, dep; is-space
    found = [rules.matching(tuple(key)) for key in keys]
    extra: dict[int, list[int]] = {}
    if rules.has_multi:
        if rules.sequences is None:
            matches = [
                (int(ruler.vocab.strings[match_id]), start, end)
                for match_id, start, end in rules.multi(doc, allow_missing=True, as_spans=False)
            ]
        else:
            matches = sorted(_sequence_matches(rules, [places for _, places in found]))
        for rule_id, start, end in matches:
            extra.setdefault(range(start, end)[ruler.indices[rule_id]], []).append(rule_id)
    for i, (ids, _) in enumerate(found):
        if i in extra:
            ids = sorted(ids + extra[i])
        if ids:
            token = doc[i]
            for rule_id in ids:
                set_token_attrs(token, ruler.attrs[rule_id])
    return doc


def install(nlp: Language) -> bool:
    """Give `nlp`'s attribute ruler the memoised matching; return False (stock ruler kept) when
    the pipeline has none or one of its patterns reads something else."""
    from spacy.pipeline import AttributeRuler

    if "attribute_ruler" not in nlp.pipe_names:
        return False
    ruler = nlp.get_pipe("attribute_ruler")
    if type(ruler) is not AttributeRuler:
        return False
    rules = _Rules(ruler)
    if not rules.supported:
        return False

    class MemoisedAttributeRuler(AttributeRuler):
        def __call__(self, doc: Doc) -> Doc:
            return _apply(self, rules, doc)

    ruler.__class__ = MemoisedAttributeRuler
    return True
