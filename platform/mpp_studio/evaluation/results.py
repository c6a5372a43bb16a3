"""Results of model scoring, computed on demand from the recorded pair scores.

Nothing here touches a model: each pair a run's chunk scored has its two sentences' stored
scores recorded (`PairScore`); they are scored with the linking function asked for (the
`reduction` of every function here: a `scoring.linking` key such as `sum`, `mean`, `bpt`,
`slln:alpha=0.5`, `lognorm`, `penlp:alpha=0.8`), the database counts each paradigm's wins and
ties (`pair_outcomes`), and every accuracy comes from `scoring.metrics` (ties within the
tolerance count 0.5). Pairs no chunk has scored yet are left out and counted, so a running
or failed run shows what it has; no view reads every pair of a dataset (resampled intervals
and downloads read them in blocks).

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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, Subquery
from django.db.models.expressions import Combinable

from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.datasets.selectors import is_triplet_dataset
from mpp_studio.evaluation.linking_choice import LinkingChoiceError, read_linking
from mpp_studio.evaluation.models import DEFAULT_TIE_TOLERANCE, LanguageModel, PairKey, PairScore, ScoreConfig
from mpp_studio.evaluation.pair_outcomes import (
    LOSS,
    TIE,
    WIN,
    ParadigmSize,
    ScoredPair,
    outcome_by_pair,
    outcome_counts,
    paradigm_sizes,
    recorded_numbers,
    scored_pair,
    scored_pair_blocks,
    scored_paradigms,
    sentence_value,
    with_outcome,
)
from mpp_studio.evaluation.selectors import dataset_configs, score_data, stored_scores
from mpp_studio.evaluation.services.sentences import (
    ARTIFICIAL,
    PairRef,
    artificial_sentence,
    sentence_key,
)
from scoring.linking import LinkingFunction
from scoring.metrics import OutcomeCounts, PairReport, counted_report
from scoring.metrics import pair_report as metrics_pair_report
from scoring.paired import PairedComparison, paired_comparison, with_holm

OUTCOMES = ("correct", "wrong", "tie", "unscored")
OUTCOME_CODES = {"correct": WIN, "tie": TIE, "wrong": LOSS}
PAGE_SIZE = 50
# Resamples of the paired bootstrap interval of a comparison's accuracy differences.
COMPARE_BOOTSTRAP = 1000
MAX_PAGE_SIZE = 500


class ResultsError(ValueError):
    """A results query that cannot be answered (an unknown linking function or outcome), in words."""


def check_reduction(reduction: str) -> LinkingFunction:
    """Return the linking function written as `reduction` (`sum`, `slln:alpha=0.7`, ...) that
    results can be computed with from the recorded pair scores (`linking_choice.read_linking`).

    Raises:
        ResultsError: for a function that cannot be read or used here, in words.
    """
    try:
        return read_linking(reduction)
    except LinkingChoiceError as exc:
        raise ResultsError(str(exc)) from None


def scored_pair_stream(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    uid: str = "",
) -> Iterator[list[ScoredPair]]:
    """Yield the dataset's pairs (or paradigm `uid`'s) in order with their scores under
    `config`, a block at a time (unscored pairs too, without scores)."""
    chosen = check_reduction(reduction)
    paradigms = scored_paradigms(config, paradigm_sizes(dataset, uid=uid))
    yield from scored_pair_blocks(config, paradigms, chosen, tie_tolerance)


def scored_pairs(
    dataset: Dataset,
    config: ScoreConfig,
    *,
    reduction: str = "sum",
    tie_tolerance: float = DEFAULT_TIE_TOLERANCE,
    uid: str = "",
) -> list[ScoredPair]:
    """Return every pair of the dataset (or of paradigm `uid`) in order, with its scores."""
    blocks = scored_pair_stream(dataset, config, reduction=reduction, tie_tolerance=tie_tolerance, uid=uid)
    return [pair for block in blocks for pair in block]


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
    is scored). Without resamples (`bootstrap` 0: Wilson intervals) the database counts the
    outcomes; resamples read every scored pair."""
    chosen = check_reduction(reduction)
    paradigms = scored_paradigms(config, paradigm_sizes(dataset))
    if bootstrap <= 0:
        return _counted(outcome_counts(config, paradigms, chosen, tie_tolerance), chosen, tie_tolerance)
    items = [
        p.pair_scores()
        for block in scored_pair_blocks(config, paradigms, chosen, tie_tolerance)
        for p in block
        if p.outcome is not None
    ]
    if not items:
        return None
    return metrics_pair_report(
        items,
        reduction=chosen.key,
        higher_is_better=chosen.higher_is_better,
        tie_tolerance=tie_tolerance,
        bootstrap=bootstrap,
        seed=seed,
    )


def _counted(
    counts: Sequence[OutcomeCounts], reduction: LinkingFunction, tie_tolerance: float
) -> PairReport | None:
    if not any(c.n for c in counts):
        return None
    return counted_report(
        counts,
        reduction=reduction.key,
        higher_is_better=reduction.higher_is_better,
        tie_tolerance=tie_tolerance,
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
    chosen_reduction = check_reduction(reduction)
    chosen = list(configs) if configs is not None else list(dataset_configs(dataset=dataset))
    paradigms = paradigm_sizes(dataset)
    phenomena = sorted({p.phenomenon for p in paradigms})
    rows = []
    for config in chosen:
        own = scored_paradigms(config, paradigms)
        report = _counted(
            outcome_counts(config, own, chosen_reduction, tie_tolerance),
            chosen_reduction,
            tie_tolerance,
        )
        rows.append(
            LeaderboardRow(
                config=config,
                model_name=config.language_model.name,
                method=config.method,
                dtype=config.dtype,
                n=report.overall.n if report else 0,
                n_pairs=sum(p.n_pairs for p in own),
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
    return Leaderboard(dataset, chosen_reduction.key, tie_tolerance, phenomena, rows)


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
    report = pair_report(
        dataset, config, reduction=reduction, tie_tolerance=tie_tolerance, bootstrap=bootstrap
    )
    return paradigm_rows(dataset, config, report)


def paradigm_rows(dataset: Dataset, config: ScoreConfig, report: PairReport | None) -> list[ParadigmRow]:
    """Return one row per paradigm of the dataset the configuration scores (a unigram baseline:
    its language's), by uid, with its cell of `report` (a page that shows the report too counts
    the outcomes once)."""
    counts = {p.uid: (p.phenomenon, p.n_pairs) for p in scored_paradigms(config, paradigm_sizes(dataset))}
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
    chosen_reduction = check_reduction(reduction)
    paradigms = paradigm_sizes(dataset)
    phenomena = sorted({p.phenomenon for p in paradigms})
    points = []
    for config in chosen.values():
        counts = outcome_counts(config, paradigms, chosen_reduction, tie_tolerance)
        report = _counted(counts, chosen_reduction, tie_tolerance)
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
    return LearningCurve(series, dataset, chosen_reduction.key, phenomena, points)


def _config_preference(config: ScoreConfig) -> tuple[bool, bool, int]:
    model = config.language_model
    return (config.method != model.default_method, config.dtype != ScoreConfig.DType.FLOAT32, config.pk)


# -- Comparison -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ComparisonRow:
    """One paradigm (or "" for all pairs) under several configurations: each one's accuracy
    (None when it scored none of these pairs), and how many of the pairs every configuration
    scored (`n_common`) get different outcomes from them (`n_differ`). For two configurations,
    `paired` tests the second against the first on those common pairs (exact McNemar, with
    Holm's correction across paradigms, and a paired bootstrap interval of the difference)."""

    uid: str
    phenomenon: str
    n_pairs: int
    accuracies: list[float | None]
    n_common: int
    n_differ: int
    paired: PairedComparison | None = None


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
    bootstrap: int = COMPARE_BOOTSTRAP,
    seed: int = 0,
) -> Comparison:
    """Return the configurations' accuracies per paradigm side by side, with the number of
    pairs on which their decisions (correct / wrong / tie) differ, and, for two
    configurations, the paired test of each paradigm and of all pairs (`bootstrap` resamples
    for the intervals, drawn with `seed`)."""
    chosen = check_reduction(reduction)
    paradigms = paradigm_sizes(dataset)
    outcomes = [outcome_by_pair(c, scored_paradigms(c, paradigms), chosen, tie_tolerance) for c in configs]

    def row(uid: str, phenomenon: str, n_pairs: int, paradigm_ids: set[int]) -> ComparisonRow:
        per_config = [
            {pair_id: o for pk in paradigm_ids for pair_id, o in by_paradigm.get(pk, {}).items()}
            for by_paradigm in outcomes
        ]
        accuracies = [math.fsum(found.values()) / len(found) if found else None for found in per_config]
        common = sorted(set.intersection(*(set(found) for found in per_config))) if per_config else []
        differ = sum(1 for i in common if len({found[i] for found in per_config}) > 1)
        paired = None
        if len(per_config) == 2 and common:
            first, second = ([found[i] for i in common] for found in per_config)
            paired = paired_comparison(first, second, bootstrap=bootstrap, seed=seed)
        return ComparisonRow(uid, phenomenon, n_pairs, accuracies, len(common), differ, paired)

    rows = [row(p.uid, p.phenomenon, p.n_pairs, {p.pk}) for p in paradigms]
    adjusted = with_holm([r.paired for r in rows])
    rows = [replace(r, paired=paired) for r, paired in zip(rows, adjusted, strict=True)]
    overall = row("", "", sum(p.n_pairs for p in paradigms), {p.pk for p in paradigms})
    return Comparison(dataset, list(configs), chosen.key, rows, overall)


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
    differs_from: ScoreConfig | None = None,
) -> ItemPage:
    """Return page `page` of the dataset's pairs under `config`, in dataset order, kept to
    paradigm `uid`, outcome (correct, wrong, tie, unscored), a text `search`, and the pairs
    `differs_from` (another configuration) decides otherwise, when given.

    Raises:
        ResultsError: for an unknown reduction or outcome, or a page size out of 1..500.
    """
    if outcome and outcome not in OUTCOMES:
        raise ResultsError(f"Unknown outcome '{outcome}': use one of {', '.join(OUTCOMES)}.")
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise ResultsError(f"A page holds 1 to {MAX_PAGE_SIZE} items.")
    chosen_reduction = check_reduction(reduction)
    paradigms = scored_paradigms(config, paradigm_sizes(dataset, uid=uid))
    page = max(1, page)
    condition = _item_condition(config, outcome, search, chosen_reduction, tie_tolerance, differs_from)
    counts = _item_counts(
        config,
        paradigms,
        outcome,
        bool(search) or differs_from is not None,
        condition,
        chosen_reduction,
        tie_tolerance,
    )
    triplets = is_triplet_dataset(dataset)
    rows = _paradigm_slice(paradigms, counts, condition, (page - 1) * page_size, page_size, triplets)
    chosen = _scored_rows(config, rows, chosen_reduction, tie_tolerance)
    third_keys = [s.pair.artificial_key for s in chosen if s.pair.artificial_key]
    data = score_data(config, [k for s in chosen for k in (s.pair.good_key, s.pair.bad_key)] + third_keys)
    third = stored_scores(config, third_keys) if third_keys else {}

    def artificial(pair: PairRef) -> SentenceView | None:
        if not pair.artificial_key:
            return None
        stored = third.get(pair.artificial_key)
        value = (
            None
            if stored is None or chosen_reduction.needs_unigram  # no unigram log-prob of a third sentence
            else sentence_value(chosen_reduction, stored.lp_sum, stored.lp_mean, stored.n_tokens)
        )
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
    return ItemPage(items, page, page_size, sum(counts.values()), chosen_reduction.key)


def _item_condition(
    config: ScoreConfig,
    outcome: str,
    search: str,
    reduction: LinkingFunction,
    tie_tolerance: float,
    differs_from: ScoreConfig | None = None,
) -> Q | Combinable | None:
    """Return the condition on pairs of an item filter (None: every pair)."""
    # An empty Q combined with an expression is that expression, not a Q.
    condition: Q | Combinable = Q()
    recorded = PairScore.objects.filter(config=config, pair=OuterRef("pk"))
    if outcome == "unscored":
        # scored under this function: recorded, and for SLOR and MORCELA with unigram log-probs
        condition &= ~Exists(with_outcome(recorded, reduction, tie_tolerance))
    elif outcome:
        outcomes = with_outcome(recorded, reduction, tie_tolerance)
        condition &= Exists(
            outcomes.filter(outcome=OUTCOME_CODES[outcome])  # type: ignore[misc]  # with_outcome's annotation
        )
    if search:
        condition &= Q(sentence_good__icontains=search) | Q(sentence_bad__icontains=search)
    if differs_from is not None:
        # both scored, and decided otherwise (a tie differs from right and from wrong)
        theirs = with_outcome(
            PairScore.objects.filter(config=differs_from, pair=OuterRef("pair")), reduction, tie_tolerance
        ).annotate(code=F("outcome"))
        mine = with_outcome(recorded, reduction, tie_tolerance).annotate(
            theirs=Subquery(theirs.values("code")[:1])
        )
        condition &= Exists(
            mine.filter(theirs__isnull=False).exclude(outcome=F("theirs"))  # type: ignore[misc]  # with_outcome's annotation
        )
    return condition if condition else None


def _item_counts(
    config: ScoreConfig,
    paradigms: Sequence[ParadigmSize],
    outcome: str,
    count_matches: bool,
    condition: Q | Combinable | None,
    reduction: LinkingFunction,
    tie_tolerance: float,
) -> dict[int, int]:
    """Return how many pairs of each paradigm pass an item filter: kept counts, or the
    recorded outcomes counted by the database; a text search or a comparison with another
    configuration (`count_matches`) counts the matching pairs."""
    if condition is None:
        return {p.pk: p.n_pairs for p in paradigms}
    if count_matches:
        matching = Pair.objects.filter(paradigm_id__in=[p.pk for p in paradigms]).filter(condition)
        return dict(matching.values("paradigm_id").annotate(n=Count("pk")).values_list("paradigm_id", "n"))
    tally = {p.uid: [0, 0, 0] for p in paradigms}  # pairs, wins, ties scored
    for group in outcome_counts(config, paradigms, reduction, tie_tolerance):
        counts = tally[group.uid]
        counts[0] += group.n
        counts[1] += group.wins
        counts[2] += group.ties
    passing: dict[str, Callable[[ParadigmSize, list[int]], int]] = {
        "correct": lambda p, c: c[1],
        "tie": lambda p, c: c[2],
        "wrong": lambda p, c: c[0] - c[1] - c[2],
        "unscored": lambda p, c: p.n_pairs - c[0],
    }
    return {p.pk: passing[outcome](p, tally[p.uid]) for p in paradigms}


# A page's pair: its paradigm and (pk, index, good text, bad text[, the record's artificial sentence]).
_PageRow = tuple[ParadigmSize, tuple[Any, ...]]


def _paradigm_slice(
    paradigms: Sequence[ParadigmSize],
    counts: dict[int, int],
    condition: Q | Combinable | None,
    start: int,
    take: int,
    triplets: bool,
) -> list[_PageRow]:
    """Return pairs `start` to `start + take` of those passing `condition`, paradigm after
    paradigm in index order: placed by the counts, then read from each paradigm it spans."""
    fields = ("pk", "index", "sentence_good", "sentence_bad") + (
        (f"record__{ARTIFICIAL}",) if triplets else ()
    )
    out: list[_PageRow] = []
    offset = 0
    for paradigm in paradigms:
        n = counts.get(paradigm.pk, 0)
        if offset >= start + take:
            break
        end = offset + n
        if n and end > start:
            skip = max(0, start - offset)
            want = min(start + take, end) - offset - skip
            pairs = Pair.objects.filter(paradigm_id=paradigm.pk)
            if condition is not None:
                pairs = pairs.filter(condition)
            out += [
                (paradigm, row) for row in pairs.order_by("index").values_list(*fields)[skip : skip + want]
            ]
        offset = end
    return out


def _scored_rows(
    config: ScoreConfig, rows: Sequence[_PageRow], reduction: LinkingFunction, tie_tolerance: float
) -> list[ScoredPair]:
    """Return a page's pairs with their sentence keys, recorded scores and outcomes."""
    ids = [int(row[0]) for _, row in rows]
    numbers = recorded_numbers(config, ids)
    keys = {
        pair_id: (good, bad, third)
        for pair_id, good, bad, third in PairKey.objects.filter(pair_id__in=ids).values_list(
            "pair_id", "good_key", "bad_key", "artificial_key"
        )
    }
    out = []
    for paradigm, row in rows:
        pk, index, good_text, bad_text = int(row[0]), int(row[1]), str(row[2]), str(row[3])
        good_key, bad_key, third_key = keys.get(pk, ("", "", None))
        third = artificial_sentence(row[4]) if len(row) > 4 else None
        third_text = third.text if third is not None else ""
        if third is not None and not third_key:
            third_key = sentence_key(third)  # no words: the key a chunk records
        ref = PairRef(
            pk,
            paradigm.pk,
            paradigm.uid,
            paradigm.phenomenon,
            index,
            good_text,
            bad_text,
            good_key,
            bad_key,
            third_text,
            third_key or "",
        )
        out.append(scored_pair(ref, numbers.get(pk), reduction, tie_tolerance))
    return out


def _sentence_view(text: str, score: float | None, data: dict[str, Any] | None) -> SentenceView:
    if data is None:
        return SentenceView(text, score, None, [], [])
    tokens_raw = list(data.get("tokens") or [])
    spans = [tuple(s) for s in data.get("token_spans") or []]
    logprobs = [float(x) for x in data.get("logprobs") or []]
    tokens = [
        TokenView(str(token), text[start:end] or str(token), int(start), int(end), lp, 0.0 - lp)
        for token, (start, end), lp in zip(tokens_raw, spans, logprobs, strict=False)
    ]
    word_spans = [tuple(s) for s in data.get("word_spans") or []]
    word_lps = [float(x) for x in data.get("word_logprobs") or []]
    words = [
        WordView(text[start:end], int(start), int(end), lp, 0.0 - lp)
        for (start, end), lp in zip(word_spans, word_lps, strict=False)
    ]
    return SentenceView(text, score, len(logprobs), tokens, words)
