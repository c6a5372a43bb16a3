"""Result plots as inline SVG: valid XML with a title, labels, legend entries and unique ids;
clear errors for empty or out-of-range input; matplotlib loaded only when a plot is drawn."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring.plots import (
    PALETTE,
    BarSeries,
    CurveLine,
    ScatterPoint,
    accuracy_by_phenomenon,
    hap_vs_pair_accuracy,
    learning_curves,
    line_look,
    logarithmic_steps,
    step_label,
)

SVG = "{http://www.w3.org/2000/svg}"
REPO_ROOT = Path(__file__).resolve().parents[2]


def _bars() -> str:
    return accuracy_by_phenomenon(
        [
            BarSeries("gpt2 · causal", {"agreement": 0.8, "islands": 0.55}),
            BarSeries("bert · pll", {"agreement": 0.7, "量词": 0.6}),
        ],
        title="Accuracy by phenomenon on Agreement set",
    )


def _curves() -> str:
    return learning_curves(
        [
            CurveLine("overall", [(0, 0.5), (1_000, 0.62), (100_000, 0.81)]),
            CurveLine("agreement", [(0, 0.45), (1_000, 0.3), (100_000, 0.9)]),
        ],
        title="Learning curve of pythia-tiny",
        overall="overall",
    )


def _scatter() -> str:
    return hap_vs_pair_accuracy(
        [
            ScatterPoint("CroissantLLM", pair_accuracy=0.812, hap=0.675, family="Bilingual LLMs"),
            ScatterPoint("SLABERT-JP", pair_accuracy=0.49, hap=0.50, family="SLABERT"),
        ]
    )


PLOTS: dict[str, tuple[Callable[[], str], list[str]]] = {
    "bars": (_bars, ["gpt2 · causal", "bert · pll", "agreement", "islands", "量词", "Chance (50%)"]),
    "curves": (_curves, ["overall", "agreement", "Chance (50%)", "Training step (logarithmic)"]),
    "scatter": (_scatter, ["CroissantLLM", "SLABERT-JP", "Bilingual LLMs", "SLABERT", "Pair accuracy (%)"]),
}


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_plot_is_an_accessible_svg_with_its_labels(name: str) -> None:
    """Each plot parses as XML, starts with <title> and <desc> that label the image, and shows
    its series, axis and legend labels as text."""
    make, labels = PLOTS[name]
    svg = make()
    assert svg.startswith("<svg ")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert str(root.get("width")).endswith("pt") and root.get("viewBox")
    title, desc = list(root)[:2]
    assert title.tag == f"{SVG}title" and title.text
    assert desc.tag == f"{SVG}desc" and desc.text
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    texts = svg_texts(svg)
    assert title.text in texts  # the visible title is the accessible one
    for label in labels:
        assert label in texts, (label, texts)
    assert "Accuracy (%)" in texts or "HAP: learner preferred to artificial (%)" in texts


def test_plot_description_lists_the_numbers() -> None:
    root = ET.fromstring(_bars())
    desc = root.find(f"{SVG}desc")
    assert desc is not None and desc.text is not None
    assert "gpt2 · causal: agreement 80.0%, islands 55.0%." in desc.text


def test_plots_on_one_page_share_no_id() -> None:
    """Ids are prefixed per plot, and every internal reference points at an id of its own plot."""
    seen: set[str] = set()
    for make, _labels in PLOTS.values():
        svg = make()
        ids = [e.get("id") for e in ET.fromstring(svg).iter() if e.get("id")]
        assert len(ids) == len(set(ids))
        assert not seen & set(ids)
        seen |= {str(i) for i in ids}
        for ref in ("url(#", 'href="#'):
            for part in svg.split(ref)[1:]:
                target = part.split(")" if ref == "url(#" else '"')[0]
                assert target in ids, target


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_plot_has_no_style_element(name: str) -> None:
    """Pages inline the SVG under a Content-Security-Policy that refuses <style> elements; the
    style sheet's stroke settings come as attributes of the root, inherited by every shape."""
    root = ET.fromstring(PLOTS[name][0]())
    assert not list(root.iter(f"{SVG}style"))
    assert (root.get("stroke-linejoin"), root.get("stroke-linecap")) == ("round", "butt")


def test_plot_is_deterministic() -> None:
    assert _bars() == _bars()


def test_checkpoints_saved_at_doubling_steps_get_a_logarithmic_axis() -> None:
    doubling = [1000 * 2**i for i in range(7)]  # 1k to 64k: a factor 64, each step twice the last
    assert logarithmic_steps(doubling)
    assert not logarithmic_steps([1000 * i for i in range(1, 11)])  # evenly spaced: linear
    assert logarithmic_steps([10, 100_000])  # two orders of magnitude: logarithmic
    assert not logarithmic_steps([100, 200, 400])  # a factor 4 only
    svg = learning_curves([CurveLine("overall", [(s, 0.6) for s in doubling])])
    assert "Training step (logarithmic)" in svg_texts(svg)


def test_fifteen_phenomena_get_fifteen_looks() -> None:
    looks = [line_look(i) for i in range(15)]
    assert len(set(looks)) == 15
    assert looks[0] != looks[len(PALETTE)] and looks[0][0] == looks[len(PALETTE)][0]  # same colour, new style


def test_learning_curve_keeps_a_linear_axis_for_close_steps() -> None:
    svg = learning_curves([CurveLine("overall", [(100, 0.5), (200, 0.7), (400, 0.75)])])
    assert "Training step" in svg_texts(svg)
    assert "Training step (logarithmic)" not in svg_texts(svg)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: accuracy_by_phenomenon([]), "No model to plot"),
        (lambda: accuracy_by_phenomenon([BarSeries("gpt2", {})]), "No accuracy to plot"),
        (lambda: learning_curves([]), "No learning curve to plot"),
        (lambda: learning_curves([CurveLine("overall", [])]), "no scored checkpoint"),
        (lambda: hap_vs_pair_accuracy([]), "No model to plot"),
    ],
)
def test_plot_rejects_empty_input(make: Callable[[], str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: accuracy_by_phenomenon([BarSeries("gpt2", {"islands": 80.0})]),
            "gpt2's accuracy on islands",
        ),
        (lambda: learning_curves([CurveLine("binding", [(10, -0.1)])]), "binding's accuracy at step 10"),
        (lambda: hap_vs_pair_accuracy([ScatterPoint("m", 0.5, float("nan"))]), "m's HAP"),
    ],
)
def test_plot_rejects_values_outside_zero_to_one(make: Callable[[], str], message: str) -> None:
    """Accuracies are fractions: a percentage or NaN is an error naming the series."""
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize(
    ("step", "label"),
    [(0, "0"), (950, "950"), (1_000, "1k"), (12_500, "12.5k"), (1_500_000, "1.5M"), (-5, "")],
)
def test_step_label_is_plain_text(step: float, label: str) -> None:
    assert step_label(step) == label


def test_importing_plots_does_not_import_matplotlib() -> None:
    code = "import sys, scoring, scoring.plots; print('matplotlib' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def svg_texts(svg: str) -> list[str]:
    """Return the text of every <text> element of an SVG, in order."""
    root = ET.fromstring(svg)
    return [
        "".join(element.itertext()) for element in root.iter() if element.tag.rsplit("}", 1)[-1] == "text"
    ]
