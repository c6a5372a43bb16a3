"""scripts/library_reading.py: dealing a reading, tallying the readers' rows, the review page."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SCRIPT = REPO_ROOT / "scripts" / "library_reading.py"
_spec = importlib.util.spec_from_file_location("library_reading", SCRIPT)
assert _spec is not None and _spec.loader is not None
reading = importlib.util.module_from_spec(_spec)
sys.modules["library_reading"] = reading
_spec.loader.exec_module(reading)

READER_1 = """### templates/en/case/subjective_pronoun.yaml  (`case_subjective_pronoun`)

> A description.

| # | good | bad | right? | odd | why |
|---|---|---|---|---|---|
| 1 | He left. | Him left. | yes | no |  |
| 2 | She sang. | Her sang. | no (borderline) | mild | a reason | with a bar |

### templates/en/dropped_object.yaml  (`dropped_object_obligatory_transitive`)

> Another.

| # | good | bad | right? | odd | why |
|---|---|---|---|---|---|
| 1 | Sam fixed the bike. | Sam fixed. | no | clear | fixed has a use |

## Reader's summary

Totals: 3 pairs; right 1; not right 2 (1 of them borderline); odd mild 1, odd clear 1.
"""

READER_2 = """### templates/en/case/subjective_pronoun.yaml  (`case_subjective_pronoun`)

> A description.

| # | good | bad | right? | odd | why |
|---|---|---|---|---|---|
| 3 | They ran. | Them ran. | Yes | No |  |

## Reader's summary

Totals: 1 pairs; right 1; not right 0 (0 of them borderline); odd mild 0, odd clear 0.
"""


@pytest.fixture
def filled(tmp_path: Path) -> Path:
    (tmp_path / "reader1.md").write_text(READER_1, encoding="utf-8")
    (tmp_path / "reader2.md").write_text(READER_2, encoding="utf-8")
    return tmp_path


def test_rows_are_read_with_their_reader_paradigm_and_cells(filled: Path) -> None:
    rows = reading.read_rows(filled)
    assert [(r.reader, r.uid, r.number) for r in rows] == [
        ("1", "case_subjective_pronoun", 1),
        ("1", "case_subjective_pronoun", 2),
        ("1", "dropped_object_obligatory_transitive", 1),
        ("2", "case_subjective_pronoun", 3),
    ]
    assert [r.is_right for r in rows] == [True, False, False, True]
    assert [r.is_borderline for r in rows] == [False, True, False, False]
    assert [r.is_odd for r in rows] == [False, True, True, False]
    assert rows[1].why == "a reason|with a bar"
    assert [r.folder for r in rows] == ["case", "case", "(top level)", "case"]


def test_summary_table_counts_right_borderline_and_odd_overall_and_by_folder(filled: Path) -> None:
    table = reading.summary_table(reading.read_rows(filled)).splitlines()
    assert table[2] == "| all | 4 | 2 (50.0 %) | 1 | 2 (50.0 %) |"
    assert table[3] == "| (top level) | 1 | 0 (0.0 %) | 0 | 1 (100.0 %) |"
    assert table[4] == "| case | 3 | 2 (66.7 %) | 1 | 1 (33.3 %) |"


def test_paradigm_table_splits_mild_from_clear(filled: Path) -> None:
    table = reading.paradigm_table(reading.read_rows(filled)).splitlines()
    assert table[2:] == [
        "| `case_subjective_pronoun` | 3 | 2 | 1 | 0 |",
        "| `dropped_object_obligatory_transitive` | 1 | 0 | 0 | 1 |",
    ]


def test_document_puts_the_summary_in_the_header_then_readers_then_pairs(filled: Path) -> None:
    page = reading.document(filled, "# A reading\n\n{{SUMMARY_TABLE}}\n", "Nothing.")
    assert page.startswith("# A reading\n\n| folder | pairs |")
    order = [
        page.index("## What was done after the reading\n\nNothing."),
        page.index("### Reader 1\n\nTotals: 3 pairs"),
        page.index("### Reader 2\n\nTotals: 1 pairs"),
        page.index("## Per paradigm"),
        page.index("| 3 | They ran. | Them ran. |"),
    ]
    assert order == sorted(order)
    assert "Reader's summary" not in page


def test_paradigms_are_dealt_by_uid_and_seed() -> None:
    dealt = {reading.reader_for(f"uid_{i}", 20261228, 4) for i in range(40)}
    assert dealt == {0, 1, 2, 3}
    assert reading.reader_for("uid_1", 1, 4) == reading.reader_for("uid_1", 1, 4)
    assert [reading.reader_for("uid_1", seed, 4) for seed in range(8)] != [
        reading.reader_for("uid_1", 0, 4)
    ] * 8


def test_deal_writes_each_paradigm_once_with_its_columns_empty(tmp_path: Path) -> None:
    root = tmp_path / "root"
    for shared in ("vocabularies", "phrases"):
        (root / "templates").mkdir(parents=True, exist_ok=True)
        (root / "templates" / shared).symlink_to(REPO_ROOT / "templates" / shared)
    for relative in ("en/case/subjective_pronoun.yaml", "en/dropped_object.yaml"):
        target = root / "templates" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO_ROOT / "templates" / relative, target)
    counts = reading.deal("en", 7, 3, 2, tmp_path / "out", root=root)
    assert sum(counts) == 2
    rows = reading.read_rows(tmp_path / "out")
    uids = sorted({r.uid for r in rows})
    assert uids == ["case_subjective_pronoun", "dropped_object_obligatory_transitive"]
    assert len(rows) == 6
    assert all(r.right == "" and r.odd == "" and r.why == "" for r in rows)
    assert all(r.good and r.bad and r.good != r.bad for r in rows)
