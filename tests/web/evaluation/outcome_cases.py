"""Hand-made pair scores on the edges of the tie rule, and the check that the database decides
each as `scoring.metrics.pair_outcome` does (run on SQLite in-process, on PostgreSQL by the
integration test)."""

import math

from django.db.models import F

from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.evaluation.models import PairScore, ScoreConfig
from mpp_studio.evaluation.pair_outcomes import OUTCOME_OF_CODE, sentence_value, with_outcome
from scoring.linking import LinkingFunction, parse_linking
from scoring.metrics import pair_outcome

INF = math.inf
# good sum, good mean, good tokens, bad sum, bad mean, bad tokens, then the two sentences'
# unigram log-probabilities (None: not filled, so SLOR and MORCELA leave the pair out)
CASES = [
    (-3.0, -1.0, 3, -4.0, -2.0, 2, -9.0, -7.0),  # good wins on every reduction
    (-4.0, -2.0, 2, -3.0, -1.0, 3, -6.0, -9.0),  # good loses on every reduction
    (-3.0, -1.5, 2, -3.0, -1.5, 2, -8.0, -8.0),  # equal: a tie everywhere
    (-3.0, -1.0, 3, -2.5, -2.5, 1, None, None),  # loses by sum (0.5 nats), wins per token
    (-2.0, -1.0, 2, -2.5, -1.25, 2, -5.0, -6.0),  # wins by exactly 0.5 nats (a tie at tolerance 0.5)
    (-2.0, -1.0, 2, -2.0000001, -1.00000005, 2, -4.0, -4.0),  # a margin of 1e-7: a tie by default
    (-2.0, -1.0, 2, -2.000003, -1.0000015, 2, -4.0, -4.0),  # a margin of 3e-6: decided by default
    (-INF, -INF, 2, -INF, -INF, 2, -5.0, -5.0),  # two equal infinite scores: a tie
    (-INF, -INF, 2, -5.0, -2.5, 2, -5.0, -5.0),  # an infinitely improbable good sentence loses
    (-1e-300, -5e-301, 2, -2e-300, -1e-300, 2, -1e-300, -1e-300),  # tiny margins
    (-123.456789, -7.2621640588235295, 17, -123.456788, -7.716049249999999, 16, -150.25, -140.5),
    (0.0, 0.0, 0, -2.0, -2.0, 1, 0.0, -3.0),  # a good sentence with no scored token scores 0 everywhere
    (0.0, 0.0, 0, 0.0, 0.0, 0, 0.0, 0.0),  # two empty sentences tie
    # loses by sum, wins by mean; SLLN-LP wins at alpha 0.5 and loses at 0.2, PenLP loses at
    # alpha 0.8 and wins at 2, LogNorm wins
    (-6.0, -1.0, 6, -4.0, -2.0, 2, -30.0, -9.0),
    # loses by sum; SLOR: the good sentence's words are rarer ((-9 + 20) / 5 = 2.2 against
    # (-8 + 10) / 2 = 1.0): it wins; MORCELA with beta 0.5 too, and gamma 4 moves both
    (-9.0, -1.8, 5, -8.0, -4.0, 2, -20.0, -10.0),
    (-2.0, -1.0, 2, -2.0, -1.0, 2, -5.0, None),  # one sentence without its unigram log-prob
]
# Every function results can be compared by on the platform, with the sources' parameters and
# others.
LINKINGS: list[LinkingFunction] = [
    parse_linking(key)
    for key in (
        "sum",
        "mean",
        "bpt",
        "slln",
        "slln:alpha=0.2",
        "slln:alpha=0.9",
        "lognorm",
        "lognorm:beta=0.5",
        "lognorm:beta=3",
        "penlp",
        "penlp:alpha=2",
        "slor",
        "morcela",
        "morcela:beta=0.5,gamma=4",
    )
]
TOLERANCES = (0.0, 1e-6, 0.5)


def store_cases(config: ScoreConfig, dataset: Dataset) -> int:
    """Record CASES as the pair scores of the dataset's first pairs; return how many."""
    pairs = list(
        Pair.objects.filter(paradigm__dataset=dataset).order_by("paradigm__uid", "index")[: len(CASES)]
    )
    assert len(pairs) == len(CASES), "the dataset needs a pair per case"
    PairScore.objects.bulk_create(
        PairScore(
            config=config,
            pair=pair,
            paradigm_id=pair.paradigm_id,
            index=pair.index,
            good_sum=case[0],
            good_mean=case[1],
            good_tokens=case[2],
            bad_sum=case[3],
            bad_mean=case[4],
            bad_tokens=case[5],
            good_unigram=case[6],
            bad_unigram=case[7],
        )
        for pair, case in zip(pairs, CASES, strict=True)
    )
    return len(pairs)


def outcome_mismatches(config: ScoreConfig) -> list[str]:
    """Return, for every recorded pair, linking function and tolerance where the database's
    outcome differs from the engine's, a line saying so (empty: they agree everywhere)."""
    rows = list(
        PairScore.objects.filter(config=config).values_list(
            "pair_id",
            "good_sum",
            "good_mean",
            "good_tokens",
            "bad_sum",
            "bad_mean",
            "bad_tokens",
            "good_unigram",
            "bad_unigram",
        )
    )
    out = []
    for linking in LINKINGS:
        for tolerance in TOLERANCES:
            scores = with_outcome(PairScore.objects.filter(config=config), linking, tolerance)
            decided = dict(scores.annotate(code=F("outcome")).values_list("pair_id", "code"))
            for pair_id, good_sum, good_mean, good_tokens, bad_sum, bad_mean, bad_tokens, gu, bu in rows:
                if linking.needs_unigram and (gu is None or bu is None):
                    if pair_id in decided:
                        out.append(f"pair {pair_id}, {linking.key}: counted without unigram log-probs")
                    continue
                good = engine_score(linking, good_sum, good_mean, good_tokens, gu)
                bad = engine_score(linking, bad_sum, bad_mean, bad_tokens, bu)
                engine = pair_outcome(
                    good, bad, higher_is_better=linking.higher_is_better, tie_tolerance=tolerance
                )
                database = OUTCOME_OF_CODE[decided[pair_id]]
                if database != engine:
                    out.append(
                        f"pair {pair_id}, {linking.key}, tolerance {tolerance}: {database} != {engine}"
                    )
    return out


def engine_score(
    linking: LinkingFunction, lp_sum: float, lp_mean: float, n_tokens: int, unigram: float | None = None
) -> float:
    """The engine's score of a stored sentence: `LinkingFunction.score` of its sum and length,
    except that sum, mean and bits per token read the stored mean as the database does (the
    platform's `sentence_value`, checked against the engine by a test of its own)."""
    if linking.name in ("sum", "mean", "bpt"):
        return sentence_value(linking, lp_sum, lp_mean, n_tokens)
    return linking.score(lp_sum, n_tokens, unigram)
