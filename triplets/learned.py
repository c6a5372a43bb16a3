"""Artificial errors learnt from the corpus: the confusions its learners make
(`triplets.confusions`), put at other positions of a corrected sentence.

A learnt candidate is *strict* when the confusion was met in the same context, on the side that
selects the word (`_selecting_sides`): a preposition's head before it (its neighbour, or its
head further away), a determiner's noun after it, a verb form's subject or auxiliary before it.
Learners of this corpus made that very error there and an annotator corrected it. Confusions
whose context is the whole sentence or the meaning are never strict: a tense swap ("have" for
"had"), one article or central determiner for another ("the" for "a", "this" for "the"), a
modal. A confusion met only elsewhere gives
a candidate that is not strict either; omissions and additions are made only where they were
met in context. What the rules make is checked against the table too
(`attested`): a rule's edit that learners of the corpus also make is ranked before one they do
not, and each triplet records which it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from triplets.candidates import Candidate, cased
from triplets.confusions import (
    AUXILIARIES,
    CLASS_WORDS,
    DETERMINERS,
    FORM,
    MISSING,
    PREPOSITIONS,
    REPLACE,
    START,
    UNNECESSARY,
    Confusion,
    ConfusionTable,
    after_context,
    context_lemma,
    form_tags,
)
from triplets.lexicon import dictionary_forms
from triplets.lexicon import lemmas as lexicon_lemmas
from triplets.rules._nominal import BARE_ABLE, PLURAL_MARKERS, SINGULAR_MARKERS, strictly_uncountable
from triplets.rules.determiners import singular_countable
from triplets.rules.prepositions import leaving_out_forces_an_error
from triplets.rules.verbs import visibly_agrees

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

LEARNT_CONTEXT = "corpus_context"  # rule-name prefix: met in this context
LEARNT_ANYWHERE = "corpus"  # met elsewhere in the corpus
_VERB_TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"})
_NOUN_TAGS = frozenset({"NN", "NNS"})


def _word_class(error_type: str) -> frozenset[str]:
    """Return the closed class whose swaps, omissions and additions make `error_type`."""
    category = error_type.split(":", 1)[1] if ":" in error_type else ""
    if category == "PREP":
        return PREPOSITIONS
    if category == "DET":
        return DETERMINERS
    if category.startswith("VERB"):
        return AUXILIARIES | {"to"}
    return frozenset()


def _form_upos(error_type: str) -> str:
    """Return the part of speech whose form swaps make `error_type` ("" when none do)."""
    if error_type in {"R:VERB:SVA", "R:VERB:TENSE", "R:VERB:FORM"}:
        return "VERB"
    if error_type == "R:NOUN:NUM":
        return "NOUN"
    return ""


# Determiner swaps a noun's number rules out ("these book", "many money"); any other swap of
# determiners mostly leaves another good noun phrase.
_NUMBER_PAIRS = (
    frozenset({"this", "these"}),
    frozenset({"that", "those"}),
    frozenset({"much", "many"}),
    frozenset({"another", "other"}),
    frozenset({"every", "all"}),
    frozenset({"each", "all"}),
)
_MODALS = frozenset({"will", "would", "can", "could", "shall", "should", "may", "might", "must"})
# Words before a noun whose number learners get wrong: "many book", "this books"; never "a
# books", which looks machine-made however often an annotator corrected it.
_PLURAL_FORCING = (SINGULAR_MARKERS | PLURAL_MARKERS) - {"a", "an"}
# A confusion made once in the corpus may be one annotator's taste; twice, it is what learners do.
MIN_SEEN_STRICT = 2
_PRESENT = frozenset({"VB", "VBP", "VBZ"})
_FINITE = frozenset({"VERB:VBP", "VERB:VBZ", "VERB:VBD"})
_TENSE_AUXILIARIES = (
    frozenset({"am", "is", "are", "be"}),
    frozenset({"was", "were"}),
    frozenset({"have", "has"}),
    frozenset({"had"}),
    frozenset({"do", "does"}),
    frozenset({"did"}),
    frozenset({"will", "can", "shall", "may"}),
    frozenset({"would", "could", "should", "might"}),
)


def _tense_of(word: str) -> int:
    return next((n for n, group in enumerate(_TENSE_AUXILIARIES) if word in group), -1)


def _changes_tense(confusion: Confusion) -> bool:
    """Return True for a confusion between a past and a present form ("go" / "went", "has" /
    "had"): what forces a tense is the whole sentence, never a neighbouring word."""
    if confusion.kind == FORM:
        tags = {confusion.correct.split(":", 1)[1], confusion.learner.split(":", 1)[1]}
        return "VBD" in tags and bool(tags & _PRESENT)
    if confusion.kind == REPLACE:
        right, wrong = _tense_of(confusion.correct), _tense_of(confusion.learner)
        return right >= 0 and wrong >= 0 and right // 2 == wrong // 2 and right != wrong
    return False


_AGREEMENT = (
    frozenset({"is", "are", "am"}),
    frozenset({"was", "were"}),
    frozenset({"has", "have"}),
    frozenset({"does", "do"}),
)


def _agreement(confusion: Confusion) -> bool:
    """Return True for a confusion of person or number on a present verb ("go" / "goes", "is" /
    "are")."""
    if confusion.kind == FORM:
        tags = {confusion.correct.split(":", 1)[1], confusion.learner.split(":", 1)[1]}
        return "VBZ" in tags and bool(tags & {"VBP", "VB"})
    return confusion.kind == REPLACE and any({confusion.correct, confusion.learner} <= g for g in _AGREEMENT)


def _fits(confusion: Confusion, error_type: str) -> bool:
    """Return whether ERRANT can read the confusion as `error_type` (the verb types split verb
    confusions: agreement, tense, the rest form), so no parse is spent on one it cannot."""
    if error_type == "R:VERB:SVA":
        return _agreement(confusion)
    if error_type == "R:VERB:TENSE":
        return _changes_tense(confusion)
    if error_type == "R:VERB:FORM":
        return not _agreement(confusion) and not _changes_tense(confusion)
    return True


def _words(confusion: Confusion) -> set[str]:
    return {confusion.correct, confusion.learner} - {""}


def _selecting_sides(confusion: Confusion) -> tuple[bool, bool] | None:
    """Return which neighbours (before, after) select the slot, so that a confusion met there
    makes a strict candidate; None when no neighbour does."""
    words = _words(confusion)
    if _changes_tense(confusion) or words & _MODALS:
        return None  # the sentence, or the meaning, decides
    if words <= DETERMINERS:
        if confusion.kind == REPLACE and not any(words <= pair for pair in _NUMBER_PAIRS):
            return None  # "this film" / "the film", "my" / "the": another good noun phrase
        if confusion.kind == UNNECESSARY and not words <= {"a", "an"}:
            # "the music", "that time", "my friends": mostly another good noun phrase
            return None
        return (False, True)  # the noun
    if words <= PREPOSITIONS:
        # The head selects a preposition ("interested in"); its object seldom does ("in / from
        # / to the country" are all English), and the time and fixed phrases that do are the
        # rules' ("on Monday", "by bus").
        return (True, False)
    if confusion.kind == FORM and confusion.correct.startswith("NOUN"):
        return (True, False)  # "many", "one", "these" before the noun (_PLURAL_FORCING)
    if confusion.kind == FORM and confusion.learner == "VERB:VBG" and confusion.correct in _FINITE:
        return None  # "I liking", "If I having": a finite verb made an -ing form is no learner's habit
    return (True, False)  # a verb form's subject or auxiliary, an auxiliary's subject


Context = tuple[str, ...]  # the context lemmas of one side: the neighbour, then the head or object


def _candidate(
    table: ConfusionTable,
    error_type: str,
    confusion: Confusion,
    before: Context,
    after: Context,
    start: int,
    end: int,
    new: tuple[str, ...],
) -> Candidate | None:
    seen = table.count(confusion)
    if not seen or not _fits(confusion, error_type):
        return None
    in_context = _in_context(table, confusion, before, after)
    kind = {REPLACE: "swap", FORM: "form", MISSING: "delete", UNNECESSARY: "insert"}[confusion.kind]
    rule = f"{LEARNT_CONTEXT}_{kind}" if in_context else f"{LEARNT_ANYWHERE}_{kind}"
    return Candidate(
        start,
        end,
        new,
        rule,
        strict=in_context > 0,
        confusion=confusion.key(),
        seen=seen,
        seen_in_context=in_context,
    )


def _in_context(table: ConfusionTable, confusion: Confusion, before: Context, after: Context) -> int:
    """Return how often the confusion was met with the same selecting context (0 when none
    selects it, or when learners made it only once). A side's keys are its neighbour and, for a
    preposition, its head or its object further away ("interested mainly in")."""
    sides = _selecting_sides(confusion)
    if sides is None or table.count(confusion) < MIN_SEEN_STRICT:
        return 0
    if confusion.kind == FORM and confusion.correct.startswith("NOUN") and before[0] not in _PLURAL_FORCING:
        return 0  # "the tool" / "the tools": only a word that fixes the number forces it
    befores = dict.fromkeys(before) if sides[0] else {}
    afters = dict.fromkeys(after) if sides[1] else {}

    def met(which: Confusion) -> int:
        return sum(table.in_context(which, key, None) for key in befores) + sum(
            table.in_context(which, None, key) for key in afters
        )

    found = met(confusion)
    if confusion.kind == REPLACE and _words(confusion) <= PREPOSITIONS and found < MIN_SEEN_STRICT:
        return 0  # met once with this head: "think on", "stay by", "go for" are often English
    # Learners also get it wrong the other way here ("for learn" corrected to "for learning"):
    # the corrected word may itself be a learner's error the annotator left, and the change
    # would repair it.
    if found and met(_reverse(confusion)) >= found:
        return 0
    return found


def _reverse(confusion: Confusion) -> Confusion:
    """Return the confusion the other way round (an omission's reverse is an addition)."""
    if confusion.kind == MISSING:
        return Confusion(UNNECESSARY, "", confusion.correct)
    if confusion.kind == UNNECESSARY:
        return Confusion(MISSING, confusion.learner, "")
    return Confusion(confusion.kind, confusion.learner, confusion.correct)


def learnt_candidates(doc: Doc, error_type: str, table: ConfusionTable) -> list[Candidate]:
    """Return the candidates of `error_type` the corpus' confusions make on `doc` (strict ones
    in a context where they were met, the others where only the confusion was)."""
    tokens = [t.lower_ for t in doc]
    lemmas = [context_lemma(t) for t in tokens]
    return list(_learnt(doc, error_type, table, tokens, lemmas))


def _learnt(
    doc: Doc, error_type: str, table: ConfusionTable, tokens: list[str], lemmas: list[str]
) -> Iterator[Candidate]:
    operation = error_type.split(":", 1)[0]
    words = _word_class(error_type)
    upos = _form_upos(error_type)
    for token in doc:
        i = token.i
        lower = tokens[i]
        before, after = _context(token, tokens, lemmas)
        if _verb_form_for_errant(token, words):
            continue
        if operation == "R" and lower in words:
            for learner, _n in table.learner_choices(REPLACE, lower):
                if learner in words:
                    found = _candidate(
                        table,
                        error_type,
                        Confusion(REPLACE, lower, learner),
                        before,
                        after,
                        i,
                        i + 1,
                        (cased(learner, token.text),),
                    )
                    if found:
                        yield found
        elif operation == "M" and lower in words and _leaving_out_forces(token, words):
            found = _candidate(table, error_type, Confusion(MISSING, lower, ""), before, after, i, i + 1, ())
            if found and found.strict:  # a deletion anywhere is mostly still English
                yield found
        # Lexical verbs only: "I being going", "should being", "I doing not" are not what
        # learners write for "am", "be", "do".
        form_pos = {"VERB"} if upos == "VERB" else {"NOUN"}
        if upos and token.pos_ in form_pos and token.tag_ in (_VERB_TAGS if upos == "VERB" else _NOUN_TAGS):
            for found in _forms(table, error_type, token.text, token.tag_, upos, before, after, i):
                agreement_repaired = _agreement(_confusion(found)) and not visibly_agrees(token)
                # The corrected verb does not agree with its subject ("It relax"): the "error"
                # would repair the sentence. A gerund in a noun's place made a word that is a
                # noun too ("that travelling will be" -> "that travel will be") is English.
                if found.strict and (
                    agreement_repaired or _noun_for_gerund(token, found) or _bare_after_such_as(token, found)
                ):
                    rule = found.rule.replace(LEARNT_CONTEXT, LEARNT_ANYWHERE, 1)
                    found = replace(found, rule=rule, strict=False, seen_in_context=0)
                yield found
        if operation == "U" and _insertion_point(doc, i, words):
            # An insertion before token i, where learners added the word.
            before_here, after_here = _insertion_context(tokens, lemmas, i)
            for learner in table.added_words():
                if learner not in words or lower == learner or (i > 0 and tokens[i - 1] == learner):
                    continue
                if words == DETERMINERS and not _article_forbidden(token):
                    continue
                found = _candidate(
                    table,
                    error_type,
                    Confusion(UNNECESSARY, "", learner),
                    before_here,
                    after_here,
                    i,
                    i,
                    (learner,),
                )
                if found and found.strict:
                    yield replace(found, new=(cased(learner, token.text) if i == 0 else learner,))


def _leaving_out_forces(token: Token, words: frozenset[str]) -> bool:
    """Return False where leaving the word out need not be an error: a determiner whose noun may
    stand bare ("in the future" -> British "in future", "give you a space" -> "give you
    space"), any other determiner before a noun that may stand bare ("exercise (my) writing"),
    a preposition in a list or after an article (the rules' check)."""
    if words == DETERMINERS:
        if token.dep_ not in {"det", "poss"}:
            return True
        if token.lower_ in {"a", "an", "the"}:
            return token.head.lower_ not in BARE_ABLE
        # "exercise my writing" -> "exercise writing": a possessive or demonstrative may go
        # wherever the noun may stand bare
        return singular_countable(token.head)
    if words == PREPOSITIONS:
        return leaving_out_forces_an_error(token)
    return True


def _article_forbidden(token: Token) -> bool:
    """Return True when "a"/"an" cannot stand before the noun phrase starting at `token`: its
    noun is plural or never countable ("a good school results", "a multimedia"); before a noun
    that may count ("a science", "fall a victim") it may be good English."""
    noun = _phrase_noun(token)
    return noun.tag_ == "NNS" or strictly_uncountable(noun.lemma_)


_NOMINAL_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "pobj", "attr", "conj"})


def _noun_for_gerund(token: Token, found: Candidate) -> bool:
    """Return True when a gerund in a noun's place becomes a word that is also a noun."""
    return (
        token.tag_ == "VBG"
        and token.dep_ in _NOMINAL_DEPS
        and bool(lexicon_lemmas(found.new[0].lower(), "NOUN"))
    )


def _bare_after_such_as(token: Token, found: Candidate) -> bool:
    """Return True when a gerund right after "such as" becomes a bare verb, which may go on an
    infinitive before it ("a game to do, such as playing" -> "such as play")."""
    doc = token.doc
    return (
        token.tag_ == "VBG"
        and token.i >= 2
        and doc[token.i - 1].lower_ == "as"
        and doc[token.i - 2].lower_ == "such"
        and _confusion(found).learner.endswith(":VB")
    )


def _verb_form_for_errant(token: Token, words: frozenset[str]) -> bool:
    """Return True where a preposition's change would be a verb form's for ERRANT: at the
    infinitive's "to" ("want go", "want at go") and before a bare verb ("want to at go")."""
    return words == PREPOSITIONS and (token.tag_ == "TO" or token.tag_ == "VB")


def _insertion_point(doc: Doc, i: int, words: frozenset[str]) -> bool:
    """Return True where a word of the class may be added before token i: a determiner only
    before a bare noun phrase (a noun or adjective with no determiner before it), never before a
    pronoun or another class word."""
    token = doc[i]
    if token.lower_ in CLASS_WORDS or token.pos_ in {"PRON", "PUNCT"}:
        return False
    if words == DETERMINERS:
        if token.dep_ == "compound":
            return False  # inside a noun phrase: "street the food tent"
        noun = _phrase_noun(token)
        if token.pos_ not in {"NOUN", "ADJ"} or noun.pos_ != "NOUN" or noun.left_edge.i != i:
            return False  # only at the start of a noun phrase that has no determiner
        if any(c.dep_ in {"det", "poss", "nummod"} for c in noun.children):
            return False
    return True


def _phrase_noun(token: Token) -> Token:
    """Return the noun of the noun phrase a noun or adjective starts ("good" -> "results")."""
    return token if token.pos_ == "NOUN" else token.head


def _insertion_context(tokens: list[str], lemmas: list[str], i: int) -> tuple[Context, Context]:
    """Return the context keys of an insertion before token i: the words on either side."""
    return (lemmas[i - 1] if i > 0 else START,), (after_context(tokens, i),)


def _context(token: Token, tokens: list[str], lemmas: list[str]) -> tuple[Context, Context]:
    """Return the context keys before and after a token: its neighbours (the one after past a
    determiner) and, for a preposition, its head too when it stands further before it
    ("interested mainly in")."""
    i = token.i
    before: list[str] = [lemmas[i - 1] if i > 0 else START]
    if token.lower_ in PREPOSITIONS and token.head.i < i - 1:
        before.append(context_lemma(token.head.text))
    return tuple(before), (after_context(tokens, i + 1),)


def _confusion(candidate: Candidate) -> Confusion:
    kind, correct, learner = candidate.confusion.split("|")
    return Confusion(kind, correct, learner)


def _forms(
    table: ConfusionTable,
    error_type: str,
    text: str,
    tag: str,
    upos: str,
    before: Context,
    after: Context,
    i: int,
) -> Iterator[Candidate]:
    lemma, _tags = form_tags(text.lower(), upos)
    if not lemma:
        return
    for learner, _n in table.learner_choices(FORM, f"{upos}:{tag}"):
        if learner == "VERB:VBG" and before[0] in PREPOSITIONS - {"to"}:
            continue  # "for changing", "by using": a gerund after a preposition is English
        forms = dictionary_forms(lemma, learner.split(":", 1)[1], upos)
        if not forms or forms[0] == text.lower():
            continue
        confusion = Confusion(FORM, f"{upos}:{tag}", learner)
        found = _candidate(table, error_type, confusion, before, after, i, i + 1, (cased(forms[0], text),))
        if found:
            yield found


def attested(doc: Doc, candidates: list[Candidate], table: ConfusionTable) -> list[Candidate]:
    """Return the rules' candidates, each one-word confusion the table counts marked with how
    often learners of the corpus made it (anywhere, and in this context)."""
    tokens = [t.lower_ for t in doc]
    lemmas = [context_lemma(t) for t in tokens]
    return [_attested(doc, c, table, tokens, lemmas) for c in candidates]


def _attested(
    doc: Doc, candidate: Candidate, table: ConfusionTable, tokens: list[str], lemmas: list[str]
) -> Candidate:
    if candidate.confusion:
        return candidate
    confusion = _confusion_of(doc, candidate)
    if confusion is None:
        return candidate
    seen = table.count(confusion)
    if not seen:
        return candidate
    start = candidate.start
    if candidate.end > start:
        before, after = _context(doc[start], tokens, lemmas)
    else:
        before, after = _insertion_context(tokens, lemmas, start)
    in_context = _in_context(table, confusion, before, after)
    return replace(candidate, confusion=confusion.key(), seen=seen, seen_in_context=in_context)


def _confusion_of(doc: Doc, candidate: Candidate) -> Confusion | None:
    """Return the one-word confusion a candidate makes (learner side = the candidate's words),
    or None when it is not one."""
    start, end, new = candidate.start, candidate.end, candidate.new
    if end - start == 1 and not new:
        return Confusion(MISSING, doc[start].lower_, "")
    if end == start and len(new) == 1:
        return Confusion(UNNECESSARY, "", new[0].lower())
    if end - start == 1 and len(new) == 1:
        token = doc[start]
        old, learner = token.lower_, new[0].lower()
        if old in CLASS_WORDS and learner in CLASS_WORDS:
            return Confusion(REPLACE, old, learner)
        # The part of speech the parse gives, and a tag of that part of speech ("book" the noun).
        upos = "NOUN" if token.tag_ in _NOUN_TAGS else "VERB" if token.tag_ in _VERB_TAGS else ""
        if upos:
            lemma, _ = form_tags(old, upos)
            learner_lemma, learner_tags = form_tags(learner, upos)
            if lemma and lemma == learner_lemma and len(learner_tags) == 1:
                return Confusion(FORM, f"{upos}:{token.tag_}", f"{upos}:{learner_tags[0]}")
    return None
