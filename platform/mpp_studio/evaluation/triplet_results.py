"""BLiSS results of learner triplet datasets, computed on demand from the stored sentence scores.

A triplet dataset (see `services.sentences.is_triplet_dataset`) stores each triplet as a pair
(good = the corrected sentence, bad = the learner's) whose record holds the artificial
sentence and the learner's metadata (L1, CEFR level, error type, corpus, learner id). Its
pairs results (corrected preferred to learner, in any reduction) come from `results`; here
each triplet's three stored scores are turned into bits per token and handed to
`scoring.triplet_metrics.triplet_report`, with the same defaults as `mpp score` (tau 0.10
bits/token, 1,000 cluster-bootstrap resamples over learners with seed 0, slices of at least
30 items), so the platform and the command line give the same numbers on the same scores.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.datasets.selectors import is_triplet_dataset
from mpp_studio.evaluation.models import DEFAULT_TIE_TOLERANCE, ScoreConfig
from mpp_studio.evaluation.results import ResultsError, check_reduction, pair_report
from mpp_studio.evaluation.selectors import StoredScore, stored_scores
from mpp_studio.evaluation.services.sentences import PairRef, dataset_pair_refs
from scoring.data import CEFR_KEYS, CORPUS_KEYS, L1_KEYS, LEARNER_ID_KEYS, bliss_error_type, record_text
from scoring.items import reduce_totals
from scoring.triplet_metrics import (
    DEFAULT_MIN_SLICE,
    DEFAULT_TAU,
    METRICS,
    SLICE_DIMENSIONS,
    MetricCell,
    TripletReport,
    TripletScores,
    triplet_outcomes,
)
from scoring.triplet_metrics import triplet_report as engine_triplet_report

# `mpp score`'s defaults, so both give the same intervals.
BOOTSTRAP = 1_000
SEED = 0
# How the pages name the metrics and the slice dimensions.
METRIC_LABELS = {"LP": "LP", "HAP": "HAP", "HAP_tau": "HAP-τ", "SO": "SO"}
METRIC_HELP = {
    "LP": "learner sentence preferred to the corrected one",
    "HAP": "learner sentence preferred to the artificial one",
    "HAP_tau": "learner sentence preferred to the artificial one by more than τ bits per token",
    "SO": "corrected, then learner, then artificial (strict order)",
}
DIMENSION_LABELS = {"error_type": "Error type", "l1": "L1", "cefr": "CEFR level", "corpus": "Corpus"}
# The order slices are shown in.
SHOWN_DIMENSIONS: tuple[str, ...] = ("error_type", "l1", "cefr", "corpus")
OUTCOME_NAMES = {1.0: "yes", 0.0: "no", 0.5: "tie"}


def error_type_of(record: Mapping[str, object], uid: str) -> str:
    """Return the triplet's error type as `scoring.data` reads it from a BLiSS line (so that
    `mpp score` on the exported records slices them alike), else its paradigm's uid."""
    return bliss_error_type(record) or uid


def check_triplet_dataset(dataset: Dataset) -> None:
    """Return quietly when the dataset holds triplets.

    Raises:
        ResultsError: otherwise, naming the dataset.
    """
    if not is_triplet_dataset(dataset):
        raise ResultsError(
            f"“{dataset.name}” is not a learner triplet dataset: its pairs have no artificial sentence."
        )


@dataclass(frozen=True, slots=True)
class TripletRef:
    """A triplet as results need it: its pair (good = corrected, bad = learner, and the
    artificial sentence with their keys) and the learner's metadata ("" when unknown)."""

    pair: PairRef
    l1: str
    cefr: str
    error_type: str
    corpus: str
    learner_id: str
    record_uid: str

    @property
    def item_id(self) -> str:
        """Return "<error type paradigm>/<index>", as the pairs' item ids."""
        return self.pair.item_id


def dataset_triplet_refs(dataset: Dataset) -> list[TripletRef]:
    """Return the dataset's triplets in order (paradigm uid, pair index) with their metadata;
    pairs without an artificial sentence are left out.

    Raises:
        ResultsError: when the dataset holds no triplets.
    """
    check_triplet_dataset(dataset)
    refs = [r for r in dataset_pair_refs(dataset) if r.artificial_key]
    records: dict[int, Mapping[str, object]] = {}
    rows = Pair.objects.filter(paradigm__dataset=dataset).values_list("pk", "record")
    for pk, record in rows.iterator(chunk_size=2_000):
        records[pk] = record if isinstance(record, dict) else {}
    out = []
    for ref in refs:
        record = records.get(ref.pair_id, {})
        out.append(
            TripletRef(
                pair=ref,
                l1=record_text(record, L1_KEYS),
                cefr=record_text(record, CEFR_KEYS),
                error_type=error_type_of(record, ref.uid),
                corpus=record_text(record, CORPUS_KEYS),
                learner_id=record_text(record, LEARNER_ID_KEYS),
                record_uid=record_text(record, ("UID",)),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class ScoredTriplet:
    """A triplet with the bits per token of its three sentences (None until all three are
    stored) and their token counts."""

    ref: TripletRef
    corrected: float | None
    learner: float | None
    artificial: float | None
    corrected_tokens: int | None
    learner_tokens: int | None
    artificial_tokens: int | None

    @property
    def scored(self) -> bool:
        return self.corrected is not None and self.learner is not None and self.artificial is not None

    def triplet_scores(self) -> TripletScores:
        """Return the engine's TripletScores of a scored triplet."""
        assert self.corrected is not None and self.learner is not None and self.artificial is not None
        ref = self.ref
        return TripletScores(
            item_id=ref.item_id,
            corrected=self.corrected,
            learner=self.learner,
            artificial=self.artificial,
            l1=ref.l1,
            cefr=ref.cefr,
            error_type=ref.error_type,
            corpus=ref.corpus,
            learner_id=ref.learner_id,
        )

    def outcomes(
        self, *, tau: float = DEFAULT_TAU, tie_tolerance: float = DEFAULT_TIE_TOLERANCE
    ) -> dict[str, str]:
        """Return each metric's outcome for this item (yes, no, tie; "" when unscored)."""
        if not self.scored:
            return dict.fromkeys(METRICS, "")
        found = triplet_outcomes(self.triplet_scores(), tau=tau, tie_tolerance=tie_tolerance)
        return {metric: OUTCOME_NAMES[credit] for metric, (credit, _tie) in found.items()}


def _bpt(score: StoredScore | None) -> float | None:
    return None if score is None else reduce_totals(score.lp_sum, score.lp_mean, "bpt")


def score_triplets(triplets: Sequence[TripletRef], config: ScoreConfig) -> list[ScoredTriplet]:
    """Return the triplets with the configuration's stored scores in bits per token."""
    keys = (k for t in triplets for k in (t.pair.good_key, t.pair.bad_key, t.pair.artificial_key))
    scores = stored_scores(config, keys)
    out = []
    for t in triplets:
        corrected, learner = scores.get(t.pair.good_key), scores.get(t.pair.bad_key)
        artificial = scores.get(t.pair.artificial_key)
        trio = (corrected, learner, artificial)
        if corrected is None or learner is None or artificial is None:
            out.append(ScoredTriplet(t, None, None, None, *(s.n_tokens if s else None for s in trio)))
            continue
        out.append(
            ScoredTriplet(
                t,
                _bpt(corrected),
                _bpt(learner),
                _bpt(artificial),
                corrected.n_tokens,
                learner.n_tokens,
                artificial.n_tokens,
            )
        )
    return out


def triplet_report(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    tau: float = DEFAULT_TAU,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    min_slice: int = DEFAULT_MIN_SLICE,
    bootstrap: int = BOOTSTRAP,
    seed: int = SEED,
    dimensions: Sequence[str] = SLICE_DIMENSIONS,
    triplets: Sequence[TripletRef] | None = None,
) -> TripletReport | None:
    """Return `scoring.triplet_metrics.triplet_report` of the dataset's triplets whose three
    sentences are stored under `config` (None when none is), sliced by `dimensions`.

    Raises:
        ResultsError: when the dataset holds no triplets, or tau is negative.
    """
    if tau < 0:
        raise ResultsError(f"τ must be at least 0 bits per token, not {tau:g}.")
    refs = list(triplets) if triplets is not None else dataset_triplet_refs(dataset)
    items = [s.triplet_scores() for s in score_triplets(refs, config) if s.scored]
    if not items:
        return None
    return engine_triplet_report(
        items,
        tau=tau,
        tie_tolerance=tie_tolerance,
        min_slice=min_slice,
        bootstrap=bootstrap,
        seed=seed,
        dimensions=dimensions,
    )


# -- The BLiSS board: one row per configuration ----------------------------------------------


@dataclass(frozen=True, slots=True)
class TripletRow:
    """One configuration on a triplet dataset: LP, HAP, HAP-τ and SO overall (empty while
    nothing is scored), `n` triplets scored of `n_triplets`, and its pair accuracy (the
    corrected sentence preferred to the learner's in the page's reduction; ties half)."""

    config: ScoreConfig
    n: int
    n_triplets: int
    cells: dict[str, MetricCell]
    pair_accuracy: float | None
    ci_method: str

    @property
    def complete(self) -> bool:
        return self.n == self.n_triplets

    def metric_cells(self) -> list[tuple[str, MetricCell | None]]:
        """Return (metric, cell or None) in METRICS order, for the templates."""
        return [(m, self.cells.get(m)) for m in METRICS]


@dataclass(frozen=True, slots=True)
class TripletBoard:
    """The configurations scored on a triplet dataset, by HAP (best first, unscored last)."""

    dataset: Dataset
    tau: float
    tie_tolerance: float
    reduction: str
    rows: list[TripletRow]


def triplet_board(
    dataset: Dataset,
    configs: Sequence[ScoreConfig],
    *,
    reduction: str = "sum",
    tau: float = DEFAULT_TAU,
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> TripletBoard:
    """Return the BLiSS metrics of each configuration on the dataset (overall only) with its
    pair accuracy under `reduction`.

    Raises:
        ResultsError: when the dataset holds no triplets, or for an unknown reduction.
    """
    check_reduction(reduction)
    refs = dataset_triplet_refs(dataset)
    rows = []
    for config in configs:
        report = triplet_report(
            dataset, config, tau=tau, tie_tolerance=tie_tolerance, dimensions=(), triplets=refs
        )
        # The corrected-vs-learner pair accuracy, as the configuration's results page counts it.
        pairs = pair_report(dataset, config, reduction=reduction, tie_tolerance=tie_tolerance)
        rows.append(
            TripletRow(
                config=config,
                n=report.n if report else 0,
                n_triplets=len(refs),
                cells=dict(report.overall) if report else {},
                pair_accuracy=pairs.overall.accuracy if pairs is not None else None,
                ci_method=report.ci_method if report else "",
            )
        )

    def hap(row: TripletRow) -> float:
        cell = row.cells.get("HAP")
        return cell.value if cell else -1.0

    rows.sort(key=lambda r: (not r.cells, -hap(r), r.config.language_model.name, r.config.pk))
    return TripletBoard(dataset, tau, tie_tolerance, reduction, rows)
