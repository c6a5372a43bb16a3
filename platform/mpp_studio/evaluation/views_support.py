"""What the scoring pages compute from results before rendering: their shared context, the
default reduction of a dataset, plots (scoring.plots) from leaderboards and learning curves,
sorting, and the token heat strips of the per-item drill-down."""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.http import HttpRequest

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.roles import Role, role_allows
from mpp_studio.accounts.views import project_context
from mpp_studio.datasets.models import Dataset
from mpp_studio.evaluation.models import DEFAULT_TIE_TOLERANCE, ScoreConfig, ScoringRun
from mpp_studio.evaluation.results import Leaderboard, LeaderboardRow, LearningCurve, SentenceView
from scoring.plots import BarSeries, CurveLine, accuracy_by_phenomenon, learning_curves

TAB = "scoring"
# Surprisals are stored in nats (natural log); one bit is ln 2 nats.
UNIT_FACTORS = {"bits": 1 / math.log(2), "nats": 1.0}
UNIT_SYMBOLS = {"bits": "−log₂ p", "nats": "−ln p"}
REDUCTION_UNITS = {
    "sum": "summed log-probability (nats; higher is better)",
    "mean": "mean log-probability per token (nats; higher is better)",
    "bpt": "bits per token (lower is better)",
}
OVERALL = "overall"


def page_context(request: HttpRequest, project: Project, **extra: object) -> dict[str, object]:
    """Return the context every scoring page shares: the project's, the tab, and `can_edit`."""
    context = project_context(request, project, active_tab=TAB, **extra)
    context["can_edit"] = role_allows(context["role"], Role.EDITOR)  # type: ignore[arg-type]
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
        title=f"Accuracy by phenomenon on {board.dataset.name} ({board.reduction})",
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
        title=f"{curve.series} on {curve.dataset.name}: accuracy by training step ({curve.reduction})",
        overall=OVERALL,
    )


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


def pair_scale(good: SentenceView, bad: SentenceView, unit: str) -> float:
    """Return the highest token surprisal of the pair in `unit` (0 when unscored)."""
    values = [t.surprisal for t in (*good.tokens, *bad.tokens) if math.isfinite(t.surprisal)]
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
