"""spaCy's rule lemmatizer, memoised: the same lemmas for a fraction of the time.

spaCy's `Lemmatizer.__call__` builds a Token object for every token without a lemma yet (the
attribute ruler sets some) and asks `rule_lemmatize`, which looks the token up in its cache by
(orth, POS, morphology) but stores there only the lemmas its rules made: a base form (a singular
noun, an adjective, an infinitive: most tokens) is worked out again each time, reading the
token's POS and morphology. Everything `rule_lemmatize` reads (the text, the POS, the morphology
through `is_base_form`, and the lemmatizer's tables) is fixed by those three values, so
`MemoisedLemmatizer` reads them for the whole doc with `Doc.to_array`, asks spaCy's own
`lemmatize` once per distinct combination (which fills spaCy's cache as before) and keeps the
answer; a token without a POS, for which spaCy warns, is asked each time. The lemmas are written
back with one `Doc.from_array([LEMMA])`, which stores each token's lemma field as
`token.lemma_ = ...` does (the string's hash, the string added to the vocabulary first).

`install` replaces the lemmatizer only when it is spaCy's rule lemmatizer as read here (rule
mode, not overwriting, spaCy's own `__call__`, `rule_lemmatize` and English or default
`is_base_form`); otherwise the stock one stays. `tests/triplets/test_attribute_ruler.py` checks
every token's lemma (and every other attribute) of the demo and the learner-length corpus against
the stock pipeline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc


MEMO_LIMIT = 200_000  # distinct (orth, POS, morphology) lemmas kept before starting over


def _apply(lemmatizer: Any, memo: dict[tuple[int, int, int], int], doc: Doc) -> Doc | None:
    from spacy.errors import Errors

    if not lemmatizer._validated:
        lemmatizer._validate_tables(Errors.E1004)
    error_handler = lemmatizer.get_error_handler()
    try:
        if not len(doc):
            return doc
        strings = doc.vocab.strings
        rows: Any = doc.to_array(["ORTH", "POS", "MORPH", "LEMMA"])
        lemmas = rows[:, 3].copy()
        for i, (orth, pos, morph, lemma) in enumerate(rows.tolist()):
            if lemma != 0:  # set before (the attribute ruler): kept, as spaCy keeps it
                continue
            key = (orth, pos, morph)
            found = memo.get(key)
            if found is None:
                found = strings.add(lemmatizer.lemmatize(doc[i])[0])  # what `token.lemma_ =` stores
                if pos:  # a token without POS makes spaCy warn each time: asked each time
                    if len(memo) >= MEMO_LIMIT:
                        memo.clear()
                    memo[key] = found
            lemmas[i] = found
        doc.from_array(["LEMMA"], lemmas)  # each token's lemma field, nothing else
        return doc
    except Exception as e:  # as spaCy's: the handler decides (by default it raises)
        error_handler(lemmatizer.name, lemmatizer, [doc], e)
        return None


def install(nlp: Language) -> bool:
    """Give `nlp`'s lemmatizer the array reading; return False (stock lemmatizer kept) when it
    has none or it is not spaCy's rule lemmatizer as read here."""
    from spacy.lang.en.lemmatizer import EnglishLemmatizer
    from spacy.pipeline import Lemmatizer

    if "lemmatizer" not in nlp.pipe_names:
        return False
    lemmatizer: Any = nlp.get_pipe("lemmatizer")
    kind = type(lemmatizer)
    if not isinstance(lemmatizer, Lemmatizer) or lemmatizer.mode != "rule" or lemmatizer.overwrite:
        return False
    if kind.__call__ is not Lemmatizer.__call__ or kind.rule_lemmatize is not Lemmatizer.rule_lemmatize:
        return False
    if kind.is_base_form not in (Lemmatizer.is_base_form, EnglishLemmatizer.is_base_form):
        return False  # another language's may read more than the POS and the morphology
    memo: dict[tuple[int, int, int], int] = {}

    class MemoisedLemmatizer(kind):  # type: ignore[valid-type,misc]  # spaCy's class, by value
        def __call__(self, doc: Doc) -> Doc | None:
            return _apply(self, memo, doc)

    lemmatizer.__class__ = MemoisedLemmatizer
    return True
