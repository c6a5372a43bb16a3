"""ZhoBLiMP position strings read the way ZhoBLiMP reads them, with surprises reported."""

from __future__ import annotations

import pytest

from generator.importers.zhoblimp_rules import (
    Agreement,
    DirectChoice,
    LexicalChoice,
    PhraseChoice,
    RuleSyntaxError,
    parse_position,
)


def test_alternatives_split_on_bar() -> None:
    parsed = parse_position("phrase:Person | pos:NN subcat:person")
    assert parsed.choices == (PhraseChoice("Person"), LexicalChoice({"pos": ("NN",), "subcat": ("person",)}))


def test_direct_literals_split_on_spaces_and_empty_is_the_empty_string() -> None:
    assert parse_position("了 过").choices == (DirectChoice(("了", "过")),)
    assert parse_position("。").choices == (DirectChoice(("。",)),)
    assert parse_position("了 | ").choices == (DirectChoice(("了",)), DirectChoice(()))


def test_slash_means_or_and_short_agreement_names_are_aliases() -> None:
    parsed = parse_position("pos:PN gender:male/female mPos:0 mPro:number mmPos:3 mmPro:gender/animate")
    (choice,) = parsed.choices
    assert isinstance(choice, LexicalChoice)
    assert choice.properties == {"pos": ("PN",), "gender": ("male", "female")}
    assert choice.agreements == (
        Agreement(0, ("number",), True),
        Agreement(3, ("gender", "animate"), False),
    )


def test_long_agreement_names_and_agreement_without_properties() -> None:
    (choice,) = parse_position("matchedPosition:1 matchedProperties:expression").choices
    assert choice == LexicalChoice({}, (Agreement(1, ("expression",), True),))


def test_phrase_extra_properties_with_negative_index() -> None:
    (choice,) = parse_position("phrase:ComplexNP -1:<animate:1 number:singular/plural> 0:<pos:DT>").choices
    assert choice == PhraseChoice(
        "ComplexNP",
        ((-1, {"animate": ("1",), "number": ("singular", "plural")}), (0, {"pos": ("DT",)})),
    )


def test_a_literal_that_looks_like_key_value_is_kept_and_reported() -> None:
    parsed = parse_position("他 a:b")
    assert parsed.choices == (DirectChoice(("他", "a:b")),)
    assert "a:b" in parsed.warnings[0] and "literal" in parsed.warnings[0]


@pytest.mark.parametrize(
    ("cell", "says"),
    [
        ("pos:M mPos:1+1 mPro:classifier", "not a plain whole number"),
        ("pos:M mPos:len(x) mPro:classifier", "not a plain whole number"),
        ("pos:NN:x", "not key:value"),
        ("pos:M mPos:2", "without the other"),
        ("pos:NN pos:VV", "given twice"),
        ("phrase:NP junk", "is not an extra property"),
        ("phrase:NP x:<pos:NN>", "not a plain whole-number index"),
        ("pos:NN | pos:VV:x", "choice 2"),
    ],
)
def test_unreadable_rules_raise_naming_the_problem(cell: str, says: str) -> None:
    with pytest.raises(RuleSyntaxError, match=says.replace("(", r"\(").replace("+", r"\+")):
        parse_position(cell)
