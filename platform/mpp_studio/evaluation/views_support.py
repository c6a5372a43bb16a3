"""What the scoring pages compute from results before rendering: their shared context, the
default reduction of a dataset, plots (scoring.plots) from leaderboards, learning curves and
BLiSS metrics, sorting, the BLiSS report's slice tables, and the token heat strips of the
per-item drill-down."""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.http import HttpRequest

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.page_context import project_context
from mpp_studio.accounts.roles import Role, role_allows
from mpp_studio.datasets.models import Dataset
from mpp_studio.datasets.selectors import is_triplet_dataset
from mpp_studio.evaluation.models import DEFAULT_TIE_TOLERANCE, ScoreConfig, ScoringRun
from mpp_studio.evaluation.results import (
    Leaderboard,
    LeaderboardRow,
    LearningCurve,
    SentenceView,
    leaderboard,
)
from mpp_studio.evaluation.triplet_results import (
    DIMENSION_LABELS,
    METRIC_HELP,
    METRIC_LABELS,
    SHOWN_DIMENSIONS,
    TripletBoard,
    triplet_board,
)
from scoring.linking import parse_linking
from scoring.plots import (
    BarSeries,
    CurveLine,
    ScatterPoint,
    accuracy_by_phenomenon,
    hap_vs_pair_accuracy,
    learning_curves,
)
from scoring.triplet_metrics import METRICS, MetricCell, SliceTest, TripletReport

TAB = "scoring"
# Surprisals are stored in nats (natural log); one bit is ln 2 nats.
UNIT_FACTORS = {"bits": 1 / math.log(2), "nats": 1.0}
UNIT_SYMBOLS = {"bits": "−log₂ p", "nats": "−ln p"}
OVERALL = "overall"


def _linking_label(key: str) -> str:
    return parse_linking(key).label


def page_context(request: HttpRequest, project: Project, **extra: object) -> dict[str, object]:
    """Return the context every scoring page shares: the project's, the tab, and `can_edit`."""
    context = project_context(request, project, active_tab=TAB, **extra)
    role = context["role"]
    context["can_edit"] = isinstance(role, str) and role_allows(role, Role.EDITOR)
    return context


@dataclass(frozen=True, slots=True)
class ResultDefaults:
    """The reduction and tie tolerance a dataset's results are shown with unless asked otherwise."""

    reduction: str
    tie_tolerance: float


def dataset_defaults(dataset: Dataset) -> ResultDefaults:
    """Return the newest run's reduction and tie tolerance on the dataset (sum, 1e-6 if none)."""
    run = ScoringRun.objects.filter(datasets=dataset).order_by("-created_at", "-pk").first()
    if run is None:
        return ResultDefaults("sum", DEFAULT_TIE_TOLERANCE)
    return ResultDefaults(run.reduction, run.tie_tolerance)


def sort_rows(rows: Sequence[LeaderboardRow], column: str) -> list[LeaderboardRow]:
    """Return leaderboard rows by accuracy in `column` (a phenomenon; "" for overall), best first,
    rows without a value last."""

    def value(row: LeaderboardRow) -> float | None:
        return row.accuracy if not column else row.by_phenomenon.get(column)

    return sorted(rows, key=lambda r: (value(r) is None, -(value(r) or 0.0), r.model_name, r.config.pk))


def leaderboard_plot(board: Leaderboard) -> str:
    """Return the accuracy-by-phenomenon bars of the scored rows ("" when none is scored)."""
    series = [BarSeries(row.config.label, row.by_phenomenon) for row in board.rows if row.by_phenomenon]
    if not series:
        return ""
    return accuracy_by_phenomenon(
        series,
        title=f"Accuracy by phenomenon on {board.dataset.name} ({_linking_label(board.reduction)})",
    )


def curve_plot(curve: LearningCurve) -> str:
    """Return the learning curves of a series: overall and one line per phenomenon ("" when
    no checkpoint is scored on the dataset)."""
    scored = [p for p in curve.points if p.accuracy is not None]
    if not scored:
        return ""
    lines = [CurveLine(OVERALL, [(p.step, p.accuracy) for p in scored if p.accuracy is not None])]
    for phenomenon in curve.phenomena:
        points = [(p.step, p.by_phenomenon[phenomenon]) for p in scored if phenomenon in p.by_phenomenon]
        if points:
            lines.append(CurveLine(phenomenon, points))
    return learning_curves(
        lines,
        title=f"{curve.series} on {curve.dataset.name}: accuracy by training step "
        f"({_linking_label(curve.reduction)})",
        overall=OVERALL,
    )


# -- BLiSS (learner triplet datasets) ---------------------------------------------------------

# A Holm-adjusted p-value below this marks a slice as different from the other learners.
SIGNIFICANCE = 0.05
PAIR_ACCURACY_OWN = "Pair accuracy: corrected preferred to learner (%)"
PAIR_ACCURACY_PAIRS = "Pair accuracy on the run's minimal-pair datasets (%)"


def metric_headers(tau: float) -> list[dict[str, str]]:
    """Return each BLiSS metric's column label and explanation (HAP-τ with its τ)."""
    out = []
    for metric in METRICS:
        label = METRIC_LABELS[metric]
        if metric == "HAP_tau":
            label = f"HAP-τ (τ = {tau:g})"
        out.append({"metric": metric, "label": label, "help": METRIC_HELP[metric]})
    return out


def hap_plot(points: Sequence[ScatterPoint], *, title: str, x_label: str) -> str:
    """Return the HAP-against-pair-accuracy scatter (BLiSS Figure 3) of `points` ("" when none)."""
    if not points:
        return ""
    return hap_vs_pair_accuracy(points, title=title, x_label=x_label)


def board_plot(board: TripletBoard) -> str:
    """Return the HAP-against-pair-accuracy scatter of a triplet dataset's configurations: the
    pair accuracy is the corrected sentence preferred to the learner's ("" when none is scored)."""
    points = [
        ScatterPoint(row.config.label, row.pair_accuracy, row.cells["HAP"].value)
        for row in board.rows
        if row.cells and row.pair_accuracy is not None
    ]
    return hap_plot(
        points,
        title=f"HAP against pair accuracy on {board.dataset.name} ({_linking_label(board.reduction)})",
        x_label=PAIR_ACCURACY_OWN,
    )


@dataclass(frozen=True, slots=True)
class SliceCell:
    """One metric of one slice: its cell, its test against the other items, and whether the
    Holm-adjusted p is below SIGNIFICANCE."""

    metric: str
    cell: MetricCell | None
    test: SliceTest | None
    significant: bool


@dataclass(frozen=True, slots=True)
class SliceRow:
    """One slice of a dimension (e.g. L1 = Spanish) as the report page shows it."""

    name: str
    n: int
    suppressed: bool
    cells: list[SliceCell]


@dataclass(frozen=True, slots=True)
class SliceTable:
    """One slice dimension of a BLiSS report: its label and its slices."""

    dimension: str
    label: str
    rows: list[SliceRow]


def slice_tables(report: TripletReport) -> list[SliceTable]:
    """Return the report's slice tables in the order error type, L1, CEFR level, corpus (the
    dimensions with no value on any item left out)."""
    tables = []
    for dimension in SHOWN_DIMENSIONS:
        slices = report.slices.get(dimension)
        if not slices:
            continue
        rows = []
        for name, found in slices.items():
            cells = []
            for metric in METRICS:
                test = found.vs_rest.get(metric)
                significant = test is not None and test.p_holm < SIGNIFICANCE
                cells.append(SliceCell(metric, found.metrics.get(metric), test, significant))
            rows.append(SliceRow(name, found.n, found.suppressed, cells))
        tables.append(SliceTable(dimension, DIMENSION_LABELS[dimension], rows))
    return tables


@dataclass(frozen=True, slots=True)
class RunTriplets:
    """A run's BLiSS summary: each triplet dataset's board, and the plot of every configuration
    on every triplet dataset (x: pooled pair accuracy on the run's minimal-pair datasets when
    it has any, else each triplet dataset's corrected-preferred-to-learner accuracy)."""

    boards: list[TripletBoard]
    plot: str
    x_label: str


def run_triplets(run: ScoringRun) -> RunTriplets | None:
    """Return the BLiSS summary of a run's triplet datasets (None when it has none)."""
    datasets = list(run.datasets.all())
    triplet_sets = [d for d in datasets if is_triplet_dataset(d)]
    if not triplet_sets:
        return None
    pair_sets = [d for d in datasets if d not in triplet_sets]
    configs = list(run.configs.select_related("language_model"))
    boards = [
        triplet_board(d, configs, reduction=run.reduction, tie_tolerance=run.tie_tolerance)
        for d in triplet_sets
    ]
    pooled: dict[int, tuple[float, int]] = {}
    for dataset in pair_sets:
        pairs_board = leaderboard(
            dataset, reduction=run.reduction, tie_tolerance=run.tie_tolerance, configs=configs
        )
        for pairs_row in pairs_board.rows:
            correct, n = pooled.get(pairs_row.config.pk, (0.0, 0))
            pooled[pairs_row.config.pk] = (correct + pairs_row.correct, n + pairs_row.n)
    points = []
    for board in boards:
        for row in board.rows:
            if not row.cells:
                continue
            if pair_sets:
                correct, n = pooled.get(row.config.pk, (0.0, 0))
                x = correct / n if n else None
            else:
                x = row.pair_accuracy
            if x is None:
                continue
            family = board.dataset.name if len(boards) > 1 else ""
            points.append(ScatterPoint(row.config.label, x, row.cells["HAP"].value, family))
    x_label = PAIR_ACCURACY_PAIRS if pair_sets else PAIR_ACCURACY_OWN
    plot = hap_plot(
        points, title=f"HAP against pair accuracy: {run.name} ({run.linking_label})", x_label=x_label
    )
    return RunTriplets(boards, plot, x_label)


def series_on_dataset(configs: Sequence[ScoreConfig]) -> list[str]:
    """Return the checkpoint series with a configuration among `configs`, sorted."""
    return sorted({c.language_model.series for c in configs if c.language_model.series})


@dataclass(frozen=True, slots=True)
class TokenCell:
    """A token of the heat strip: its text (trimmed; `space_before` when a space precedes it
    in the sentence), the tokenizer's token, surprisal in the page's unit, and colours.
    `special` marks a token with no characters of its own (BOS, EOS); `continued` one that
    covers characters the token before it covers too (byte pieces of one character)."""

    text: str
    token: str
    surprisal: float
    background: str
    ink: str
    special: bool
    space_before: bool
    continued: bool


def heat_colour(share: float) -> tuple[str, str]:
    """Return (background, text colour) for a surprisal at `share` (0..1) of the pair's highest:
    from near white to dark red, with white text on the dark end."""
    share = min(1.0, max(0.0, share))
    lightness = 97 - 55 * share
    return f"hsl(8, 85%, {lightness:.0f}%)", "#ffffff" if lightness < 58 else "#1d2330"


def token_cells(sentence: SentenceView, unit: str, scale: float) -> list[TokenCell]:
    """Return the sentence's tokens as heat-strip cells, surprisal in `unit`, coloured against
    `scale` (the highest surprisal of the pair, so both sentences share one scale)."""
    factor = UNIT_FACTORS[unit]
    cells = []
    covered = 0  # the end of the characters the tokens so far cover
    for token in sentence.tokens:
        value = token.surprisal * factor
        background, ink = heat_colour(value / scale if scale > 0 and math.isfinite(value) else 1.0)
        special = token.end <= token.start
        continued = not special and token.start < covered
        before = sentence.text[token.start - 1 : token.start] if token.start > 0 else ""
        cells.append(
            TokenCell(
                text=token.text.strip() or token.text,
                token=token.token,
                surprisal=value,
                background=background,
                ink=ink,
                special=special,
                space_before=not (special or continued) and (token.text[:1].isspace() or before.isspace()),
                continued=continued,
            )
        )
        covered = max(covered, token.end)
    return cells


def pair_scale(
    good: SentenceView, bad: SentenceView, unit: str, artificial: SentenceView | None = None
) -> float:
    """Return the highest token surprisal of the pair (a triplet: its three sentences) in
    `unit` (0 when unscored)."""
    tokens = (*good.tokens, *bad.tokens, *(artificial.tokens if artificial else ()))
    values = [t.surprisal for t in tokens if math.isfinite(t.surprisal)]
    return max(values, default=0.0) * UNIT_FACTORS[unit]


def legend_stops(stops: int = 5) -> list[tuple[str, str, str]]:
    """Return (label, background, ink) for the heat strip's legend: 0% to 100% of the pair's
    highest surprisal."""
    out = []
    for i in range(stops):
        share = i / (stops - 1)
        background, ink = heat_colour(share)
        out.append((f"{share * 100:.0f}%", background, ink))
    return out
