"""The least plausible good sentences of one paradigm, read from stored causal scores (a selector).

Nothing here runs a model: the good sentences' stored per-token scores (`SentenceScore`) under
one causal configuration are ranked by the engine (`scoring.plausibility.least_plausible`: mean
log-prob per token, weakest token). The paradigm's pairs and their sentence keys come from one
query, the scores from another (a subquery on the keys), however many pairs the paradigm has.
"""

from collections.abc import Iterator
from dataclasses import dataclass, field

from django.db.models import QuerySet

from mpp_studio.datasets.models import Dataset, DatasetParadigm
from mpp_studio.evaluation.models import PairKey, ScoreConfig, SentenceScore
from mpp_studio.evaluation.selectors import dataset_configs
from scoring.items import SentenceScore as EngineScore
from scoring.plausibility import DEFAULT_TOP, PLAUSIBILITY_WARNING, Implausible, least_plausible

# The only method whose per-token scores are log p(token | the tokens before): masked scores
# (pseudo-log-likelihoods) rank differently and are not offered.
PLAUSIBILITY_METHOD = "causal"


@dataclass(frozen=True, slots=True)
class PlausibleRow:
    """A ranked good sentence with the first pair (by index) that has it and how many pairs do."""

    sentence: Implausible
    pair_id: int
    pair_index: int
    n_pairs: int


@dataclass(frozen=True, slots=True)
class ParadigmPlausibility:
    """The check of one paradigm: the causal configurations that scored the dataset, the chosen
    one (None: none exists), the ranked rows, how many distinct good sentences the paradigm's
    recorded pairs have and how many of them the configuration has scored."""

    configs: list[ScoreConfig]
    config: ScoreConfig | None
    rows: list[PlausibleRow] = field(default_factory=list)
    n_sentences: int = 0
    n_scored: int = 0
    warning: str = PLAUSIBILITY_WARNING


def plausibility_configs(*, dataset: Dataset) -> QuerySet[ScoreConfig]:
    """Return the causal configurations some run of the dataset's project scored it with."""
    return dataset_configs(dataset=dataset).filter(method=PLAUSIBILITY_METHOD)


def paradigm_plausibility(
    *, dataset: Dataset, paradigm: DatasetParadigm, config_id: int | None = None, top: int = DEFAULT_TOP
) -> ParadigmPlausibility:
    """Return the `top` least plausible good sentences of `paradigm` under the causal
    configuration `config_id` (default, or when it is not one of the dataset's: the first).

    Only pairs a scoring chunk has recorded (`PairKey`) are known; sentences the configuration
    has not scored yet are left out and counted.
    """
    configs = list(plausibility_configs(dataset=dataset))
    if not configs:
        return ParadigmPlausibility(configs, None)
    config = next((c for c in configs if c.pk == config_id), configs[0])
    first_pair: dict[str, tuple[int, int]] = {}
    n_pairs: dict[str, int] = {}
    keys = PairKey.objects.filter(pair__paradigm=paradigm)
    for key, pair_id, index in keys.order_by("pair__index").values_list("good_key", "pair_id", "pair__index"):
        first_pair.setdefault(key, (pair_id, index))
        n_pairs[key] = n_pairs.get(key, 0) + 1
    stored = SentenceScore.objects.filter(config=config, sentence_key__in=keys.values("good_key"))
    scores = list(stored.values_list("sentence_key", "data"))

    def engine_scores() -> Iterator[tuple[str, EngineScore]]:
        for key, data in scores:
            if key in first_pair:  # a pair recorded after the first query: next time
                yield key, EngineScore.from_dict(data)

    ranked = least_plausible(engine_scores(), top=top)
    rows = [PlausibleRow(r, *first_pair[r.key], n_pairs[r.key]) for r in ranked]
    return ParadigmPlausibility(configs, config, rows, len(first_pair), len(scores))
