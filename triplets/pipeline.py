"""The learner-triplet pipeline: learner pairs in, validated triplets and a yield report out.

Steps (BLiSS section 3, with the checks its public code lacks): ERRANT annotation in batches;
spelling / punctuation / orthography edits corrected and multi-edit pairs atomised; each
one-error sentence re-read by ERRANT (it must still show exactly that one edit); candidates of the
same type from the rules, away from the learner's position, in a seeded order; the cheap checks
(real words, differs from both sentences); then ERRANT validation of the artificial sentences,
parsed in batches: one candidate per pending pair per round, so every parse is a batched one.

Every decision depends only on the pair itself and the seed, so the triplets of a corpus do not
depend on how it is cut into chunks.
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from triplets import annotate as annotation
from triplets.annotate import AnnotatedPair, Edit
from triplets.atomise import NO_EDIT, SingleEditPair, atomise, detokenise
from triplets.candidates import Candidate, apply, render, spans_overlap
from triplets.confusions import ConfusionTable, learn
from triplets.corpus import LearnerPair
from triplets.learned import MIN_SEEN_STRICT, attested, learnt_candidates
from triplets.other_errors import (
    SentenceCorrections,
    at_other_errors,
    corrections_by_sentence,
    other_error_ranges,
)
from triplets.report import (
    ATOMIC_RECLASSIFIED,
    NO_CANDIDATE,
    NO_CORRECTION,
    NO_GENERATOR,
    NO_VALID_CANDIDATE,
    ONLY_AT_OTHER_ERRORS,
    ONLY_LEARNER_POSITION,
    RULE_FAILED,
    YieldReport,
)
from triplets.rules import candidates as rule_candidates
from triplets.rules import generators_for
from triplets.validate import check_errant, check_errant_written, check_text, check_words

if TYPE_CHECKING:
    from spacy.tokens import Doc

_log = logging.getLogger(__name__)

GENERATOR_NAME = "mpp-triplets"
GENERATOR_VERSION = "2"  # 2: artificial errors learnt from the corpus' own confusions first


@dataclass(frozen=True, slots=True)
class TripletSettings:
    """What fixes a run's output: the seed that orders candidates, whether only forcing (strict)
    rules may be used, and how many candidates are validated per single-edit pair at most."""

    seed: int = 0
    strict: bool = True
    max_tries: int = 20
    batch_size: int = 256

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "strict": self.strict, "max_tries": self.max_tries}


def edit_record(edit: Edit) -> dict[str, Any]:
    """Return an ERRANT edit as BLiSS writes it (`errant_edits` items)."""
    return {
        "type": edit.type,
        "o_start": edit.o_start,
        "o_end": edit.o_end,
        "c_start": edit.c_start,
        "c_end": edit.c_end,
        "o_str": edit.o_str,
        "c_str": edit.c_str,
    }


@dataclass(frozen=True, slots=True)
class Triplet:
    """A validated (corrected, learner error, artificial error) triplet.

    `learner_edit` is ERRANT's edit learner -> corrected, `artificial_edit` ERRANT's edit
    artificial -> corrected (same type, another corrected-side position); `candidate` is the
    edit that made the artificial sentence: its rule, whether its context forces it, and how often
    the corpus' learners made it.
    """

    triplet_id: str
    corrected: str
    learner_error: str
    artificial_error: str
    error_type: str
    learner_edit: Edit
    artificial_edit: Edit
    candidate: Candidate
    all_error_types: tuple[str, ...]
    source: LearnerPair

    @property
    def rule(self) -> str:
        """Return the rule that made the artificial error."""
        return self.candidate.rule

    @property
    def strict(self) -> bool:
        """Return whether the artificial error's context forces it."""
        return self.candidate.strict

    def record(self) -> dict[str, Any]:
        """Return the triplet as a JSONL record in the BLiSS layout (`learnerID`, `L1`, `cefr`,
        `topic`, `corrected`, `learner_error`, `artificial_error`, `errant_edits`,
        `all_error_types`) plus `corpus`, the artificial edit, both error positions (corrected
        tokens [start, end)), where the pair was read and `extra`: the corpus' other columns
        (e.g. W&I's `auto_cefr`), as read. The artificial edit says where it comes from
        (`source`: "corpus", "rules and corpus" or "rules"), which confusion of the corpus'
        learners it is and how often they made it (`learners_made`: anywhere, in this context)."""
        source = self.source
        return {
            "UID": self.triplet_id,
            "learnerID": source.learner_id,
            "L1": source.l1,
            "cefr": source.cefr,
            "topic": source.topic,
            "corpus": source.corpus,
            "essay_id": source.essay_id,
            "sentence_id": source.pair_id,
            "corrected": self.corrected,
            "learner_error": self.learner_error,
            "artificial_error": self.artificial_error,
            "error_type": self.error_type,
            "errant_edits": [edit_record(self.learner_edit)],
            "all_error_types": list(self.all_error_types),
            "artificial_edit": {
                **edit_record(self.artificial_edit),
                "rule": self.candidate.rule,
                "strict": self.candidate.strict,
                "source": self.candidate.source,
                "confusion": self.candidate.confusion,
                "learners_made": {
                    "anywhere": self.candidate.seen,
                    "in_context": self.candidate.seen_in_context,
                },
            },
            "learner_error_position": [self.learner_edit.c_start, self.learner_edit.c_end],
            "artificial_error_position": [self.artificial_edit.c_start, self.artificial_edit.c_end],
            "source": {"file": source.source_file, "line": source.line},
            "extra": dict(source.extra),
            "generator": {"name": GENERATOR_NAME, "version": GENERATOR_VERSION},
        }


@dataclass(slots=True)
class PipelineResult:
    """The triplets of a run, in input order, and its yield report."""

    triplets: list[Triplet] = field(default_factory=list)
    report: YieldReport = field(default_factory=YieldReport)


def _doc(tokens: Sequence[str], spaces: Sequence[str]) -> Doc:
    from spacy.tokens import Doc

    return Doc(annotation.nlp().vocab, words=list(tokens), spaces=[bool(s) for s in spaces])


def _parse(docs: list[Doc], batch_size: int, near: Sequence[AnnotatedPair | None] | None = None) -> list[Doc]:
    """Parse the docs in batches (in place) and return them; each doc of `near` is a sentence made
    from that pair's corrected sentence, and is parsed near it (`annotate.parse_near`: the same
    parse, its vectors recomputed only where it differs)."""
    if near is None:
        annotation.parse(docs, batch_size)
    else:
        annotation.parse_near(docs, [p.cor_layers if p is not None else None for p in near], batch_size)
    return docs


def _learner_likeness(candidate: Candidate) -> int:
    """Return how learner-like a candidate is, most first: 0 an edit the corpus' learners made
    in this context, 1 one they made elsewhere (at least twice), 2 a rule's edit, 3 a rule's edit
    learners seldom make ("a things", "an tour"), however often the corpus shows it."""
    if not candidate.likely:
        return 3
    if candidate.seen_in_context:
        return 0
    return 1 if candidate.seen >= MIN_SEEN_STRICT else 2


def _order(found: list[Candidate], seed: int, pair_id: str) -> list[Candidate]:
    """Return the candidates strict first, then the most learner-like (`_learner_likeness`), then
    by rule in the generators' order, positions within one rule shuffled by a generator seeded
    from the run's seed and the pair's id."""
    digest = hashlib.sha256(f"{seed}\0{pair_id}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    rule_rank: dict[str, int] = {}
    for candidate in found:
        rule_rank.setdefault(candidate.rule, len(rule_rank))
    keyed = [
        (not c.strict, _learner_likeness(c), rule_rank[c.rule], rng.random(), i) for i, c in enumerate(found)
    ]
    return [found[k[4]] for k in sorted(keyed)]


@dataclass(slots=True)
class _Try:
    """A candidate with its artificial sentence as rendered once (tokens, whitespace, text)."""

    candidate: Candidate
    tokens: list[str]
    spaces: list[str]
    text: str


@dataclass(slots=True)
class _Pending:
    single: SingleEditPair
    learner_edit: Edit
    queue: list[_Try]
    tried: int = 0


def _artificial(single: SingleEditPair, candidate: Candidate) -> tuple[list[str], list[str], str]:
    assert single.annotated is not None
    tokens, spaces = apply(single.annotated.cor, candidate)
    text = detokenise(tokens) if single.tokenised else render(tokens, spaces)
    return tokens, spaces, text


def _recheck(
    singles: list[SingleEditPair], report: YieldReport, batch_size: int
) -> list[tuple[SingleEditPair, Edit]]:
    """Return the single-edit pairs whose learner sentence ERRANT still reads as exactly the kept
    edit, with that edit (learner -> corrected); count the others as reclassified."""
    to_parse = [s for s in singles if s.needs_recheck]
    parsed = _parse(
        [_doc(s.learner_tokens, s.learner_whitespace) for s in to_parse],
        batch_size,
        near=[s.annotated for s in to_parse],
    )
    reparsed = {id(s): d for s, d in zip(to_parse, parsed, strict=True)}
    kept: list[tuple[SingleEditPair, Edit]] = []
    for single in singles:
        assert single.annotated is not None
        if id(single) in reparsed:
            edits = annotation.edits_between(reparsed[id(single)], single.annotated.cor)
        else:
            edits = single.annotated.edits
        if len(edits) == 1 and edits[0].type == single.edit.type:
            kept.append((single, edits[0]))
        else:
            report.drop(single.edit.type, ATOMIC_RECLASSIFIED, single.pair_id)
    return kept


def _queue(
    single: SingleEditPair,
    learner_span: tuple[int, int],
    settings: TripletSettings,
    report: YieldReport,
    confusions: ConfusionTable,
    other_corrections: SentenceCorrections,
) -> list[_Try]:
    """Return the candidates to validate for one single-edit pair whose learner edit covers the
    corrected tokens `learner_span`, after the cheap checks (counting refusals); an empty list
    has been counted as a dropped pair. The corpus' own confusions come first, then the rules'
    candidates, each marked with how often the corpus' learners made it. Places at the
    learner's other errors in the sentence (`other_corrections`, `triplets.other_errors`)
    are left out too."""
    error_type = single.edit.type
    assert single.annotated is not None
    doc = single.annotated.cor
    try:
        ruled = rule_candidates(doc, error_type)
    except Exception:  # a parse no rule foresaw must cost one pair, never a whole corpus job
        _log.exception("a %s rule failed on pair %s", error_type, single.pair_id)
        report.drop(error_type, RULE_FAILED, single.pair_id)
        return []
    try:
        made = learnt_candidates(doc, error_type, confusions) + attested(doc, ruled, confusions)
    except Exception:  # what the corpus teaches is a bonus: its failure leaves the rules' candidates
        _log.exception("the corpus' confusions failed on pair %s", single.pair_id)
        made = ruled
    found = [c for c in made if c.strict or not settings.strict]
    if not found:
        report.drop(error_type, NO_CANDIDATE, single.pair_id)
        return []
    away = [c for c in found if not spans_overlap(c.span(), _widened(learner_span))]
    if not away:
        report.drop(error_type, ONLY_LEARNER_POSITION, single.pair_id)
        return []
    away = _off_other_errors(single, doc, away, other_corrections)
    if not away:
        report.drop(error_type, ONLY_AT_OTHER_ERRORS, single.pair_id)
        return []
    queue: list[_Try] = []
    seen: set[str] = set()
    corrected_tokens = [t.text for t in doc]
    for candidate in _order(away, settings.seed, single.pair_id):
        reason = check_words(candidate, error_type, corrected_tokens)
        tokens, spaces, text = _artificial(single, candidate)
        if reason is None:
            reason = check_text(text, single.corrected, single.learner)
        if reason is not None:
            report.refuse(error_type, reason)
            continue
        if text in seen:  # two rules made the same sentence: validate it once
            continue
        seen.add(text)
        queue.append(_Try(candidate, tokens, spaces, text))
        if len(queue) >= settings.max_tries:
            break
    if not queue:
        report.drop(error_type, NO_VALID_CANDIDATE, single.pair_id)
    return queue


def _off_other_errors(
    single: SingleEditPair, doc: Doc, found: list[Candidate], other_corrections: SentenceCorrections
) -> list[Candidate]:
    """Return the candidates that change no token at the learner's other errors in the sentence
    (none are known for M2 input, whose corrected sentence is the full correction)."""
    source = single.source
    others = other_corrections.get(source.learner, ()) if not single.tokenised else ()
    if not others or doc.text != single.corrected:
        return found
    taken = at_other_errors(doc, other_error_ranges(source.learner, single.corrected, others))
    return [c for c in found if not taken.intersection(range(*c.span()))]


def _widened(span: tuple[int, int]) -> tuple[int, int]:
    return span if span[1] > span[0] else (span[0], span[0] + 1)


def _written_references(pending: list[_Pending], active: list[int], batch_size: int) -> dict[int, Doc]:
    """Return, for each pending pair read from tokens (M2), its corrected sentence parsed from
    the text that is written (the other pairs' corrected sentences were parsed from their text)."""
    tokenised = [i for i in active if pending[i].single.tokenised]
    docs = _parse(
        [annotation.nlp().make_doc(pending[i].single.corrected) for i in tokenised],
        batch_size,
        near=[pending[i].single.annotated for i in tokenised],
    )
    return dict(zip(tokenised, docs, strict=True))


def _validate(pending: list[_Pending], settings: TripletSettings, report: YieldReport) -> dict[int, Triplet]:
    """Return the triplet of each pending pair that gets one (keyed by the pending index).

    What is validated is the text that is written: each artificial sentence is tokenised again
    from its written text (not taken from the token list it was built from), and compared with
    the corrected sentence as written, so a re-check of the written sentences finds what this
    check found (a word glued to its neighbour is one wrong word, and refused). A pair read from
    tokens (M2) is checked twice: on its tokens, where the learner's position is counted, and as
    written (one edit, of its type), since the tokeniser may split the written text otherwise
    ("e-mail") and positions counted on the one do not hold on the other."""
    made: dict[int, Triplet] = {}
    active = [i for i, p in enumerate(pending) if p.queue]
    written = _written_references(pending, active, settings.batch_size)
    tokenizer = annotation.nlp().make_doc
    while active:
        batch = []
        for i in active:
            entry = pending[i]
            attempt = entry.queue[entry.tried]
            batch.append((i, attempt.candidate, attempt.text, tokenizer(attempt.text)))
            if i in written:  # M2: the token list as well, for the positions
                batch.append((i, attempt.candidate, attempt.text, _doc(attempt.tokens, attempt.spaces)))
        parsed = iter(
            _parse(
                [b[3] for b in batch],
                settings.batch_size,
                near=[pending[b[0]].single.annotated for b in batch],
            )
        )
        still: list[int] = []
        for i in active:
            entry = pending[i]
            attempt = entry.queue[entry.tried]
            candidate, text = attempt.candidate, attempt.text
            single = entry.single
            assert single.annotated is not None
            error_type = single.edit.type
            learner_span = (entry.learner_edit.c_start, entry.learner_edit.c_end)
            as_written = next(parsed)
            if i in written:
                reason = check_errant_written(annotation.edits_between(as_written, written[i]), error_type)
                edits = annotation.edits_between(next(parsed), single.annotated.cor)
                reason = reason or check_errant(edits, error_type, learner_span)
            else:
                edits = annotation.edits_between(as_written, single.annotated.cor)
                reason = check_errant(edits, error_type, learner_span)
            entry.tried += 1
            if reason is None:
                made[i] = Triplet(
                    triplet_id=single.pair_id,
                    corrected=single.corrected,
                    learner_error=single.learner,
                    artificial_error=text,
                    error_type=error_type,
                    learner_edit=entry.learner_edit,
                    artificial_edit=edits[0],
                    candidate=candidate,
                    all_error_types=single.all_error_types,
                    source=single.source,
                )
                continue
            report.refuse(error_type, reason)
            if entry.tried < len(entry.queue):
                still.append(i)
            else:
                report.drop(error_type, NO_VALID_CANDIDATE, single.pair_id)
        active = still
    return made


def run_pipeline(
    pairs: Sequence[LearnerPair],
    settings: TripletSettings | None = None,
    progress: Callable[[str], None] | None = None,
    confusions: ConfusionTable | None = None,
    other_corrections: SentenceCorrections | None = None,
) -> PipelineResult:
    """Return the triplets made from `pairs` (in input order) and the yield report.

    `confusions` is what the corpus' learners do (`triplets.confusions.learn` over the whole
    corpus); without it they are learnt from `pairs`. A corpus cut into chunks passes the
    table learnt from all of it, so its triplets do not depend on the cut. `progress`, when
    given, is told each stage as it starts (annotating, generating, re-checking, validating).
    `other_corrections` names the sentences with several corrections (one row per edit) across
    the corpus (`triplets.other_errors.corrections_by_sentence`); without it they are read from
    `pairs`.
    """
    settings = settings or TripletSettings()
    table = confusions if confusions is not None else learn(pairs)
    if other_corrections is None:
        other_corrections = corrections_by_sentence(pairs)
    say = progress or (lambda stage: None)
    result = PipelineResult()
    report = result.report
    report.pairs_in = len(pairs)
    to_annotate: list[LearnerPair] = []
    for pair in pairs:
        if pair.corrected is None:
            report.drop_pair(NO_CORRECTION, pair.pair_id)
        elif pair.corrected == pair.learner:
            report.drop_pair(NO_EDIT, pair.pair_id)  # nothing to parse: the learner was right
        else:
            to_annotate.append(pair)
    say("annotating")
    atomised = atomise(annotation.annotate_pairs(to_annotate, batch_size=settings.batch_size))
    for reason, pair_id in atomised.rejected_ids:
        report.drop_pair(reason, pair_id)
    report.filtered_edits.update(atomised.filtered_edits)
    singles = atomised.single_edit_pairs
    report.single_edit_pairs.update(s.edit.type for s in singles)
    with_generator = []
    for single in singles:
        if generators_for(single.edit.type):
            with_generator.append(single)
        else:
            report.drop(single.edit.type, NO_GENERATOR, single.pair_id)
    say("generating")
    # Candidates first, on the atomised edit: a pair the rules can do nothing with needs no
    # re-check parse (most of them). The others are re-checked, and their queue is made again
    # from ERRANT's re-read edit, so what is validated never rests on the atomised guess.
    hopeful = []
    provisional: dict[int, tuple[list[_Try], YieldReport]] = {}
    for single in with_generator:
        scratch = YieldReport()
        queue = _queue(single, single.learner_span, settings, scratch, table, other_corrections)
        if queue:
            hopeful.append(single)
            provisional[id(single)] = (queue, scratch)
        else:
            report.merge(scratch)
    say("re-checking")
    checked = _recheck(hopeful, report, settings.batch_size)
    pending = []
    for single, edit in checked:
        span = (edit.c_start, edit.c_end)
        queue, scratch = provisional[id(single)]
        if span == single.learner_span:  # ERRANT kept the span: the queue made above stands
            report.merge(scratch)
        else:
            queue = _queue(single, span, settings, report, table, other_corrections)
        pending.append(_Pending(single, edit, queue))
    say("validating")
    made = _validate(pending, settings, report)
    for i in sorted(made):
        triplet = made[i]
        result.triplets.append(triplet)
        report.triplets[triplet.error_type] += 1
        report.rules[triplet.rule] += 1
    return result
