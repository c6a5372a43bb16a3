"""Pair outcomes counted by the database from the recorded pair scores (`PairScore`).

A pair's outcome under a linking function (`scoring.linking`: LP, MeanLP, bits per token,
SLLN-LP, LogNorm, PenLP, and SLOR and MORCELA from the unigram log-probabilities a pair score
holds once its tokenizer's frequencies are stored) and a tie tolerance is
`scoring.metrics.pair_outcome` of its two sentences' scores: written here once more as a SQL
expression (`with_outcome`), with the same operations in the same order, so the database
decides every pair as the engine does (a test compares the two on every pair and function).
Results then read counts per paradigm, one page of pairs, or the pairs of one paradigm in
order, never every pair of a dataset at each view.

Only pairs recorded by a chunk of a run count as scored.
"""

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from django.db.models import (
    BooleanField,
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.expressions import CombinedExpression, Expression
from django.db.models.functions import Cast, Ln, Power

from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.datasets.selectors import counts_settled
from mpp_studio.evaluation.models import PairScore, ScoreConfig
from mpp_studio.evaluation.services.sentences import READ_BATCH, PairRef
from scoring.items import reduce_totals
from scoring.linking import LinkingFunction
from scoring.metrics import OutcomeCounts, PairScores, pair_outcome

# The outcome codes of `with_outcome` (the metrics' 1.0, 0.5 and 0.0).
WIN, TIE, LOSS = 2, 1, 0
OUTCOME_OF_CODE = {WIN: 1.0, TIE: 0.5, LOSS: 0.0}
LN2 = math.log(2)


def _reduced(side: str, linking: LinkingFunction) -> F | CombinedExpression | Expression:
    """The SQL of `LinkingFunction.score` for the good or bad sentence of a PairScore row (sum,
    mean and bits per token as `scoring.items.reduce_totals` computes them from the stored sum
    and mean)."""
    lp_sum = F(f"{side}_sum")
    if linking.name == "sum":
        return lp_sum
    if linking.name == "mean":
        return F(f"{side}_mean")
    if linking.name == "bpt":
        return (F(f"{side}_mean") * Value(-1.0)) / Value(LN2, output_field=FloatField())
    length = Cast(F(f"{side}_tokens"), FloatField())
    numerator: F | CombinedExpression = lp_sum
    divisor: Expression = length
    if linking.name == "slln":
        divisor = Power(length, Value(linking.param("alpha")))
    elif linking.name == "lognorm":
        divisor = Ln(length + Value(linking.param("beta")))
    elif linking.name == "penlp":
        divisor = Power((Value(5.0) + length) / Value(6.0), Value(linking.param("alpha")))
    elif linking.name == "slor":
        numerator = lp_sum - F(f"{side}_unigram")
    else:  # morcela
        beta, gamma = Value(linking.param("beta")), Value(linking.param("gamma"))
        numerator = lp_sum - beta * F(f"{side}_unigram") + gamma
    # a sentence with no scored token scores 0, as the engine's does
    return Case(
        When(**{f"{side}_tokens": 0}, then=Value(0.0)),
        default=numerator / divisor,
        output_field=FloatField(),
    )


def with_outcome(
    scores: QuerySet[PairScore], linking: LinkingFunction, tie_tolerance: float
) -> QuerySet[PairScore]:
    """Return the PairScore rows with `outcome` (WIN, TIE or LOSS), decided as
    `scoring.metrics.pair_outcome` decides: equal scores tie, then a margin within the
    tolerance ties, then the better sentence wins. Under SLOR and MORCELA only the rows with
    both sentences' unigram log-probabilities are there."""
    if linking.needs_unigram:  # a pair without unigram log-probabilities is not scored by it
        scores = scores.filter(good_unigram__isnull=False, bad_unigram__isnull=False)
    good, bad = _reduced("good", linking), _reduced("bad", linking)
    margin = good - bad if linking.higher_is_better else bad - good
    return scores.alias(good_value=good, bad_value=bad, margin=margin).alias(
        outcome=Case(
            When(good_value=F("bad_value"), then=Value(TIE)),
            When(margin__gte=-tie_tolerance, margin__lte=tie_tolerance, then=Value(TIE)),
            When(margin__gt=0, then=Value(WIN)),
            default=Value(LOSS),
            output_field=IntegerField(),
        )
    )


@dataclass(frozen=True, slots=True)
class ParadigmSize:
    """One paradigm of a dataset with its number of stored pairs."""

    pk: int
    uid: str
    phenomenon: str
    n_pairs: int
    language: str = ""


def paradigm_sizes(dataset: Dataset, *, uid: str = "") -> list[ParadigmSize]:
    """Return the dataset's paradigms that hold pairs (or paradigm `uid`), by uid, with their
    pair counts: the kept `produced` counts, or, while an import or triplet run is still
    writing, a count of their pairs."""
    paradigms = dataset.paradigms.order_by("uid")
    if uid:
        paradigms = paradigms.filter(uid=uid)
    rows = list(paradigms.values_list("pk", "uid", "phenomenon", "produced", "language"))
    if not counts_settled(dataset):
        counted = dict(
            Pair.objects.filter(paradigm_id__in=[row[0] for row in rows])
            .values("paradigm_id")
            .annotate(n=Count("pk"))
            .values_list("paradigm_id", "n")
        )
        rows = [(pk, puid, phenomenon, counted.get(pk, 0), lang) for pk, puid, phenomenon, _, lang in rows]
    return [
        ParadigmSize(pk, puid, phenomenon, int(n), language)
        for pk, puid, phenomenon, n, language in rows
        if n > 0
    ]


def scored_paradigms(config: ScoreConfig, paradigms: Sequence[ParadigmSize]) -> list[ParadigmSize]:
    """Return the paradigms a configuration scores: a unigram baseline its own language's
    (`LanguageModel.scores_paradigm`), any other model all."""
    model = config.language_model
    return [p for p in paradigms if model.scores_paradigm(p.language)]


def outcome_counts(
    config: ScoreConfig, paradigms: Sequence[ParadigmSize], linking: LinkingFunction, tie_tolerance: float
) -> list[OutcomeCounts]:
    """Return the recorded pairs of these paradigms under `config` counted by paradigm and by
    whether their two sentences have as many tokens: pairs, wins and ties (one query)."""
    by_pk = {p.pk: p for p in paradigms}
    scores = with_outcome(
        PairScore.objects.filter(config=config, paradigm_id__in=list(by_pk)), linking, tie_tolerance
    )
    rows = (
        scores.annotate(
            same_length=Case(
                When(good_tokens=F("bad_tokens"), then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            )
        )
        .values("paradigm_id", "same_length")
        .annotate(
            n=Count("pk"), wins=Count("pk", filter=Q(outcome=WIN)), ties=Count("pk", filter=Q(outcome=TIE))
        )
        .values_list("paradigm_id", "same_length", "n", "wins", "ties")
    )
    return [
        OutcomeCounts(by_pk[pk].uid, by_pk[pk].phenomenon, bool(same), int(n), int(wins), int(ties))
        for pk, same, n, wins, ties in rows
    ]


def outcome_by_pair(
    config: ScoreConfig, paradigms: Sequence[ParadigmSize], linking: LinkingFunction, tie_tolerance: float
) -> dict[int, dict[int, float]]:
    """Return the outcome (1.0, 0.5 or 0.0) of every recorded pair of these paradigms under
    `config`: paradigm id -> pair id -> outcome."""
    scores = with_outcome(
        PairScore.objects.filter(config=config, paradigm_id__in=[p.pk for p in paradigms]),
        linking,
        tie_tolerance,
    )
    found: dict[int, dict[int, float]] = {}
    for paradigm_id, pair_id, code in (
        scores.annotate(code=F("outcome"))
        .values_list("paradigm_id", "pair_id", "code")
        .iterator(chunk_size=10_000)
    ):
        found.setdefault(paradigm_id, {})[pair_id] = OUTCOME_OF_CODE[code]
    return found


@dataclass(frozen=True, slots=True)
class ScoredPair:
    """A pair with its reduced scores; `good`/`bad`/`outcome` are None until it is scored.

    `outcome` is 1.0 (the good sentence scores better), 0.0 (worse) or 0.5 (a tie).
    """

    pair: PairRef
    good: float | None
    bad: float | None
    good_tokens: int | None
    bad_tokens: int | None
    outcome: float | None

    @property
    def outcome_name(self) -> str:
        """Return correct, wrong, tie or unscored."""
        return "unscored" if self.outcome is None else OUTCOME_NAMES[self.outcome]

    @property
    def difference(self) -> float | None:
        """Return good - bad (in the linking function's unit), or None."""
        return None if self.good is None or self.bad is None else self.good - self.bad

    def pair_scores(self) -> PairScores:
        """Return the metrics' PairScores of a scored pair."""
        assert self.good is not None and self.bad is not None
        return PairScores(
            item_id=self.pair.item_id,
            uid=self.pair.uid,
            phenomenon=self.pair.phenomenon,
            good=self.good,
            bad=self.bad,
            length_equal=self.good_tokens == self.bad_tokens,
        )


OUTCOME_NAMES = {1.0: "correct", 0.0: "wrong", 0.5: "tie"}

# A recorded pair score's numbers: good sum, mean, tokens, then the bad sentence's, then the
# two unigram log-probabilities (None until filled).
_SCORE_FIELDS = (
    "good_sum",
    "good_mean",
    "good_tokens",
    "bad_sum",
    "bad_mean",
    "bad_tokens",
    "good_unigram",
    "bad_unigram",
)


def scored_pair(
    pair: PairRef, numbers: Sequence[float] | None, linking: LinkingFunction, tie_tolerance: float
) -> ScoredPair:
    """Return the pair with its recorded numbers (`_SCORE_FIELDS`, None when it is not scored)
    scored by `linking`, and its outcome."""
    if numbers is None:
        return ScoredPair(pair, None, None, None, None, None)
    good_sum, good_mean, good_tokens, bad_sum, bad_mean, bad_tokens, good_unigram, bad_unigram = numbers
    if linking.needs_unigram and (good_unigram is None or bad_unigram is None):
        return ScoredPair(pair, None, None, int(good_tokens), int(bad_tokens), None)
    good = sentence_value(linking, good_sum, good_mean, int(good_tokens), good_unigram)
    bad = sentence_value(linking, bad_sum, bad_mean, int(bad_tokens), bad_unigram)
    outcome = pair_outcome(good, bad, higher_is_better=linking.higher_is_better, tie_tolerance=tie_tolerance)
    return ScoredPair(pair, good, bad, int(good_tokens), int(bad_tokens), outcome)


def sentence_value(
    linking: LinkingFunction, lp_sum: float, lp_mean: float, n_tokens: int, unigram: float | None = None
) -> float:
    """Return a stored sentence's score under `linking`: sum, mean and bits per token from the
    stored sum and mean (as the database reads them), the others from the sum and length, and
    SLOR and MORCELA with the sentence's unigram log-probability."""
    if linking.name in ("sum", "mean", "bpt"):
        return reduce_totals(lp_sum, lp_mean, linking.name)
    return linking.score(lp_sum, n_tokens, unigram)


def recorded_numbers(config: ScoreConfig, pair_ids: Sequence[int]) -> dict[int, tuple[float, ...]]:
    """Return the recorded numbers (`_SCORE_FIELDS`) of these pairs under `config`, by pair id."""
    rows = PairScore.objects.filter(config=config, pair_id__in=list(pair_ids)).values_list(
        "pair_id", *_SCORE_FIELDS
    )
    return {row[0]: tuple(row[1:]) for row in rows}


_PAIR_FIELDS = (
    "pk",
    "index",
    "sentence_good",
    "sentence_bad",
    "sentence_keys__good_key",
    "sentence_keys__bad_key",
)


def scored_pair_blocks(
    config: ScoreConfig, paradigms: Sequence[ParadigmSize], linking: LinkingFunction, tie_tolerance: float
) -> Iterator[list[ScoredPair]]:
    """Yield the pairs of these paradigms in order (paradigm by paradigm, by index) with their
    recorded scores and outcomes, READ_BATCH pairs at a time: two index range reads a block."""
    for paradigm in paradigms:
        pairs = Pair.objects.filter(paradigm_id=paradigm.pk).order_by("index").values_list(*_PAIR_FIELDS)
        last = -1
        while True:
            block = list(pairs.filter(index__gt=last)[:READ_BATCH])
            if not block:
                break
            last = int(block[-1][1])
            recorded = PairScore.objects.filter(
                config=config, paradigm_id=paradigm.pk, index__gte=block[0][1], index__lte=last
            ).values_list("pair_id", *_SCORE_FIELDS)
            numbers = {row[0]: tuple(row[1:]) for row in recorded}
            yield [
                scored_pair(
                    PairRef(
                        pk,
                        paradigm.pk,
                        paradigm.uid,
                        paradigm.phenomenon,
                        index,
                        good_text,
                        bad_text,
                        good_key or "",
                        bad_key or "",
                    ),
                    numbers.get(pk),
                    linking,
                    tie_tolerance,
                )
                for pk, index, good_text, bad_text, good_key, bad_key in block
            ]
