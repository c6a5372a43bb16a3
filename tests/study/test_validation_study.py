"""The whole analysis in one call: the tiny study end to end, JSON and CSV exports, and empty
inputs (nothing collected, everyone excluded) giving empty results rather than errors."""

from __future__ import annotations

import csv
import io
import json

import pytest

from study.agreement import Judgement, ParticipantInfo
from study.exclusion import ExclusionRules
from study.human_flags import BLIMP_RULE, FlagSettings
from study.validation_study import (
    GROUP_COLUMNS,
    ITEM_COLUMNS,
    PARTICIPANT_COLUMNS,
    WORD_COLUMNS,
    StudySettings,
    analyse_study,
)
from tests.study.tiny_study import tiny_items, tiny_judgements

FAST = StudySettings(bootstrap_resamples=0)


def _csv_text(columns: tuple[str, ...], rows: list[dict[str, object]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, columns)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def test_tiny_study_end_to_end() -> None:
    """p4 is excluded; the numbers are those worked out by hand in the module tests."""
    analysis = analyse_study(tiny_judgements(), tiny_items(), settings=FAST)
    assert analysis.exclusion.analysed_ids == frozenset({"p1", "p2", "p3"})
    assert analysis.overall is not None
    assert analysis.overall.micro == pytest.approx(7 / 11)
    assert analysis.overall.majority_accuracy == pytest.approx(0.625)
    assert [p.name for p in analysis.paradigms] == ["A", "B"]
    assert [p.name for p in analysis.phenomena] == ["X"]
    assert analysis.raters is not None
    assert analysis.raters.krippendorff_alpha == pytest.approx(-1 / 14)
    assert [f.paradigm for f in analysis.paradigm_flags] == ["B"]
    assert [f.item_id for f in analysis.item_flags] == ["i2", "i3", "i4"]
    assert [(w.position, w.word) for w in analysis.word_flags] == [("N1", "gnu")]


def test_settings_reach_every_part() -> None:
    """Tie rule "fail", the BLiMP preset and a relaxed catch rule change what they should: with
    p4 back in, i2 (2 of 4) ties and earns 0, and i4 (1 of 3) no longer ties."""
    settings = StudySettings(
        exclusion=ExclusionRules(min_catch_accuracy=0.5),
        tie="fail",
        flags=FlagSettings(paradigm_rules=(BLIMP_RULE,)),
        bootstrap_resamples=0,
    )
    analysis = analyse_study(tiny_judgements(), tiny_items(), settings=settings)
    assert analysis.exclusion.flow.analysed == 4
    assert analysis.overall is not None and analysis.overall.n_responses == 15
    assert {i.item_id: i.majority for i in analysis.items} == {"i1": 1.0, "i2": 0.0, "i3": 0.0, "i4": 0.0}
    assert [i.tie for i in analysis.items] == [False, True, False, False]
    assert [(f.paradigm, f.rules) for f in analysis.paradigm_flags] == [("A", ("BLiMP",)), ("B", ("BLiMP",))]
    assert analysis.to_dict()["settings"]["tie"] == "fail"  # type: ignore[index]


def test_to_dict_is_json_ready() -> None:
    """The dict survives strict JSON (no nan) and carries the headline numbers and the flow."""
    analysis = analyse_study(tiny_judgements(), tiny_items(), settings=StudySettings(bootstrap_resamples=50))
    data = json.loads(json.dumps(analysis.to_dict(), allow_nan=False))
    assert data["individual_accuracy"] == pytest.approx(7 / 11)
    assert data["aggregate_accuracy"] == pytest.approx(0.625)
    assert data["flow"]["excluded_by_reason"]["catch_trials"] == 1
    assert data["raters"]["fleiss_kappa"] is None
    assert data["word_flags"][0]["word"] == "gnu"
    assert data["overall"]["bootstrap_low"] <= data["overall"]["micro"] <= data["overall"]["bootstrap_high"]
    assert len(data["participants"]) == 4


def test_csv_rows_match_their_columns() -> None:
    """Every row helper gives exactly its columns, in order, ready for csv.DictWriter."""
    analysis = analyse_study(tiny_judgements(), tiny_items(), settings=FAST)
    for columns, rows in (
        (ITEM_COLUMNS, analysis.item_rows()),
        (GROUP_COLUMNS, analysis.paradigm_rows()),
        (GROUP_COLUMNS, analysis.phenomenon_rows()),
        (PARTICIPANT_COLUMNS, analysis.participant_rows()),
        (WORD_COLUMNS, analysis.word_rows()),
    ):
        assert rows and all(tuple(row) == columns for row in rows)
    i4 = analysis.item_rows()[3]
    assert (i4["item_id"], i4["correct"], i4["n"], i4["tie"], i4["flagged"]) == ("i4", 1, 2, True, True)
    assert i4["flag_reasons"] == "tie;split"
    assert i4["words"] == "N1=gnu;V=runs"
    paradigm_b = analysis.paradigm_rows()[1]
    assert (paradigm_b["name"], paradigm_b["flagged"], paradigm_b["flag_reasons"]) == ("B", True, "ZhoBLiMP")
    assert [row["level"] for row in analysis.phenomenon_rows()] == ["phenomenon", "overall"]
    p4 = analysis.participant_rows()[3]
    assert (p4["participant_id"], p4["excluded"], p4["reasons"]) == ("p4", True, "catch_trials")
    gnu = analysis.word_rows()[0]
    assert (gnu["word"], gnu["item_ids"], gnu["paradigms"]) == ("gnu", "i3;i4", "B")
    text = _csv_text(ITEM_COLUMNS, analysis.item_rows())  # type: ignore[arg-type]
    assert text.splitlines()[0] == ",".join(ITEM_COLUMNS)


def test_no_judgements_give_an_empty_analysis() -> None:
    """Nothing collected yet: empty lists, None for the overall and rater numbers, valid JSON."""
    analysis = analyse_study([], tiny_items(), settings=FAST)
    assert (analysis.items, analysis.paradigms, analysis.overall, analysis.raters) == ((), (), None, None)
    assert (analysis.paradigm_flags, analysis.item_flags, analysis.words) == ((), (), ())
    data = json.loads(json.dumps(analysis.to_dict(), allow_nan=False))
    assert data["overall"] is None and data["individual_accuracy"] is None
    assert analysis.item_rows() == [] and analysis.participant_rows() == []


def test_everyone_excluded_gives_an_empty_analysis_with_the_flow() -> None:
    """All participants fail a catch trial: the flow says so, the agreement is empty."""
    judgements = [Judgement("c", pid, False, is_catch=True) for pid in ("p1", "p2")] + [
        Judgement("i1", pid, True, "A", "X") for pid in ("p1", "p2")
    ]
    analysis = analyse_study(judgements, participants=[ParticipantInfo("p3", completed=False)], settings=FAST)
    flow = analysis.exclusion.flow
    assert (flow.started, flow.completed, flow.excluded, flow.analysed) == (3, 2, 2, 0)
    assert analysis.items == () and analysis.overall is None
    assert len(analysis.participant_rows()) == 3
    json.dumps(analysis.to_dict(), allow_nan=False)


def test_one_response_per_item_has_no_rater_agreement() -> None:
    """A single rater per item cannot be compared with anyone: raters is None, not an error."""
    analysis = analyse_study([Judgement("i1", "p1", True, "A", "X")], settings=FAST)
    assert analysis.raters is None
    assert analysis.items[0].observed_agreement is None
    assert analysis.overall is not None and analysis.overall.micro == 1.0


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"tie": "coin"}, "unknown tie rule"),
        ({"confidence": 1.0}, "confidence"),
        ({"bootstrap_resamples": -1}, "bootstrap_resamples"),
    ],
)
def test_impossible_study_settings_are_refused(settings: dict[str, object], message: str) -> None:
    """Settings that cannot work are errors naming the setting."""
    with pytest.raises(ValueError, match=message):
        StudySettings(**settings)  # type: ignore[arg-type]
