"""generator.written_pair: a hand-written pair gets words, a critical region and provenance."""

from generator.written_pair import WRITTEN, written_pair_problems, written_pair_record


def test_a_substitution_is_found_with_its_spans() -> None:
    record = written_pair_record(
        "The cats sleep.",
        "The cats sleeps.",
        uid="sv",
        phenomenon="agreement",
        language="en",
        pair_id=7,
        written_by="ana",
    )
    assert record["words_good"] == ["The", "cats", "sleep", "."]
    assert record["critical_region"] == [
        {
            "type": "substitution",
            "good": {"tokens": [2, 3], "chars": [9, 14], "positions": []},
            "bad": {"tokens": [2, 3], "chars": [9, 15], "positions": []},
        }
    ]
    assert record["pairID"] == "7" and record["UID"] == "sv"
    assert record["provenance"] == {"template": "sv", "generator": WRITTEN, "written_by": "ana"}
    again = written_pair_record(
        "The cats sleep.",
        "The cats sleeps.",
        uid="sv",
        phenomenon="agreement",
        language="en",
        pair_id=8,
        written_by="bo",
    )
    assert again["item_id"] == record["item_id"]  # the same sentences in the same paradigm


def test_insertions_and_deletions_have_a_point_on_the_other_side() -> None:
    record = written_pair_record(
        "Who did you see?",
        "Who did you see him?",
        uid="u",
        phenomenon="p",
        language="en",
        pair_id=0,
        written_by="ana",
    )
    [edit] = record["critical_region"]  # type: ignore[misc]
    assert edit["type"] == "insertion"
    assert edit["good"] == {"tokens": [4, 4], "chars": [15, 15], "positions": []}
    assert edit["bad"] == {"tokens": [4, 5], "chars": [16, 19], "positions": []}


def test_chinese_is_cut_into_words() -> None:
    record = written_pair_record(
        "我看了三本书", "我看了三只书", uid="zh", phenomenon="cl", language="zh", pair_id=0, written_by="li"
    )
    [edit] = record["critical_region"]  # type: ignore[misc]
    assert edit["type"] == "substitution"
    start, end = edit["good"]["chars"]
    assert "本" in "我看了三本书"[start:end] and "我" not in "我看了三本书"[start:end]


def test_problems_name_the_sentence() -> None:
    assert [p.key for p in written_pair_problems("", "A b.", "en")] == ["good"]
    assert [p.key for p in written_pair_problems("A b.", "A\nb.", "en")] == ["bad"]
    same = written_pair_problems("The cat sleeps.", "The  cat sleeps .", "en")
    assert [p.key for p in same] == ["bad"] and "same words" in same[0].message
    assert written_pair_problems("The cat sleeps.", "The cat sleep.", "en") == []
