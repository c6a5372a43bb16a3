"""spaCy's attribute ruler, memoised: the same token attributes for a fifth of the time.

In `en_core_web_sm` the attribute ruler (which maps tags to POS and morphology) runs a Matcher
of 179 patterns over every sentence: a fifth of the parse time in the triplet pipeline, and
batching does not help it. 171 of the patterns look at one token and read only its tag, lower
form, dependency and whether it is a space, so which of them match depends on those four values
alone: `MemoisedAttributeRuler` computes that once per distinct combination and applies the
matching rules in spaCy's order (by rule id; a rule only ever changes the token it matched). The
few multi-token patterns still go through a Matcher, before any attribute is changed, as
spaCy's own ruler does.

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
    """The ruler's rules split into memoisable single-token ones and a Matcher for the rest."""

    def __init__(self, ruler: Any) -> None:
        from spacy.matcher import Matcher

        self.single: list[tuple[int, list[dict[str, Any]]]] = []
        self.multi = Matcher(ruler.vocab)
        self.has_multi = False
        self.memo: dict[tuple[Any, ...], list[int]] = {}
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

    def matching(self, key: tuple[Any, ...]) -> list[int]:
        """Return the ids of the single-token rules a token with these values matches."""
        found = self.memo.get(key)
        if found is None:
            values = dict(zip(_READ, key, strict=True))
            found = [
                rule_id
                for rule_id, alternatives in self.single
                if any(all(_value_matches(values[k], v) for k, v in p.items()) for p in alternatives)
            ]
            if len(self.memo) >= MEMO_LIMIT:
                self.memo.clear()
            self.memo[key] = found
        return found


def _apply(ruler: Any, rules: _Rules, doc: Doc) -> Doc:
    from spacy.tokens._retokenize import set_token_attrs

    extra: dict[int, list[int]] = {}
    if rules.has_multi:
        for match_id, start, end in rules.multi(doc, allow_missing=True, as_spans=False):
            rule_id = int(ruler.vocab.strings[match_id])
            extra.setdefault(range(start, end)[ruler.indices[rule_id]], []).append(rule_id)
    for token in doc:
        ids = rules.matching((token.tag_, token.lower_, token.dep_, token.is_space))
        if token.i in extra:
            ids = sorted(ids + extra[token.i])
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
