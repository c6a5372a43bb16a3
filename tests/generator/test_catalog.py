"""`mpp catalog`: the Markdown catalogue of a library, and docs/library.md kept up to date."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.blimp_paradigms import BLIMP, blimp_uids_named
from generator.catalog import catalog_markdown, load_catalog_templates
from generator.paradigm_names import Benchmark
from generator.zhoblimp_paradigms import ZHOBLIMP, zhoblimp_paradigms_named
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


def test_blimp_uids_named_reads_whole_uids_only_after_a_blimp_mention() -> None:
    source = (
        "Zorro x (2021); BLiMP determiner_noun_agreement_irregular_1 and passive_2 (Warstadt et al. 2020)"
    )
    assert blimp_uids_named(source) == {"determiner_noun_agreement_irregular_1", "passive_2"}
    assert blimp_uids_named("passive_2, but the source names no benchmark") == frozenset()
    assert blimp_uids_named("BLiMP passive_20") == frozenset()


def test_a_name_counts_only_in_a_citation_of_its_own_benchmark() -> None:
    # "ZhoBLiMP" is no mention of BLiMP, and a BLiMP UID cited beside a ZhoBLiMP mention (another
    # citation of the same source) does not name ZhoBLiMP's paradigm of the same name.
    source = (
        "BLiMP anaphor_number_agreement (Warstadt et al. 2020); "
        "ZhoBLiMP BA_negation, BA_verb_le_a (Liu et al. 2024)"
    )
    assert zhoblimp_paradigms_named(source) == {"BA_negation", "BA_verb_le_a"}
    assert blimp_uids_named(source) == {"anaphor_number_agreement"}
    assert blimp_uids_named("ZhoBLiMP anaphor_number_agreement (Liu et al. 2024)") == frozenset()
    assert zhoblimp_paradigms_named("ZhoBLiMP BA paradigms (Liu et al. 2024)") == frozenset()


def _coverage_table_uids(text: str, benchmark: str) -> list[str]:
    """Return the paradigm names in the first column of a benchmark's coverage table, in order."""
    header = f"| {benchmark} UID | phenomenon | template(s) |\n|---|---|---|\n"
    table = text.split(header)[1].split("\n\n")[0]
    return [line.split(" | ")[0][2:] for line in table.splitlines()]


@pytest.mark.parametrize(
    ("benchmark", "named", "other", "other_language"),
    [(BLIMP, "passive_1", "passive_2", "zh"), (ZHOBLIMP, "BA_meiba", "BA_negation", "en")],
)
def test_catalog_maps_every_benchmark_paradigm_to_the_templates_in_its_language_naming_it(
    tmp_path: Path, benchmark: Benchmark, named: str, other: str, other_language: str
) -> None:
    # One template in the benchmark's language names `named`; another, in the other language,
    # names `other`, which it does not reproduce: that row stays "none".
    phenomenon = dict(benchmark.paradigms)
    root = _library(tmp_path)
    for stem, language, name in (("a_first", benchmark.language, named), ("b_second", other_language, other)):
        path = root / "en" / "agreement" / f"{stem}.yaml"
        path.write_text(
            path.read_text()
            .replace("language: en", f"language: {language}")
            .replace("Made up | for tests", f"{benchmark.name} {name} ({benchmark.citation})")
        )
    templates, _ = load_catalog_templates([root])
    text = catalog_markdown(templates, tmp_path)
    assert f"1 of {benchmark.name}'s {len(benchmark.paradigms)} paradigms" in text
    assert f"| {named} | {phenomenon[named]} | [`a_first`](lib/en/agreement/a_first.yaml) |" in text
    assert f"| {other} | {phenomenon[other]} | none |" in text
    assert _coverage_table_uids(text, benchmark.name) == [uid for uid, _ in benchmark.paradigms]
