"""`mpp catalog`: the Markdown catalogue of a library, and docs/library.md kept up to date."""

from __future__ import annotations

from pathlib import Path

from generator.catalog import catalog_markdown, load_catalog_templates
from mpp.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]

TEMPLATE = """\
uid: {uid}
phenomenon: {phenomenon}
language: en
description: A test paradigm.
source: "Made up | for tests"
example: {{good: The dog runs., bad: The dog run.}}
vocabulary: v.csv
good:
  - {{direct: The dog runs.}}
bad:
  - {{direct: The dog run.}}
"""


def _library(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    (root / "en" / "agreement").mkdir(parents=True)
    (root / "v.csv").write_text("form,pos\ndog,NN\n", encoding="utf-8")
    for uid, phenomenon in (("b_second", "agreement"), ("a_first", "agreement"), ("c_other", "binding")):
        text = TEMPLATE.format(uid=uid, phenomenon=phenomenon).replace("v.csv", "../../v.csv")
        (root / "en" / "agreement" / f"{uid}.yaml").write_text(text, encoding="utf-8")
    return root


def test_catalog_groups_by_phenomenon_sorted_with_links_and_escaped_cells(tmp_path: Path) -> None:
    root = _library(tmp_path)
    templates, problems = load_catalog_templates([root])
    assert problems == []
    text = catalog_markdown(templates, tmp_path)
    assert "| English | 2 | 3 |" in text
    assert text.index("### agreement (2)") < text.index("### binding (1)")
    assert text.index("`a_first`") < text.index("`b_second`")
    assert "[`a_first`](lib/en/agreement/a_first.yaml)" in text
    assert "Made up \\| for tests" in text


def test_catalog_command_writes_the_file_and_reports_unreadable_templates(tmp_path: Path, capsys) -> None:
    root = _library(tmp_path)
    (root / "en" / "broken.yaml").write_text("uid: broken\ngood: [", encoding="utf-8")
    out = tmp_path / "docs" / "library.md"
    out.parent.mkdir()
    assert main(["catalog", str(root), "--out", str(out)]) == 2
    assert "E_SYNTAX" in capsys.readouterr().err
    assert "[`c_other`](../lib/en/agreement/c_other.yaml)" in out.read_text(encoding="utf-8")


def test_docs_library_md_is_the_catalogue_of_the_shipped_library() -> None:
    templates, problems = load_catalog_templates([REPO_ROOT / "templates"])
    assert problems == []
    expected = catalog_markdown(templates, REPO_ROOT / "docs")
    actual = (REPO_ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    assert actual == expected, "docs/library.md is stale: run `mpp catalog templates/ --out docs/library.md`"
