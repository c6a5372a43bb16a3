"""What learners of a corpus do: the one-word confusions its corrections show, and where.

Each learner/corrected pair is compared word by word (lower-cased tokens, no parse: a corpus of
half a million pairs is read in about a minute). Every one-token difference of a closed word
class or of a word's form becomes an observation:

- `R` a word swapped in the class (prepositions, determiners, auxiliaries): "interested on" for
  "interested in" is (R, "in", "on");
- `F` a form swapped for another form of the same lemma, as Penn tags ("to going" for "to go" is
  (F, "VERB:VB", "VERB:VBG"); "many book" for "many books" (F, "NOUN:NNS", "NOUN:NN"));
- `M` a class word the learner left out ("listen music": (M, "to", ""));
- `U` a class word the learner added ("discuss about": (U, "", "about")).

Each observation is counted three times: on its own (how often learners make it), with the
corrected-side word before it and with the word after it (skipping one determiner: the noun,
not "the"), both as lemmas. `triplets.learned` turns the counts into artificial errors at other
positions: a confusion seen in the same context is what a learner of this corpus does there,
and an annotator corrected it. The counts are sums over pairs, so a table learnt from a whole
corpus does not depend on how the corpus is later cut into chunks.
"""

from __future__ import annotations

import difflib
import functools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from triplets.corpus import LearnerPair
from triplets.rules._nominal import words

REPLACE = "R"
FORM = "F"
MISSING = "M"
UNNECESSARY = "U"

PREPOSITIONS = words(
    """in on at for of with from about by to into onto during since until till towards toward
    through over under between among across after before against without within around behind
    near upon"""
)
DETERMINERS = words(
    """the a an this that these those my your his her its our their some any no every each
    another much many"""
)
AUXILIARIES = words(
    """be am is are was were been being have has had having do does did will would shall should
    can could may might must"""
)
CLASS_WORDS = PREPOSITIONS | DETERMINERS | AUXILIARIES
# Neighbours that say nothing about the slot: a confusion seen after "," or "and" is not tied
# to a word that selects it.
UNINFORMATIVE = frozenset(
    {"^", "$", ",", ".", ";", ":", "!", "?", "and", "or", "but", '"', "'", "(", ")", "-", "not", "n't"}
)
START, END = "^", "$"
# The word classes each ERRANT type's confusions come from.
_FORM_UPOS = ("VERB", "NOUN")


@functools.lru_cache(maxsize=200_000)
def context_lemma(word: str) -> str:
    """Return the key a neighbouring word is counted under: its lemma (verb, then noun, then
    adjective reading, by LemmInflect's dictionary; the lower-case word if it has none), so
    "depends on" and "depending on" count as one context."""
    import lemminflect

    lower = word.lower()
    if lower in CLASS_WORDS or not lower.isalpha():
        return lower
    found = lemminflect.getAllLemmas(lower)
    for upos in ("VERB", "NOUN", "ADJ"):
        if upos in found:
            return str(found[upos][0])
    return lower


@functools.lru_cache(maxsize=200_000)
def form_tags(word: str, upos: str) -> tuple[str, tuple[str, ...]]:
    """Return a verb's or noun's dictionary lemma and the Penn tags whose dictionary form it is
    ("went" -> ("go", ("VBD",))); ("", ()) for a word LemmInflect does not know as `upos`."""
    import lemminflect

    lemmas = lemminflect.getAllLemmas(word, upos=upos).get(upos, ())
    if not lemmas:
        return "", ()
    lemma = str(lemmas[0])
    inflections = lemminflect.getAllInflections(lemma, upos=upos)
    tags = tuple(sorted(tag for tag, forms in inflections.items() if word in forms))
    if upos == "VERB" and word == lemma and "VB" not in tags:
        tags = tuple(sorted({*tags, "VB"}))
    return lemma, tags


@dataclass(frozen=True, slots=True)
class Confusion:
    """One learner confusion: `kind` (R, F, M, U), the corrected-side word or form (`correct`,
    "" for U) and the learner's (`learner`, "" for M)."""

    kind: str
    correct: str
    learner: str

    def key(self) -> str:
        """Return the confusion as one string (the table's JSON key)."""
        return f"{self.kind}|{self.correct}|{self.learner}"


@dataclass(frozen=True, slots=True)
class Observation:
    """A confusion met once, with its corrected-side neighbours as context lemmas."""

    confusion: Confusion
    before: str
    after: str


# Which way of reading pairs made a table: a table of another version is learnt again.
VERSION = 2
_KINDS = frozenset({"R", "F", "M", "U"})


def _valid_key(key: str) -> bool:
    """Return True for a confusion key `to_dict` writes (kind|correct|learner[|context])."""
    parts = key.split("|")
    if len(parts) not in (3, 4) or parts[0] not in _KINDS:
        return False
    if parts[0] == FORM:
        return all(":" in part for part in parts[1:3])
    return True


@dataclass(slots=True)
class ConfusionTable:
    """How often each confusion was met (`seen`), and with which word before (`before`) and
    after (`after`) it; `pairs` is how many pairs were read."""

    pairs: int = 0
    seen: Counter[str] = field(default_factory=Counter)
    before: Counter[str] = field(default_factory=Counter)
    after: Counter[str] = field(default_factory=Counter)
    # What learners put for each (kind, correct), built once on first use (a learnt table is
    # read for every token of every candidate sentence).
    _choices: dict[tuple[str, str], list[tuple[str, int]]] | None = field(
        default=None, repr=False, compare=False
    )

    def add(self, observation: Observation) -> None:
        """Count one observation."""
        key = observation.confusion.key()
        self.seen[key] += 1
        self.before[f"{key}|{observation.before}"] += 1
        self.after[f"{key}|{observation.after}"] += 1
        self._choices = None

    def count(self, confusion: Confusion) -> int:
        """Return how often learners made the confusion anywhere."""
        return self.seen.get(confusion.key(), 0)

    def in_context(self, confusion: Confusion, before: str | None, after: str | None) -> int:
        """Return how often the confusion was met with this word before it or this word after
        it (a side given as None is not looked at; uninformative neighbours such as "," or
        "and" do not count)."""
        key = confusion.key()
        found = 0
        if before is not None and before not in UNINFORMATIVE:
            found += self.before.get(f"{key}|{before}", 0)
        if after is not None and after not in UNINFORMATIVE:
            found += self.after.get(f"{key}|{after}", 0)
        return found

    def learner_choices(self, kind: str, correct: str) -> list[tuple[str, int]]:
        """Return what learners put for `correct` in confusions of `kind` (R, F; U with correct
        "": the words they added), most frequent first."""
        if self._choices is None:
            index: dict[tuple[str, str], list[tuple[str, int]]] = {}
            for key, n in self.seen.items():
                found_kind, found_correct, learner = key.split("|")
                index.setdefault((found_kind, found_correct), []).append((learner, n))
            for choices in index.values():
                choices.sort(key=lambda item: (-item[1], item[0]))
            self._choices = index
        return self._choices.get((kind, correct), [])

    def added_words(self) -> list[str]:
        """Return the words learners added (U confusions), most frequent first."""
        return [word for word, _n in self.learner_choices(UNNECESSARY, "")]

    def merge(self, other: ConfusionTable) -> None:
        """Add another table's counts (a corpus learnt in parts)."""
        self.pairs += other.pairs
        self.seen.update(other.seen)
        self.before.update(other.before)
        self.after.update(other.after)
        self._choices = None

    def to_dict(self) -> dict[str, Any]:
        """Return the table as JSON-ready data (sorted, so equal tables give equal text)."""
        return {
            "version": VERSION,
            "pairs": self.pairs,
            "seen": dict(sorted(self.seen.items())),
            "before": dict(sorted(self.before.items())),
            "after": dict(sorted(self.after.items())),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConfusionTable:
        """Return the table `to_dict` wrote; a key or count it could not have written (a table
        edited by hand, or damaged) is left out rather than failing a run."""

        def counts(name: str) -> Counter[str]:
            found: Counter[str] = Counter()
            values = data.get(name)
            for key, n in values.items() if isinstance(values, dict) else ():
                if (
                    isinstance(key, str)
                    and _valid_key(key)
                    and isinstance(n, int)
                    and not isinstance(n, bool)
                    and n > 0
                ):
                    found[key] = n
            return found

        pairs = data.get("pairs")
        return cls(
            pairs=pairs if isinstance(pairs, int) and pairs >= 0 else 0,
            seen=counts("seen"),
            before=counts("before"),
            after=counts("after"),
        )

    @staticmethod
    def is_current(data: object) -> bool:
        """Return True when stored table data was learnt the way this version learns."""
        return isinstance(data, dict) and data.get("version") == VERSION


# Words after which a form is a noun's ("this book", "two cars") or a verb's ("they put", "to
# go"): a word read both ways ("book", "plan", "work") is told by its neighbour.
_NOUN_BEFORE = DETERMINERS | words("one two three four five six seven eight nine ten of several few both")
_VERB_BEFORE = AUXILIARIES | words("to i you he she it we they not")


def _form_confusion(learner: str, correct: str, previous: str) -> list[Confusion]:
    """Return the form confusions of two forms of one verb or noun lemma, or [] when they are
    not. A word that is a noun and a verb is read by the word before it, else left out. A
    corrected base form counts as base and present (VB, VBP), never as its other readings ("put"
    is no past there); a corrected word otherwise ambiguous is left out."""
    readings = []
    for upos in _FORM_UPOS:
        lemma_c, tags_c = form_tags(correct, upos)
        lemma_l, tags_l = form_tags(learner, upos)
        if set(tags_l) == {"VB", "VBP"}:
            tags_l = ("VB",)  # a learner's base form ("he go"): the base, whatever they meant
        if lemma_c and lemma_c == lemma_l and len(tags_l) == 1 and tags_l[0] not in tags_c:
            readings.append((upos, tags_c, tags_l[0]))
    if len(readings) > 1:
        upos_by_context = "NOUN" if previous in _NOUN_BEFORE else "VERB" if previous in _VERB_BEFORE else ""
        readings = [r for r in readings if r[0] == upos_by_context]
    if len(readings) != 1:
        return []
    upos, tags_c, tag_l = readings[0]
    if len(tags_c) > 1:
        if "VB" not in tags_c:
            return []  # "read", "cut" as past or participle: which one was meant is unknown
        tags_c = tuple(t for t in tags_c if t in {"VB", "VBP"})
    return [Confusion(FORM, f"{upos}:{tag}", f"{upos}:{tag_l}") for tag in tags_c]


def after_context(tokens: Sequence[str], index: int) -> str:
    """Return the context lemma after a slot: the token at `index`, or the one after it when it
    is a determiner (the noun of "on the internet", not "the")."""
    if index < len(tokens) and tokens[index] in DETERMINERS:
        index += 1
    return context_lemma(tokens[index]) if index < len(tokens) else END


def _before(tokens: Sequence[str], index: int) -> str:
    return context_lemma(tokens[index]) if index >= 0 else START


def observations(learner: Sequence[str], corrected: Sequence[str]) -> list[Observation]:
    """Return the one-token confusions between a learner's and a corrected token list
    (lower-cased), with their corrected-side context lemmas."""
    found: list[Observation] = []
    matcher = difflib.SequenceMatcher(None, learner, corrected, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "replace" and i2 - i1 == 1 and j2 - j1 == 1:
            wrong, right = learner[i1], corrected[j1]
            if wrong in CLASS_WORDS and right in CLASS_WORDS:
                confusions = [Confusion(REPLACE, right, wrong)]
            elif wrong.isalpha() and right.isalpha():
                confusions = _form_confusion(wrong, right, corrected[j1 - 1] if j1 > 0 else START)
            else:
                continue
            for confusion in confusions:
                found.append(
                    Observation(confusion, _before(corrected, j1 - 1), after_context(corrected, j1 + 1))
                )
        elif op == "insert" and j2 - j1 == 1 and corrected[j1] in CLASS_WORDS:
            confusion = Confusion(MISSING, corrected[j1], "")
            found.append(Observation(confusion, _before(corrected, j1 - 1), after_context(corrected, j2)))
        elif op == "delete" and i2 - i1 == 1 and learner[i1] in CLASS_WORDS:
            confusion = Confusion(UNNECESSARY, "", learner[i1])
            found.append(Observation(confusion, _before(corrected, j1 - 1), after_context(corrected, j1)))
    return found


def pair_tokens(pair: LearnerPair, tokenize: Callable[[str], list[str]]) -> tuple[list[str], list[str]]:
    """Return a pair's learner and corrected tokens, lower-cased (M2 sentences keep their
    tokens; running text goes through `tokenize`)."""
    assert pair.corrected is not None
    if pair.edits is not None:
        return pair.learner.lower().split(), pair.corrected.lower().split()
    # Tokenised as written ("U.S." stays one token), then lower-cased.
    return [t.lower() for t in tokenize(pair.learner)], [t.lower() for t in tokenize(pair.corrected)]


@functools.cache
def spacy_tokenize() -> Callable[[str], list[str]]:
    """Return spaCy's English tokenizer as text -> token texts: the rules the annotator's model
    tokenizes with (the same tokens on every sentence of the W&I dev pairs), without loading the
    model, so a corpus read learns its confusions at once."""
    import spacy

    tokenizer = spacy.blank("en").tokenizer
    return lambda text: [t.text for t in tokenizer(text)]


def learn_pair(table: ConfusionTable, pair: LearnerPair, tokenize: Callable[[str], list[str]]) -> None:
    """Count one pair's confusions into `table` (a pair without a correction, or unchanged, is
    counted as read and teaches nothing)."""
    table.pairs += 1
    if pair.corrected is None or pair.corrected == pair.learner:
        return
    learner, corrected = pair_tokens(pair, tokenize)
    for observation in observations(learner, corrected):
        table.add(observation)


def learn(pairs: Iterable[LearnerPair], tokenize: Callable[[str], list[str]] | None = None) -> ConfusionTable:
    """Return the confusions of a corpus' pairs."""
    split = tokenize or spacy_tokenize()
    table = ConfusionTable()
    for pair in pairs:
        learn_pair(table, pair, split)
    return table
