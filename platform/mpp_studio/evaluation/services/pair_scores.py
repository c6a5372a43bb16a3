"""Recording pair scores: each scored pair's two sentence scores under a configuration, copied
into one `PairScore` row, so that results are counted by the database (see results.py).

A chunk records its pairs once their sentences are stored; recording again keeps the rows
there (the same configuration gives the same numbers), so a chunk run twice records each
pair once. A pair is recorded only when both of its sentences are stored.
"""

from collections.abc import Sequence

from mpp_studio.evaluation.models import PairScore, ScoreConfig
from mpp_studio.evaluation.selectors import stored_scores
from mpp_studio.evaluation.services.sentences import READ_BATCH, PairSentences


def pair_scores_record(config: ScoreConfig, pairs: Sequence[PairSentences]) -> int:
    """Record the PairScore of each of these pairs whose two sentences are stored under
    `config` (kept where already recorded); return how many pairs have both stored."""
    scores = stored_scores(config, (key for p in pairs for key in (p.good_key, p.bad_key)))
    rows = []
    for pair in pairs:
        good, bad = scores.get(pair.good_key), scores.get(pair.bad_key)
        if good is None or bad is None:
            continue
        rows.append(
            PairScore(
                config=config,
                pair_id=pair.pair_id,
                paradigm_id=pair.paradigm_id,
                index=pair.index,
                good_sum=good.lp_sum,
                good_mean=good.lp_mean,
                good_tokens=good.n_tokens,
                bad_sum=bad.lp_sum,
                bad_mean=bad.lp_mean,
                bad_tokens=bad.n_tokens,
            )
        )
    PairScore.objects.bulk_create(rows, batch_size=READ_BATCH, ignore_conflicts=True)
    return len(rows)
