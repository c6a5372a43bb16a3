"""Results of model scoring, computed on demand from the stored per-sentence scores.

Nothing here touches a model: a pair's scores are the stored scores of its two sentences
(joined by sentence key), reduced with the reduction asked for (sum, mean or bits per token),
and every accuracy comes from `scoring.metrics` (ties within the tolerance count 0.5). Pairs
whose sentences are not both stored yet are left out and counted, so a running or failed run
shows what it has.

Used by the pages, the API and the exports:
- leaderboard(dataset): one row per configuration, overall and per-phenomenon accuracy;
- paradigm_table(dataset, config): one row per paradigm; pair_report(...): the full report;
- learning_curve(project, series, dataset): accuracy by training step;
- compare(dataset, configs): per-paradigm accuracies side by side, and where decisions differ;
- item_rows(dataset, config, ...): a page of pairs with tokens, surprisals, scores and outcome
  (and a learner triplet's artificial sentence).

The BLiSS metrics of learner triplet datasets are in triplet_results.py.
"""

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import Dataset
from mpp_studio.evaluation.models import DEFAULT_TIE_TOLERANCE, LanguageModel, ScoreConfig, SentenceScore
from mpp_studio.evaluation.selectors import dataset_configs
from mpp_studio.evaluation.services.sentences import PairRef, dataset_pair_refs
from scoring.items import HIGHER_IS_BETTER, REDUCTIONS, Reduction
from scoring.metrics import PairReport, PairScores, pair_outcome
from scoring.metrics import pair_report as metrics_pair_report

# Keys per `IN (...)` query: well under SQLite's and PostgreSQL's parameter limits.
KEY_BATCH = 2_000
# Above this many keys, the configuration's rows are read in one pass instead.
SCAN_ABOVE = 4_000
OUTCOME_NAMES = {1.0: "correct", 0.0: "wrong", 0.5: "tie"}
OUTCOMES = ("correct", "wrong", "tie", "unscored")
PAGE_SIZE = 50
MAX_PAGE_SIZE = 500


class ResultsError(ValueError):
    """A results query that cannot be answered (an unknown reduction or outcome), in words."""


def check_reduction(reduction: str) -> Reduction:
    """Return `reduction` if it is one of sum, mean, bpt.

    Raises:
        ResultsError: otherwise.
    """
    if reduction not in REDUCTIONS:
        raise ResultsError(f"Unknown reduction '{reduction}': use one of {', '.join(REDUCTIONS)}.")
    return reduction  # type: ignore[return-value]


def reduce_stored(lp_sum: float, lp_mean: float, reduction: Reduction) -> float:
    """Return a stored sentence's score under `reduction` from its summed and mean log-prob
    (the same numbers `scoring.SentenceScore.reduce` gives)."""
    if reduction == "sum":
        return lp_sum
    if reduction == "mean":
        return lp_mean
    return -lp_mean / math.log(2)


@dataclass(frozen=True, slots=True)
class StoredScore:
    """The numbers of one stored sentence score that accuracies need."""

    lp_sum: float
    lp_mean: float
    n_tokens: int


def stored_scores(config: ScoreConfig, keys: Iterable[str]) -> dict[str, StoredScore]:
    """Return the configuration's stored scores of these sentence keys (missing keys left out)."""
    wanted = list(dict.fromkeys(keys))
    found: dict[str, StoredScore] = {}
    fields = ("sentence_key", "lp_sum", "lp_mean", "n_tokens")
    if len(wanted) > SCAN_ABOVE:
        # One pass over the configuration's rows beats many `IN (...)` queries (building one
        # with 2,000 parameters costs Django more than reading the rows).
        wanted_set = set(wanted)
        rows = SentenceScore.objects.filter(config=config).values_list(*fields)
        for key, lp_sum, lp_mean, n_tokens in rows.iterator(chunk_size=10_000):
            if key in wanted_set:
                found[key] = StoredScore(lp_sum, lp_mean, n_tokens)
        return found
    for start in range(0, len(wanted), KEY_BATCH):
        keys_part = wanted[start : start + KEY_BATCH]
        batch = SentenceScore.objects.filter(config=config, sentence_key__in=keys_part)
        for key, lp_sum, lp_mean, n_tokens in batch.values_list(*fields):
            found[key] = StoredScore(lp_sum, lp_mean, n_tokens)
    return found


@dataclass(frozen=True, slots=True)
class ScoredPair:
    """A pair with its reduced scores; `good`/`bad`/`outcome` are None until both are stored.

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
        """Return good - bad (in the reduction's unit), or None."""
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


def score_pairs(
    pairs: Sequence[PairRef],
    config: ScoreConfig,
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> list[ScoredPair]:
    """Return the pairs with the configuration's stored scores, reduced, and their outcomes."""
    direction = HIGHER_IS_BETTER[check_reduction(reduction)]
    scores = stored_scores(config, (key for p in pairs for key in (p.good_key, p.bad_key)))
    out = []
    for pair in pairs:
        good, bad = scores.get(pair.good_key), scores.get(pair.bad_key)
        if good is None or bad is None:
            out.append(ScoredPair(pair, None, None, None, None, None))
            continue
        good_value = reduce_stored(good.lp_sum, good.lp_mean, reduction)  # type: ignore[arg-type]
        bad_value = reduce_stored(bad.lp_sum, bad.lp_mean, reduction)  # type: ignore[arg-type]
        outcome = pair_outcome(good_value, bad_value, higher_is_better=direction, tie_tolerance=tie_tolerance)
        out.append(ScoredPair(pair, good_value, bad_value, good.n_tokens, bad.n_tokens, outcome))
    return out


def scored_pairs(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    uid: str = "",
) -> list[ScoredPair]:
    """Return every pair of the dataset (or of paradigm `uid`) in order, with its scores."""
    check_reduction(reduction)
    pairs = dataset_pair_refs(dataset, uid=uid)
    return score_pairs(pairs, config, reduction=reduction, tie_tolerance=tie_tolerance)


def pair_report(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    bootstrap: int = 0,
    seed: int = 0,
) -> PairReport | None:
    """Return `scoring.metrics.pair_report` of the dataset's scored pairs (None when no pair
    has both scores stored). `bootstrap` resamples give the intervals (0: Wilson intervals)."""
    items = [
        p.pair_scores()
        for p in scored_pairs(dataset, config, reduction=reduction, tie_tolerance=tie_tolerance)
        if p.outcome is not None
    ]
    return _report(items, reduction, tie_tolerance, bootstrap, seed)


def _report(
    items: Sequence[PairScores], reduction: str, tie_tolerance: float, bootstrap: int, seed: int
) -> PairReport | None:
    if not items:
        return None
    return metrics_pair_report(
        items,
        reduction=check_reduction(reduction),
        tie_tolerance=tie_tolerance,
        bootstrap=bootstrap,
        seed=seed,
    )


# -- Leaderboard ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One configuration's accuracy on a dataset. `n` pairs are scored of `n_pairs`;
    `accuracy` etc. are None while none is. `by_phenomenon` maps phenomenon -> accuracy."""

    config: ScoreConfig
    model_name: str
    method: str
    dtype: str
    n: int
    n_pairs: int
    accuracy: float | None
    correct: float
    ties: int
    ci_low: float | None
    ci_high: float | None
    p_value: float | None
    macro_accuracy: float | None
    by_phenomenon: dict[str, float]
    warnings: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.n == self.n_pairs


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The configurations scored on a dataset, best first; `phenomena` are the column names."""

    dataset: Dataset
    reduction: str
    tie_tolerance: float
    phenomena: list[str]
    rows: list[LeaderboardRow]


def leaderboard(
    dataset: Dataset,
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    configs: Sequence[ScoreConfig] | None = None,
) -> Leaderboard:
    """Return the leaderboard of the dataset: one row per configuration (by default, each one
    a run of the project scored it with), sorted by overall accuracy (unscored rows last)."""
    check_reduction(reduction)
    chosen = list(configs) if configs is not None else list(dataset_configs(dataset=dataset))
    pairs = dataset_pair_refs(dataset)
    phenomena = sorted({p.phenomenon for p in pairs})
    rows = []
    for config in chosen:
        scored = score_pairs(pairs, config, reduction=reduction, tie_tolerance=tie_tolerance)
        items = [p.pair_scores() for p in scored if p.outcome is not None]
        report = _report(items, reduction, tie_tolerance, 0, 0)
        rows.append(
            LeaderboardRow(
                config=config,
                model_name=config.language_model.name,
                method=config.method,
                dtype=config.dtype,
                n=len(items),
                n_pairs=len(pairs),
                accuracy=report.overall.accuracy if report else None,
                correct=report.overall.correct if report else 0.0,
                ties=report.overall.ties if report else 0,
                ci_low=report.overall.ci_low if report else None,
                ci_high=report.overall.ci_high if report else None,
                p_value=report.overall.p_value if report else None,
                macro_accuracy=report.macro_accuracy if report else None,
                by_phenomenon={k: c.accuracy for k, c in report.by_phenomenon.items()} if report else {},
                warnings=list(report.warnings) if report else [],
            )
        )
    rows.sort(key=lambda r: (r.accuracy is None, -(r.accuracy or 0.0), r.model_name, r.config.pk))
    return Leaderboard(dataset, reduction, tie_tolerance, phenomena, rows)


# -- Paradigm table ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParadigmRow:
    """One paradigm's accuracy under one configuration (None values while nothing is scored)."""

    uid: str
    phenomenon: str
    n_pairs: int
    n: int
    correct: float
    ties: int
    accuracy: float | None
    ci_low: float | None
    ci_high: float | None
    p_value: float | None


def paradigm_table(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    bootstrap: int = 0,
) -> list[ParadigmRow]:
    """Return one row per paradigm of the dataset (by uid) with its accuracy under `config`."""
    scored = scored_pairs(dataset, config, reduction=reduction, tie_tolerance=tie_tolerance)
    report = _report(
        [p.pair_scores() for p in scored if p.outcome is not None], reduction, tie_tolerance, bootstrap, 0
    )
    counts: dict[str, tuple[str, int]] = {}
    for item in scored:
        phenomenon, n = counts.get(item.pair.uid, (item.pair.phenomenon, 0))
        counts[item.pair.uid] = (phenomenon, n + 1)
    rows = []
    for uid, (phenomenon, n_pairs) in sorted(counts.items()):
        cell = report.by_paradigm.get(uid) if report else None
        rows.append(
            ParadigmRow(
                uid=uid,
                phenomenon=phenomenon,
                n_pairs=n_pairs,
                n=cell.n if cell else 0,
                correct=cell.correct if cell else 0.0,
                ties=cell.ties if cell else 0,
                accuracy=cell.accuracy if cell else None,
                ci_low=cell.ci_low if cell else None,
                ci_high=cell.ci_high if cell else None,
                p_value=cell.p_value if cell else None,
            )
        )
    return rows


# -- Learning curve ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One checkpoint's accuracy: overall and per phenomenon (None while nothing is scored)."""

    step: int
    model: LanguageModel
    config: ScoreConfig
    n: int
    accuracy: float | None
    by_phenomenon: dict[str, float]


@dataclass(frozen=True, slots=True)
class LearningCurve:
    """A checkpoint series' accuracy on a dataset by training step (ascending)."""

    series: str
    dataset: Dataset
    reduction: str
    phenomena: list[str]
    points: list[CurvePoint]


def learning_curve(
    project: Project,
    series: str,
    dataset: Dataset,
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    method: str = "",
) -> LearningCurve:
    """Return the series' accuracy on the dataset at each checkpoint that was scored on it.

    Each checkpoint contributes its configuration scored on the dataset (with `method` when
    given; else its model's default method, float32 first), so all points compare alike.
    """
    check_reduction(reduction)
    available = [
        c
        for c in dataset_configs(dataset=dataset)
        if c.language_model.series == series
        and c.language_model.project_id == project.pk
        and c.language_model.step is not None
    ]
    chosen: dict[int, ScoreConfig] = {}
    for config in sorted(available, key=_config_preference):
        model = config.language_model
        if method and config.method != method:
            continue
        chosen.setdefault(model.pk, config)
    pairs = dataset_pair_refs(dataset)
    phenomena = sorted({p.phenomenon for p in pairs})
    points = []
    for config in chosen.values():
        scored = score_pairs(pairs, config, reduction=reduction, tie_tolerance=tie_tolerance)
        items = [p.pair_scores() for p in scored if p.outcome is not None]
        report = _report(items, reduction, tie_tolerance, 0, 0)
        model = config.language_model
        points.append(
            CurvePoint(
                step=int(model.step or 0),
                model=model,
                config=config,
                n=report.overall.n if report else 0,
                accuracy=report.overall.accuracy if report else None,
                by_phenomenon={k: c.accuracy for k, c in report.by_phenomenon.items()} if report else {},
            )
        )
    points.sort(key=lambda p: (p.step, p.model.name))
    return LearningCurve(series, dataset, reduction, phenomena, points)


def _config_preference(config: ScoreConfig) -> tuple[bool, bool, int]:
    model = config.language_model
    return (config.method != model.default_method, config.dtype != ScoreConfig.DType.FLOAT32, config.pk)


# -- Comparison -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ComparisonRow:
    """One paradigm (or "" for all pairs) under several configurations: each one's accuracy
    (None when it scored none of these pairs), and how many of the pairs every configuration
    scored (`n_common`) get different outcomes from them (`n_differ`)."""

    uid: str
    phenomenon: str
    n_pairs: int
    accuracies: list[float | None]
    n_common: int
    n_differ: int


@dataclass(frozen=True, slots=True)
class Comparison:
    """Configurations side by side on one dataset: per paradigm, then `overall`."""

    dataset: Dataset
    configs: list[ScoreConfig]
    reduction: str
    rows: list[ComparisonRow]
    overall: ComparisonRow


def compare(
    dataset: Dataset,
    configs: Sequence[ScoreConfig],
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> Comparison:
    """Return the configurations' accuracies per paradigm side by side, with the number of
    pairs on which their decisions (correct / wrong / tie) differ."""
    check_reduction(reduction)
    pairs = dataset_pair_refs(dataset)
    outcomes = [
        [s.outcome for s in score_pairs(pairs, c, reduction=reduction, tie_tolerance=tie_tolerance)]
        for c in configs
    ]
    groups: dict[str, list[int]] = {}
    for index, pair in enumerate(pairs):
        groups.setdefault(pair.uid, []).append(index)

    def row(uid: str, phenomenon: str, indexes: Sequence[int]) -> ComparisonRow:
        accuracies: list[float | None] = []
        for per_config in outcomes:
            values = [per_config[i] for i in indexes if per_config[i] is not None]
            accuracies.append(math.fsum(values) / len(values) if values else None)  # type: ignore[arg-type]
        common = [i for i in indexes if all(o[i] is not None for o in outcomes)]
        differ = sum(1 for i in common if len({o[i] for o in outcomes}) > 1)
        return ComparisonRow(uid, phenomenon, len(indexes), accuracies, len(common), differ)

    rows = [row(uid, pairs[idx[0]].phenomenon, idx) for uid, idx in sorted(groups.items())]
    overall = row("", "", range(len(pairs)))
    return Comparison(dataset, list(configs), reduction, rows, overall)


# -- Items ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TokenView:
    """A scored token: its characters in the sentence (`text`; the token string for a special
    token), its log-prob and surprisal (-log-prob, in nats)."""

    token: str
    text: str
    start: int
    end: int
    logprob: float
    surprisal: float


@dataclass(frozen=True, slots=True)
class WordView:
    """A word with its summed log-prob and surprisal (nats)."""

    text: str
    start: int
    end: int
    logprob: float
    surprisal: float


@dataclass(frozen=True, slots=True)
class SentenceView:
    """One sentence of an item: text, reduced score, tokens and words (empty when unscored)."""

    text: str
    score: float | None
    n_tokens: int | None
    tokens: list[TokenView]
    words: list[WordView]


@dataclass(frozen=True, slots=True)
class ItemRow:
    """A pair under one configuration: both sentences, `difference` = good - bad, outcome; a
    learner triplet's artificial sentence too (None for a minimal pair)."""

    pair_id: int
    item_id: str
    uid: str
    phenomenon: str
    index: int
    good: SentenceView
    bad: SentenceView
    difference: float | None
    outcome: str
    artificial: SentenceView | None = None


@dataclass(frozen=True, slots=True)
class ItemPage:
    """One page of items; `total` counts the items matching the filters."""

    items: list[ItemRow]
    page: int
    page_size: int
    total: int
    reduction: str

    @property
    def n_pages(self) -> int:
        return max(1, math.ceil(self.total / self.page_size))


def item_rows(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    uid: str = "",
    outcome: str = "",
    search: str = "",
    page: int = 1,
    page_size: int = PAGE_SIZE,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
) -> ItemPage:
    """Return page `page` of the dataset's pairs under `config`, in dataset order, kept to
    paradigm `uid`, outcome (correct, wrong, tie, unscored) and a text `search` when given.

    Raises:
        ResultsError: for an unknown reduction or outcome, or a page size out of 1..500.
    """
    if outcome and outcome not in OUTCOMES:
        raise ResultsError(f"Unknown outcome '{outcome}': use one of {', '.join(OUTCOMES)}.")
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise ResultsError(f"A page holds 1 to {MAX_PAGE_SIZE} items.")
    scored = scored_pairs(dataset, config, reduction=reduction, tie_tolerance=tie_tolerance, uid=uid)
    if outcome:
        scored = [s for s in scored if s.outcome_name == outcome]
    if search:
        needle = search.casefold()
        scored = [
            s for s in scored if needle in s.pair.good_text.casefold() or needle in s.pair.bad_text.casefold()
        ]
    page = max(1, page)
    chosen = scored[(page - 1) * page_size : page * page_size]
    third_keys = [s.pair.artificial_key for s in chosen if s.pair.artificial_key]
    data = score_data(config, [k for s in chosen for k in (s.pair.good_key, s.pair.bad_key)] + third_keys)
    third = stored_scores(config, third_keys) if third_keys else {}

    def artificial(pair: PairRef) -> SentenceView | None:
        if not pair.artificial_key:
            return None
        stored = third.get(pair.artificial_key)
        value = None if stored is None else reduce_stored(stored.lp_sum, stored.lp_mean, reduction)  # type: ignore[arg-type]
        return _sentence_view(pair.artificial_text, value, data.get(pair.artificial_key))

    items = [
        ItemRow(
            pair_id=s.pair.pair_id,
            item_id=s.pair.item_id,
            uid=s.pair.uid,
            phenomenon=s.pair.phenomenon,
            index=s.pair.index,
            good=_sentence_view(s.pair.good_text, s.good, data.get(s.pair.good_key)),
            bad=_sentence_view(s.pair.bad_text, s.bad, data.get(s.pair.bad_key)),
            difference=s.difference,
            outcome=s.outcome_name,
            artificial=artificial(s.pair),
        )
        for s in chosen
    ]
    return ItemPage(items, page, page_size, len(scored), reduction)


def score_data(config: ScoreConfig, keys: Sequence[str]) -> dict[str, dict[str, object]]:
    """Return the stored `SentenceScore.to_dict()` data of these sentence keys (missing left out)."""
    found: dict[str, dict[str, object]] = {}
    wanted = list(dict.fromkeys(keys))
    for start in range(0, len(wanted), KEY_BATCH):
        rows = SentenceScore.objects.filter(config=config, sentence_key__in=wanted[start : start + KEY_BATCH])
        found.update(rows.values_list("sentence_key", "data"))
    return found


def _sentence_view(text: str, score: float | None, data: dict[str, object] | None) -> SentenceView:
    if data is None:
        return SentenceView(text, None, None, [], [])
    tokens_raw = list(data.get("tokens") or [])  # type: ignore[call-overload]
    spans = [tuple(s) for s in data.get("token_spans") or []]  # type: ignore[attr-defined]
    logprobs = [float(x) for x in data.get("logprobs") or []]  # type: ignore[attr-defined]
    tokens = [
        TokenView(str(token), text[start:end] or str(token), int(start), int(end), lp, 0.0 - lp)
        for token, (start, end), lp in zip(tokens_raw, spans, logprobs, strict=False)
    ]
    word_spans = [tuple(s) for s in data.get("word_spans") or []]  # type: ignore[attr-defined]
    word_lps = [float(x) for x in data.get("word_logprobs") or []]  # type: ignore[attr-defined]
    words = [
        WordView(text[start:end], int(start), int(end), lp, 0.0 - lp)
        for (start, end), lp in zip(word_spans, word_lps, strict=False)
    ]
    return SentenceView(text, score, len(logprobs), tokens, words)
