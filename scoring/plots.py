"""Plots of scoring results as SVG text for inline use in a web page: accuracy by phenomenon
(grouped bars, one bar per model), learning curves over training steps (one line per
phenomenon), and HAP against pair accuracy (BLiSS Figure 3, one point per model).

Each plot has a title, axis labels, a legend and an SVG `<title>`/`<desc>` (role="img"), and
its text stays text (`svg.fonttype = none`), so a screen reader, a search and a test can read
the labels. Element ids carry a prefix, so several plots on one page never share an id.
Accuracies are fractions from 0 to 1, drawn as percentages.

matplotlib is imported inside the functions, and only its non-interactive SVG canvas (no
pyplot, no display, no global figure state), so importing `scoring` stays light.
"""

from __future__ import annotations

import hashlib
import io
import math
import re
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any
from xml.sax.saxutils import escape

# Okabe & Ito's colour-blind-safe palette (black last: it marks "overall" on learning curves).
PALETTE: tuple[str, ...] = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#999999",
)
OVERALL_COLOUR = "#000000"
CHANCE = 0.5
# matplotlib's rcParams are process-wide; pages may be drawn from several threads at once.
_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class BarSeries:
    """One model's accuracy per phenomenon (a missing phenomenon has no bar)."""

    label: str
    values: Mapping[str, float]


@dataclass(frozen=True, slots=True)
class CurveLine:
    """One line of a learning curve: (training step, accuracy) points."""

    label: str
    points: Sequence[tuple[int, float]]


@dataclass(frozen=True, slots=True)
class ScatterPoint:
    """One model on the BLiSS plane: its pair accuracy (e.g. BLiMP) and HAP, both 0 to 1;
    `family` picks the colour (BLiSS colours models by training family)."""

    label: str
    pair_accuracy: float
    hap: float
    family: str = ""


def _check_fraction(value: float, what: str) -> float:
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{what} is {value!r}: an accuracy must be a fraction from 0 to 1.")
    return float(value)


def accuracy_by_phenomenon(
    series: Sequence[BarSeries],
    *,
    title: str = "Accuracy by phenomenon",
    description: str = "",
) -> str:
    """Return an SVG of grouped bars: per phenomenon (x, sorted), one bar per model, with the
    50% chance line.

    Raises:
        ValueError: when there is no model or no accuracy to draw, or a value is not in 0..1.
    """
    if not series:
        raise ValueError("No model to plot: accuracy by phenomenon needs at least one model's accuracies.")
    for s in series:
        for phenomenon, value in s.values.items():
            _check_fraction(value, f"{s.label}'s accuracy on {phenomenon}")
    phenomena = sorted({p for s in series for p in s.values})
    if not phenomena:
        raise ValueError("No accuracy to plot: none of the models has a scored phenomenon.")

    def draw(fig: Any) -> None:
        width = 0.8 / len(series)
        ax = fig.add_subplot(1, 1, 1)
        for i, s in enumerate(series):
            xs = [j + (i - (len(series) - 1) / 2) * width for j, p in enumerate(phenomena) if p in s.values]
            ys = [100 * s.values[p] for p in phenomena if p in s.values]
            ax.bar(xs, ys, width=width * 0.95, label=s.label, color=PALETTE[i % len(PALETTE)])
        ax.axhline(100 * CHANCE, color="#555555", linestyle="--", linewidth=1, label="Chance (50%)")
        ax.set_xticks(range(len(phenomena)))
        # Slanted labels once they could touch: several phenomena, or long names.
        slant = len(phenomena) > 3 or max(len(p) for p in phenomena) > 12
        ax.set_xticklabels(phenomena, rotation=35 if slant else 0, ha="right" if slant else "center")
        ax.set_xlim(-0.6, len(phenomena) - 0.4)
        ax.set_ylim(0, 100)
        ax.set_xlabel("Phenomenon")
        ax.set_ylabel("Accuracy (%)")
        fig.suptitle(title)
        ax.grid(axis="y", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        _legend(ax, len(series) + 1)

    bars = max(4.5, min(14.0, 1.2 + len(phenomena) * (0.35 + 0.18 * len(series))))
    size = (bars + _legend_width([s.label for s in series]), 4.6)
    summary = description or _bars_description(series, phenomena)
    return _render(draw, size, title, summary)


def _bars_description(series: Sequence[BarSeries], phenomena: Sequence[str]) -> str:
    parts = []
    for s in series:
        values = ", ".join(f"{p} {100 * s.values[p]:.1f}%" for p in phenomena if p in s.values)
        parts.append(f"{s.label}: {values}.")
    return "Bars of accuracy per phenomenon. " + " ".join(parts)


def learning_curves(
    lines: Sequence[CurveLine],
    *,
    title: str = "Accuracy by training step",
    description: str = "",
    overall: str = "",
) -> str:
    """Return an SVG of accuracy (y) against training step (x), one line per entry with a
    marker at each checkpoint and the 50% chance line. The line whose label is `overall` is
    drawn thick and black; every other line has a look of its own (`line_look`). Steps that
    span two orders of magnitude, or that grow geometrically (`logarithmic_steps`), get a
    logarithmic axis (symmetric-log when step 0 is there), so the early steps where U-shapes
    show are not squeezed together.

    Raises:
        ValueError: when there is no line or no point, or an accuracy is not in 0..1.
    """
    if not lines:
        raise ValueError("No learning curve to plot: give at least one line of (step, accuracy) points.")
    for line in lines:
        for step, value in line.points:
            _check_fraction(value, f"{line.label}'s accuracy at step {step}")
    steps = sorted({int(step) for line in lines for step, _ in line.points})
    if not steps:
        raise ValueError("No learning curve to plot: the lines have no scored checkpoint.")

    from matplotlib.ticker import FuncFormatter

    def draw(fig: Any) -> None:
        ax = fig.add_subplot(1, 1, 1)
        number = 0
        for line in lines:
            points = sorted((int(s), v) for s, v in line.points)
            if not points:
                continue
            xs, ys = [p[0] for p in points], [100 * p[1] for p in points]
            if overall and line.label == overall:
                ax.plot(xs, ys, color=OVERALL_COLOUR, linewidth=2.6, marker="o", label=line.label, zorder=3)
            else:
                colour, style, marker = line_look(number)
                ax.plot(
                    xs,
                    ys,
                    color=colour,
                    linestyle=style,
                    linewidth=1.4,
                    marker=marker,
                    markersize=4,
                    label=line.label,
                )
                number += 1
        ax.axhline(100 * CHANCE, color="#555555", linestyle="--", linewidth=1, label="Chance (50%)")
        positive = [s for s in steps if s > 0]
        if positive and logarithmic_steps(positive):
            if steps[0] <= 0:
                ax.set_xscale("symlog", linthresh=min(positive))
                ax.set_xlim(left=0)
            else:
                ax.set_xscale("log")
            ax.set_xlabel("Training step (logarithmic)")
        else:
            ax.set_xlabel("Training step")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _pos: step_label(x)))
        ax.set_ylim(0, 100)
        ax.set_ylabel("Accuracy (%)")
        fig.suptitle(title)
        ax.grid(color="#dddddd", linewidth=0.6)
        _legend(ax, len(lines) + 1)

    summary = description or _curves_description(lines)
    return _render(draw, (6.0 + _legend_width([line.label for line in lines]), 4.6), title, summary)


# Line styles and markers that, with PALETTE's colours, tell apart up to 3 x 4 x len(PALETTE)
# lines (ZhoBLiMP's 15 phenomena, BLiMP's 12) without reusing a look.
_STYLES = ("-", "--", ":")
_MARKERS = ("o", "s", "^", "D")


def line_look(number: int) -> tuple[str, str, str]:
    """Return the colour, line style and marker of the `number`-th line (from 0): the colours
    first, then each colour again with the next style and marker."""
    colour = PALETTE[number % len(PALETTE)]
    round_ = number // len(PALETTE)
    return colour, _STYLES[round_ % len(_STYLES)], _MARKERS[round_ % len(_MARKERS)]


def logarithmic_steps(steps: Sequence[int]) -> bool:
    """Whether positive training steps read better on a logarithmic axis: they span two orders
    of magnitude, or at least a factor 8 with each step at least 1.5 times the one before
    (checkpoints saved at doubling steps: 1k, 2k, 4k, ..., 64k)."""
    ordered = sorted(set(steps))
    if len(ordered) < 2 or ordered[0] <= 0:
        return False
    span = ordered[-1] / ordered[0]
    geometric = all(b / a >= 1.5 for a, b in pairwise(ordered))
    return span >= 100 or (span >= 8 and geometric)


def step_label(step: float) -> str:
    """Return a training step as plain text: 950, 12k, 1.5M (no exponent markup)."""
    if step < 0:
        return ""
    for size, suffix in ((1_000_000_000, "B"), (1_000_000, "M"), (1_000, "k")):
        if step >= size:
            return f"{step / size:.3g}{suffix}"
    return f"{step:.3g}"


def _curves_description(lines: Sequence[CurveLine]) -> str:
    parts = []
    for line in lines:
        points = ", ".join(f"step {s} {100 * v:.1f}%" for s, v in sorted(line.points))
        if points:
            parts.append(f"{line.label}: {points}.")
    return "Accuracy at each training step. " + " ".join(parts)


def hap_vs_pair_accuracy(
    points: Sequence[ScatterPoint],
    *,
    title: str = "Selective tolerance (HAP) against grammaticality (pair accuracy)",
    x_label: str = "Pair accuracy (%)",
    description: str = "",
) -> str:
    """Return an SVG scatter in the manner of BLiSS Figure 3: one point per model, pair
    accuracy (x) against HAP (y), coloured by family (the legend) and labelled with the
    model's name, with both 50% chance lines.

    Raises:
        ValueError: when there is no point, or a value is not in 0..1.
    """
    if not points:
        raise ValueError("No model to plot: HAP against pair accuracy needs at least one model with both.")
    for p in points:
        _check_fraction(p.pair_accuracy, f"{p.label}'s pair accuracy")
        _check_fraction(p.hap, f"{p.label}'s HAP")
    families = list(dict.fromkeys(p.family or p.label for p in points))

    def draw(fig: Any) -> None:
        ax = fig.add_subplot(1, 1, 1)
        for i, family in enumerate(families):
            members = [p for p in points if (p.family or p.label) == family]
            ax.scatter(
                [100 * p.pair_accuracy for p in members],
                [100 * p.hap for p in members],
                s=42,
                color=PALETTE[i % len(PALETTE)],
                edgecolors="#333333",
                linewidths=0.5,
                label=family,
                zorder=3,
            )
        for p in points:
            ax.annotate(
                p.label,
                (100 * p.pair_accuracy, 100 * p.hap),
                xytext=(4, 4),
                textcoords="offset points",
                fontsize=8,
            )
        ax.axhline(100 * CHANCE, color="#555555", linestyle="--", linewidth=1)
        ax.axvline(100 * CHANCE, color="#555555", linestyle="--", linewidth=1)
        xs = [100 * p.pair_accuracy for p in points]
        ys = [100 * p.hap for p in points]
        ax.set_xlim(max(0.0, min([*xs, 50.0]) - 5), min(100.0, max([*xs, 50.0]) + 5))
        ax.set_ylim(max(0.0, min([*ys, 50.0]) - 5), min(100.0, max([*ys, 50.0]) + 5))
        ax.set_xlabel(x_label)
        ax.set_ylabel("HAP: learner preferred to artificial (%)")
        fig.suptitle(title)
        ax.grid(color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        _legend(ax, len(families))

    summary = description or "One point per model. " + " ".join(
        f"{p.label}{f' ({p.family})' if p.family else ''}: pair accuracy {100 * p.pair_accuracy:.1f}%, "
        f"HAP {100 * p.hap:.1f}%."
        for p in points
    )
    return _render(draw, (5.5 + _legend_width(families), 5.2), title, summary)


def _legend_width(labels: Sequence[str]) -> float:
    """Return the inches a legend of these labels needs beside the axes (about 0.07 in a character)."""
    return 0.8 + 0.07 * max([len(label) for label in labels] + [12])


def _legend(ax: Any, entries: int) -> None:
    """Put the legend beside the axes, so it never hides a bar or a point."""
    ax.legend(
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        frameon=False,
        fontsize=8 if entries > 8 else 9,
        ncol=1 if entries <= 16 else 2,
    )


_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.DOTALL)
# matplotlib's one style sheet, `*{stroke-linejoin: round; stroke-linecap: butt}`: a <style>
# element is refused by the pages' Content-Security-Policy (and `*` would reach the whole page).
_STYLE = re.compile(r"\s*<style[^>]*>.*?</style>", re.DOTALL)
_EMPTY_DEFS = re.compile(r"\s*<defs>\s*</defs>")
_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|href="#)([^)"]+)')


def _render(draw: Any, size: tuple[float, float], title: str, description: str) -> str:
    """Draw on a new figure and return its SVG element: no XML prolog, no metadata, ids
    prefixed, a <title> and <desc> first. Its width and height stay (in pt) beside the viewBox,
    so a page can shrink it to fit and keeps it at its own size otherwise."""
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    with _lock:
        import matplotlib

        with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "mpp-studio", "font.size": 10}):
            fig = Figure(figsize=size, layout="constrained")
            FigureCanvasSVG(fig)
            with warnings.catch_warnings():
                # Labels are drawn as text by the browser; matplotlib only measures them, and
                # warns for glyphs (CJK) its own font lacks.
                warnings.simplefilter("ignore", UserWarning)
                draw(fig)
                buffer = io.StringIO()
                fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = _METADATA.sub("", svg)
    svg = _EMPTY_DEFS.sub("", _STYLE.sub("", svg))
    prefix = "p" + hashlib.sha256(f"{title}\n{description}".encode()).hexdigest()[:8]
    svg = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', svg)
    svg = _REF.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", svg)
    head = svg.index(">")
    tag = svg[:head]
    title_id, desc_id = f"{prefix}-title", f"{prefix}-desc"
    # The removed style sheet's two properties, as inherited presentation attributes.
    opening = (
        f'{tag} stroke-linejoin="round" stroke-linecap="butt" role="img" '
        f'aria-labelledby="{title_id} {desc_id}" class="plot-svg">'
    )
    accessible = (
        f'<title id="{title_id}">{escape(title)}</title><desc id="{desc_id}">{escape(description)}</desc>'
    )
    return opening + accessible + svg[head + 1 :]
