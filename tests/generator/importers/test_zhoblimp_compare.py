"""`mpp import zhoblimp --compare`: rebuilt UIDs against released files, profile by profile."""

from __future__ import annotations

import math
from pathlib import Path

import orjson
import pytest

from generator.importers.zhoblimp import ZhoblimpImport, import_zhoblimp
from generator.importers.zhoblimp_compare import (
    APPROXIMATE,
    DEPENDS_ON_SEED,
    NOT_IMPORTED,
    NOT_REPRODUCED,
    SHAPE,
    TOP_WORDS,
    ComparisonReport,
    ProfileTest,
    SentencePair,
    UidComparison,
    chi_square_p,
    compare_import,
    compare_samples,
    comparison_units,
    read_released,
    report_lines,
)
from mpp.cli import main
from tests.generator.importers.zhoblimp_files import (
    PHRASES,
    VOCAB,
    released_jsonl,
    source,
    template_sources,
)


def chars(text: str) -> list[str]:
    return list(text)


def test_chi_square_p_separates_equal_and_different_samples() -> None:
    assert chi_square_p({"a": 50, "b": 50}, {"a": 50, "b": 50}) == pytest.approx(1.0)
    assert chi_square_p({"+0": 300}, {"+0": 56, "+1": 169, "+2": 75}) < 1e-30
    assert chi_square_p({"a": 300}, {"a": 300}) == 1.0  # one category: nothing to test
    assert chi_square_p({}, {"a": 3}) == 1.0
    # rare categories are pooled: 20 words seen 3 times each against 60 others seen once leave
    # only the pooled rest, which cannot be tested; the distance still says they are disjoint
    rare = {f"w{i}": 3 for i in range(20)}
    others = {f"v{i}": 1 for i in range(60)}
    assert math.isnan(chi_square_p(rare, others))
    untested = ProfileTest("fillers", chi_square_p(rare, others), rare, others)
    assert not untested.tested and not untested.differs and untested.distance == pytest.approx(1.0)
    assert ProfileTest("x", 0.5, {"a": 50, "b": 50}, {"a": 75, "b": 25}).distance == pytest.approx(0.25)


RELEASED = [SentencePair(f"他看了{w}。", f"他看{w}了。") for w in "书报信画歌" * 20]


def test_the_same_generator_is_the_released_shape() -> None:
    rebuilt = [SentencePair(f"他看了{w}。", f"他看{w}了。") for w in "报信画歌书" * 20]
    result = compare_samples(RELEASED, rebuilt, chars, seed=1)
    assert result.verdict == SHAPE and result.good_overlap == 1.0
    assert not any(t.differs for t in result.tests)


def test_a_length_difference_is_not_reproduced_and_shown() -> None:
    rebuilt = [SentencePair(f"他看了{w}。", f"他看{w}了吗。") for w in "书报信画歌" * 20]
    result = compare_samples(RELEASED, rebuilt, chars, seed=1)
    assert result.verdict == NOT_REPRODUCED
    length = result.test("length")
    assert length.differs and length.most_different(1) == [("+0", 100, 0)]


def test_other_fillers_or_fewer_pairs_are_approximate() -> None:
    rebuilt = [SentencePair(f"他看了{w}。", f"他看{w}了。") for w in "书书书书报" * 20]
    result = compare_samples(RELEASED, rebuilt, chars, seed=1)
    assert result.verdict == APPROXIMATE and result.test("fillers").differs
    assert not result.test("length").differs
    fewer = compare_samples(RELEASED, RELEASED[:90], chars, seed=1)
    assert (fewer.made, fewer.asked, fewer.verdict) == (90, 100, APPROXIMATE)
    nothing = compare_samples(RELEASED, [], chars, seed=1, problem="[E_SHORTFALL] none")
    assert nothing.verdict == NOT_REPRODUCED


def test_a_verdict_that_changes_with_the_seed_depends_on_seed() -> None:
    same = compare_samples(RELEASED, RELEASED, chars, seed=1)
    other = compare_samples(RELEASED, RELEASED[:50], chars, seed=2)
    uid = UidComparison("u", 100, "u", (same, other))
    assert uid.verdict == DEPENDS_ON_SEED
    assert UidComparison("u", 100).verdict == NOT_IMPORTED
    report = ComparisonReport((uid, UidComparison("v", 100, "v", (same, same))), (1, 2))
    assert report.counts()[SHAPE] == 1 and report.counts()[DEPENDS_ON_SEED] == 1
    assert report_lines(report)[-1].startswith("1 of 2 released UIDs in the released shape under seeds 1, 2")


def test_to_dict_is_plain_data_with_the_differences_only_where_a_profile_differs() -> None:
    """The plain form keeps each verdict and p-value; top differences only for differing profiles."""
    rebuilt = [SentencePair(f"他看了{w}。", f"他看{w}了吗。") for w in "书报信画歌" * 20]
    changed = compare_samples(RELEASED, rebuilt, chars, seed=1)
    same = compare_samples(RELEASED, RELEASED, chars, seed=2)
    report = ComparisonReport((UidComparison("u", 100, "u_t", (changed, same), ("a note",)),), (1, 2))
    data = report.to_dict()
    assert orjson.loads(orjson.dumps(data)) == data  # JSON as it is
    assert data["summary"] == report.summary() == report_lines(report)[-1]
    assert data["counts"] == report.counts() and data["seeds"] == [1, 2]
    (uid,) = data["uids"]  # type: ignore[misc]
    assert (uid["uid"], uid["template"], uid["verdict"], uid["notes"]) == (
        "u",
        "u_t",
        DEPENDS_ON_SEED,
        ["a note"],
    )
    first, second = uid["seeds"]
    assert (first["verdict"], first["made"], first["asked"]) == (NOT_REPRODUCED, 100, 100)
    length = next(t for t in first["tests"] if t["name"] == "length")
    assert length["differs"] and length["p_value"] < 1e-10
    assert length["most_different"][0] == {"category": "+0", "released": 100, "rebuilt": 0}
    differing = next(t for t in first["tests"] if t["name"] == "differing words")
    assert len(differing["most_different"]) <= TOP_WORDS
    assert all(t["most_different"] == [] for t in first["tests"] if not t["differs"])
    assert second["verdict"] == SHAPE and all(t["most_different"] == [] for t in second["tests"])


def test_read_released_names_the_file_and_line_of_a_bad_line() -> None:
    good = orjson.dumps(
        {"UID": "u", "phenomenon": "p", "sentence_good": "好。", "sentence_bad": "坏。", "pairID": 0}
    )
    released, problems = read_released([("u.jsonl", good + b"\n{not json\n" + good + b"\n")])
    assert [(p.file, p.line) for p in problems] == [("u.jsonl", 2)]
    assert len(released["u"]) == 2


@pytest.fixture(scope="module")
def imported() -> ZhoblimpImport:
    return import_zhoblimp(template_sources(), vocabulary=source(VOCAB), phrases=source(PHRASES))


def release(
    imported: ZhoblimpImport, uid: str, seed: int, n: int, folder: Path, bad_suffix: str = ""
) -> None:
    """Write a 'released' file for a UID made by the imported template itself under another seed."""
    (folder / f"{uid}.jsonl").write_bytes(released_jsonl(imported, uid, seed, n, bad_suffix))


def test_compare_import_finds_its_own_release_and_a_changed_one(
    imported: ZhoblimpImport, tmp_path: Path
) -> None:
    release(imported, "BA_inversion", 77, 40, tmp_path)
    release(imported, "classifier_mismatch", 77, 40, tmp_path, bad_suffix="吗")
    (tmp_path / "not_in_the_import.jsonl").write_bytes(
        orjson.dumps(
            {"UID": "gone", "phenomenon": "p", "sentence_good": "好。", "sentence_bad": "坏。", "pairID": 0}
        )
        + b"\n"
    )
    released, problems = read_released((p.name, p.read_bytes()) for p in sorted(tmp_path.glob("*.jsonl")))
    assert problems == [] and sorted(released) == ["BA_inversion", "classifier_mismatch", "gone"]
    compared: list[str] = []
    report = compare_import(imported, released, (1, 2), progress=compared.append)
    assert sorted(compared) == ["BA_inversion", "classifier_mismatch"]
    assert comparison_units(imported, released) == len(compared)
    verdicts = {u.uid: u.verdict for u in report.uids}
    assert verdicts == {"BA_inversion": SHAPE, "classifier_mismatch": NOT_REPRODUCED, "gone": NOT_IMPORTED}
    changed = next(u for u in report.uids if u.uid == "classifier_mismatch")
    assert all(s.test("length").differs for s in changed.seeds)
    assert "subject_gender__Kejia" in report.unreleased


def test_the_compare_command_prints_each_uid_and_the_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "released"
    folder.mkdir()
    imported = import_zhoblimp(template_sources(), vocabulary=source(VOCAB), phrases=source(PHRASES))
    release(imported, "BA_inversion", 5, 30, folder)
    args = ["import", "zhoblimp", "--templates", str(template_sources.__defaults__[0])]  # type: ignore[index]
    args += ["--vocab", str(VOCAB), "--phrases", str(PHRASES), "--out", str(tmp_path / "out")]
    assert main([*args, "--compare", str(folder), "--seeds", "3", "4"]) == 0
    out = capsys.readouterr().out
    assert "BA_inversion: released shape" in out
    assert "1 of 1 released UIDs in the released shape under seeds 3, 4" in out
    assert main([*args, "--compare", str(tmp_path / "missing")]) == 2
    assert main([*args[:4], "--out", str(tmp_path / "o2"), "--compare", str(folder)]) == 2  # no --vocab
