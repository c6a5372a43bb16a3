"""Importing the scoring engine (what the web app and the CLI do at start-up) loads no torch
and no transformers: those come only with a model scorer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_scoring_does_not_import_torch() -> None:
    code = (
        "import sys\n"
        "import scoring, scoring.batching, scoring.items, scoring.settings, scoring.words\n"
        "from scoring import ScorerSettings, load_scorer\n"
        "heavy = sorted(m for m in ('torch', 'transformers', 'tokenizers') if m in sys.modules)\n"
        "print(','.join(heavy) or 'none')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "none"


def test_the_causal_scorer_module_brings_torch() -> None:
    # The check above could pass vacuously if the interpreter never saw torch at all.
    code = "import sys, scoring.causal\nprint('torch' in sys.modules)\n"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "True"
