"""The leaderboard of a benchmark of many phenomena (BLiMP has 12, ZhoBLiMP 15) in a real
browser: phenomenon columns as narrow as their percentages, model names on one or two lines,
and the model column in view while the table scrolls sideways.

The page is the one the server renders for a dataset of two phenomena, with its phenomenon
columns repeated to fifteen and the stylesheets inlined (Chromium reads it without a server)."""

import re
from pathlib import Path

import pytest
from django.test import Client

from mpp_studio.evaluation.models import ScoringRun
from tests.web.browser import launch_browser, needs_chromium, new_page
from tests.web.conftest import PASSWORD
from tests.web.evaluation.test_pages import hand_model, hand_run, unigram_run  # noqa: F401

pytest_plugins = ["tests.web.browser"]

pytestmark = [pytest.mark.django_db, needs_chromium]

STATIC = Path(__file__).resolve().parents[3] / "platform" / "mpp_studio"
STYLESHEETS = (
    "core/static/core/site.css",
    "accounts/static/accounts/accounts.css",
    "evaluation/static/evaluation/evaluation.css",
)
PHENOMENA = [
    "anaphor_agreement",
    "argument_structure",
    "binding",
    "control_raising",
    "determiner_noun_agreement",
    "ellipsis",
    "filler_gap_dependency",
    "irregular_forms",
    "island_effects",
    "npi_licensing",
    "quantifiers",
    "subject_verb_agreement",
    "classifiers",
    "question_formation",
    "relativization",
]


def fifteen_phenomena(html: str) -> str:
    """The page with fifteen phenomenon columns and its stylesheets inlined."""
    header = re.search(r'<th class="num phenomenon-col">.*?</th>', html, re.S)
    assert header is not None
    html = re.sub(r'<th class="num phenomenon-col">.*?</th>', "", html, flags=re.S)
    columns = "".join(header.group(0).replace("classifiers", name) for name in PHENOMENA)
    html = html.replace("<th></th>", columns + "<th></th>", 1)
    html = re.sub(
        r'(<td class="num phenomenon-cell">[^<]*</td>)+',
        '<td class="num phenomenon-cell">87.5%</td>' * 15,
        html,
    )
    styles = "".join(f"<style>{(STATIC / path).read_text()}</style>" for path in STYLESHEETS)
    return html.replace("</head>", styles + "</head>")


def test_a_leaderboard_of_fifteen_phenomena_keeps_model_names_readable(
    unigram_run: ScoringRun,  # noqa: F811
    hand_run: ScoringRun,  # noqa: F811
    generated: object,
    viewer: object,
    screenshots: Path,
) -> None:
    client = Client()
    assert client.login(username=viewer.username, password=PASSWORD)  # type: ignore[attr-defined]
    html = client.get(f"/projects/{unigram_run.project_id}/scoring/results/{generated.pk}/").content.decode()  # type: ignore[attr-defined]
    with launch_browser() as browser:
        page = new_page(browser, width=1280, height=1000)
        page.set_content(fifteen_phenomena(html))
        page.screenshot(path=screenshots / "scoring-leaderboard-wide.png", full_page=True)
        name = page.locator("td.model-col a.config-link").first
        line = float(name.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
        box = name.bounding_box()
        assert box is not None and box["height"] <= 2 * line + 1, box  # one or two lines, never 4-5
        widths = [
            b["width"] for b in (h.bounding_box() for h in page.locator("th.phenomenon-col").all()) if b
        ]
        assert len(widths) == 15 and max(widths) <= 64, widths
        scroller = page.locator(".table-scroll").first
        scroller.evaluate("e => e.scrollLeft = e.scrollWidth")
        assert scroller.evaluate("e => e.scrollLeft") > 300  # the table is wider than its box
        after, edge = page.locator("th.model-col").bounding_box(), scroller.bounding_box()
        assert (
            after is not None and edge is not None and abs(after["x"] - edge["x"]) < 1
        )  # the names stay in view
        page.context.close()
