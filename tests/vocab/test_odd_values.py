"""Feature values that look like slips: few items hold them beside common ones."""

from vocab.odd_values import OddValue, odd_values

ITEMS = [(f"n{i}", {"number": ["sg" if i % 2 else "pl"], "animate": ["1"]}) for i in range(8)] + [
    ("n8", {"number": ["plural"], "animate": ["1"]}),
    ("n9", {"number": ["x"], "animate": ["maybe"]}),
]


def test_a_value_few_items_hold_beside_common_ones_is_odd_and_the_meant_one_offered() -> None:
    assert odd_values(ITEMS, features=["number", "animate"]) == [
        OddValue("number", "plural", ("n8",), "pl", 4),
        OddValue("number", "x", ("n9",), "", 0),  # like no common value
        OddValue("animate", "maybe", ("n9",), "", 0),
    ]


def test_a_feature_without_common_values_has_no_odd_ones() -> None:
    rare = [("a", {"gloss": ["dog"]}), ("b", {"gloss": ["cat"]}), ("c", {"gloss": ["cow"]})]
    assert odd_values(rare, features=["gloss"]) == []
    assert odd_values(ITEMS, features=[]) == []
