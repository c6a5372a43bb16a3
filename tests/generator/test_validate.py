"""Every validation error: each names its code, file, grammar, position and line."""

from __future__ import annotations

import pytest

from generator import errors as E
from generator.errors import TemplateError
from generator.generate import Generator
from generator.template import template_from_text
from tests.generator.builders import build
from vocab.lexicon import Vocabulary, make_item

HEAD = """\
uid: t1
phenomenon: test
language: en
"""


def problems_of(text: str, vocabulary: Vocabulary) -> list:
    with pytest.raises(TemplateError) as caught:
        Generator(build(HEAD + text, "case.yaml"), vocabulary)
    return caught.value.problems


def only(problems: list, code: str):
    found = [p for p in problems if p.code == code]
    assert found, f"expected {code}, got {[str(p) for p in problems]}"
    return found[0]


def test_validate_reports_yaml_syntax_with_line() -> None:
    with pytest.raises(TemplateError) as caught:
        template_from_text("uid: x\ngood: [\n  - {direct: a\n", file="broken.yaml")
    problem = caught.value.problems[0]
    assert problem.code == E.E_SYNTAX and problem.template == "broken.yaml" and problem.line is not None
    assert "not valid YAML" in str(problem)


def test_validate_reports_missing_fields_and_unknown_keys() -> None:
    with pytest.raises(TemplateError) as caught:
        template_from_text(
            "uid: x\nlanguage: en\ngood:\n  - {lexcial: {pos: NN}}\nbad:\n  - {same: '1'}\n", file="f.yaml"
        )
    problems = caught.value.problems
    assert any(p.code == E.E_FIELD and "phenomenon" in p.message for p in problems)
    unknown = next(p for p in problems if "lexcial" in p.message)
    assert "did you mean 'lexical'" in unknown.message and unknown.line == 4
    assert unknown.grammar == "good" and unknown.position == "1"


def test_validate_rejects_two_rules_in_one_position() -> None:
    with pytest.raises(TemplateError) as caught:
        build(HEAD + "good:\n  - {direct: a, phrase: NP}\nbad:\n  - {direct: b}\n")
    assert caught.value.codes == [E.E_RULE]


def test_validate_rejects_edit_rules_in_good_grammar() -> None:
    with pytest.raises(TemplateError) as caught:
        build(HEAD + "good:\n  - {direct: a}\n  - {move: '1'}\nbad:\n  - {direct: b}\n")
    assert "only be used in the bad grammar" in str(caught.value)


def test_validate_unknown_feature_suggests_name(en_vocab: Vocabulary) -> None:
    problem = only(
        problems_of("good:\n  - {lexical: {pos: NN, animat: '1'}}\nbad:\n  - {direct: x}\n", en_vocab),
        E.E_UNKNOWN_FEATURE,
    )
    assert "did you mean 'animate'" in problem.message and problem.line == 5
    assert problem.template == "case.yaml" and problem.grammar == "good"


def test_validate_unknown_value(en_vocab: Vocabulary) -> None:
    problem = only(
        problems_of("good:\n  - {lexical: {pos: NNN}}\nbad:\n  - {direct: x}\n", en_vocab), E.E_UNKNOWN_VALUE
    )
    assert "no item has pos = 'NNN'" in problem.message and "did you mean 'NN'" in problem.message


def test_validate_declared_value_outside_value_set(en_vocab: Vocabulary) -> None:
    problem = only(
        problems_of("good:\n  - {lexical: {pos: NN, number: dual}}\nbad:\n  - {direct: x}\n", en_vocab),
        E.E_UNKNOWN_VALUE,
    )
    assert "not one of the declared values" in problem.message


def test_validate_dangling_reference(en_vocab: Vocabulary) -> None:
    text = (
        "good:\n  - {id: subj, lexical: {pos: NN}}\n  - {matched: sujb, on: number, lexical: {pos: VB}}\n"
        "bad:\n  - {same: subj}\n  - {direct: x}\n"
    )
    problem = only(problems_of(text, en_vocab), E.E_DANGLING_REF)
    assert "'sujb' names no position" in problem.message and "did you mean 'subj'" in problem.message
    assert problem.position == "2" and problem.line == 6


def test_validate_dangling_edit_reference(en_vocab: Vocabulary) -> None:
    problem = only(
        problems_of("good:\n  - {id: a, direct: x}\nbad:\n  - {move: b}\n", en_vocab), E.E_DANGLING_REF
    )
    assert problem.grammar == "bad" and "'move: b'" in problem.message


def test_validate_reference_into_phrase_needs_every_alternative(en_vocab: Vocabulary) -> None:
    text = """\
phrases:
  NP:
    - [{direct: the}, {id: head, lexical: {pos: NN}}]
    - [{direct: the}, {id: noun, lexical: {pos: NN}}]
good:
  - {id: subj, phrase: NP}
  - {matched: subj.head, on: animate, lexical: {pos: NN}}
bad:
  - {same: subj}
  - {direct: x}
"""
    problem = only(problems_of(text, en_vocab), E.E_DANGLING_REF)
    assert "alternative 2 of phrase NP has no position 'head'" in problem.message


def test_validate_agreement_with_phrase_asks_for_inner_position(en_vocab: Vocabulary) -> None:
    text = """\
phrases:
  NP:
    - [{direct: the}, {id: head, lexical: {pos: NN}}]
good:
  - {id: subj, phrase: NP}
  - {matched: subj, on: animate, lexical: {pos: NN}}
bad:
  - {same: subj}
  - {direct: x}
"""
    problem = only(problems_of(text, en_vocab), E.E_DANGLING_REF)
    assert "subj.head" in problem.message


def test_validate_unknown_phrase(en_vocab: Vocabulary) -> None:
    text = "phrases:\n  NP:\n    - [{direct: the}]\ngood:\n  - {phrase: Np}\nbad:\n  - {direct: x}\n"
    problem = only(problems_of(text, en_vocab), E.E_UNKNOWN_PHRASE)
    assert "did you mean 'NP'" in problem.message


def test_validate_recursive_phrase_without_base_case(en_vocab: Vocabulary) -> None:
    text = """\
phrases:
  NP:
    - [{direct: the}, {lexical: {pos: NN}}, {phrase: PP}]
  PP:
    - [{direct: with}, {phrase: NP}]
good:
  - {phrase: NP}
bad:
  - {direct: x}
"""
    problems = problems_of(text, en_vocab)
    assert {p.grammar for p in problems if p.code == E.E_NO_BASE_CASE} == {"phrase NP", "phrase PP"}
    assert "give it an alternative without recursion" in problems[0].message


def test_validate_same_grammars(en_vocab: Vocabulary) -> None:
    text = (
        "good:\n  - {id: a, lexical: {pos: NN}}\n  - {id: b, direct: x}\nbad:\n  - {same: a}\n  - {same: b}\n"
    )
    problem = only(problems_of(text, en_vocab), E.E_SAME_GRAMMARS)
    assert problem.grammar == "bad"


def test_validate_same_literal_differences(en_vocab: Vocabulary) -> None:
    text = "good:\n  - {id: a, lexical: {pos: NN}}\n  - {direct: x}\nbad:\n  - {same: a}\n  - {direct: x}\n"
    assert only(problems_of(text, en_vocab), E.E_SAME_GRAMMARS)


def test_validate_position_without_candidate_explains_which_feature(en_vocab: Vocabulary) -> None:
    text = "good:\n  - {lexical: {pos: DT, animate: '1'}}\nbad:\n  - {direct: x}\n"
    problem = only(problems_of(text, en_vocab), E.E_NO_CANDIDATE)
    assert "no vocabulary item has pos = DT and animate = 1" in problem.message
    assert problem.line == 5 and problem.grammar == "good"


def test_validate_position_without_inflection(en_vocab: Vocabulary) -> None:
    text = "good:\n  - {lexical: {pos: DT}, form: VBD}\nbad:\n  - {direct: x}\n"
    problem = only(problems_of(text, en_vocab), E.E_NO_CANDIDATE)
    assert "has a dictionary form for 'VBD'" in problem.message


def test_validate_unsatisfiable_agreement(en_vocab: Vocabulary) -> None:
    # Determiners have a number; adjectives do not, so nothing can agree with one on number.
    text = (
        "good:\n  - {id: d, lexical: {pos: DT}}\n  - {matched: d, on: number, lexical: {pos: JJ}}\n"
        "bad:\n  - {same: d}\n  - {direct: x}\n"
    )
    problem = only(problems_of(text, en_vocab), E.E_UNSATISFIABLE)
    assert "agreement constraints leave no word" in problem.message


def test_validate_unknown_inflection_tag(en_vocab: Vocabulary) -> None:
    problem = only(
        problems_of("good:\n  - {lexical: {pos: VB}, form: VBX}\nbad:\n  - {direct: x}\n", en_vocab),
        E.E_INFLECTION,
    )
    assert "not an inflection tag" in problem.message


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("  - {same: b}\n  - {same: a}\n", "write 'move: b'"),
        ("  - {same: a}\n  - {same: b}\n  - {same: a}\n", "write 'copy: a'"),
        ("  - {same: a}\n  - {move: a}\n  - {same: b}\n", "write 'copy: a'"),
        ("  - {copy: a}\n  - {same: b}\n", "write 'move: a'"),
        ("  - {delete: a}\n  - {same: b}\n  - {move: a}\n", "is still used"),
    ],
)
def test_validate_inconsistent_edits(en_vocab: Vocabulary, bad: str, message: str) -> None:
    text = "good:\n  - {id: a, lexical: {pos: NN}}\n  - {id: b, lexical: {pos: VB}}\nbad:\n" + bad
    problem = only(problems_of(text, en_vocab), E.E_EDIT)
    assert message in problem.message and problem.grammar == "bad"


THREE = (
    "good:\n  - {id: a, lexical: {pos: NN}}\n  - {id: b, lexical: {pos: VB}}\n"
    "  - {id: c, direct: now}\nbad:\n"
)


@pytest.mark.parametrize(
    ("bad", "moved", "row"),
    [
        ("  - {same: a}\n  - {move: b}\n  - {same: c}\n", "b", "2"),  # where it was
        ("  - {move: a}\n  - {same: b}\n  - {same: c}\n", "a", "1"),  # where it was, first
        ("  - {same: a}\n  - {move: b}\n  - {delete: c}\n", "b", "2"),  # only a word left out beside it
        ("  - {same: a}\n  - {move: b, form: VBZ}\n  - {same: c}\n", "b", "2"),  # re-inflected: a Same
    ],
)
def test_validate_a_move_that_leaves_the_word_in_its_place(
    en_vocab: Vocabulary, bad: str, moved: str, row: str
) -> None:
    problem = only(problems_of(THREE + bad, en_vocab), E.E_EDIT)
    assert problem.grammar == "bad" and problem.position.startswith(row)
    assert f"'move: {moved}' leaves the word where it is" in problem.message


@pytest.mark.parametrize(
    "bad",
    [
        "  - {same: a}\n  - {same: c}\n  - {move: b}\n",  # after c
        "  - {move: c}\n  - {same: a}\n  - {same: b}\n",  # before a
        "  - {same: a}\n  - {move: c}\n  - {lexical: {pos: VB}}\n",  # before a word put in b's place
    ],
)
def test_validate_a_move_to_another_place_is_fine(en_vocab: Vocabulary, bad: str) -> None:
    Generator(build(HEAD + THREE + bad, "case.yaml"), en_vocab)  # no TemplateError


def test_validate_bad_option_values() -> None:
    with pytest.raises(TemplateError) as caught:
        build(
            HEAD + "options: {unique: sentence, max_depth: 0, colour: red}\n"
            "good:\n  - {direct: a}\nbad:\n  - {direct: b}\n"
        )
    messages = str(caught.value)
    assert "'unique' must be good, bad or pair" in messages
    assert "'max_depth' must be a whole number" in messages
    assert "unknown option 'colour'" in messages


def test_validate_collects_all_problems_at_once(en_vocab: Vocabulary) -> None:
    text = "good:\n  - {lexical: {pos: NNN}}\n  - {lexical: {colour: red}}\nbad:\n  - {direct: x}\n"
    codes = [p.code for p in problems_of(text, en_vocab)]
    assert codes.count(E.E_UNKNOWN_VALUE) == 1 and codes.count(E.E_UNKNOWN_FEATURE) == 1


def test_validate_literal_words_stay_text() -> None:
    template = build(HEAD + "good:\n  - {direct: [no, on, yes, 1]}\nbad:\n  - {direct: off}\n")
    assert template.good[0].rule.options == ("no", "on", "yes", "1")  # type: ignore[union-attr]


def test_validate_question_mark_inside_a_flow_mapping_is_text() -> None:
    template = build(
        HEAD + "example: {good: Can the dogs swim?, bad: Can the dogs swims?}\n" + "good:\n"
        "  - {direct: a}\nbad:\n  - {direct: b}\n"
    )
    assert template.example == {"good": "Can the dogs swim?", "bad": "Can the dogs swims?"}


@pytest.mark.parametrize(
    "text",
    [
        "uid: x\nexample: {good: Look: a dog, bad: x}\n",
        "uid: x\ndescription: a dog: the animal\n",
        "uid: x\ngood:\n  - {direct: [a, b}\n",
    ],
)
def test_validate_unquoted_colon_or_bracket_gets_a_quoting_hint(text: str) -> None:
    with pytest.raises(TemplateError) as caught:
        template_from_text(text, file="q.yaml")
    problem = caught.value.problems[0]
    assert "must be put in quotes" in problem.message and problem.line in (2, 3)


def test_validate_duplicate_position_id() -> None:
    with pytest.raises(TemplateError) as caught:
        build(HEAD + "good:\n  - {id: a, direct: x}\n  - {id: a, direct: y}\nbad:\n  - {direct: z}\n")
    problem = caught.value.problems[0]
    assert problem.code == E.E_DUPLICATE_ID and "already used by position 1" in problem.message
    assert problem.position == "2"


def test_validate_phrase_deeper_than_max_depth(en_vocab: Vocabulary) -> None:
    text = """\
options: {max_depth: 1}
phrases:
  Outer:
    - [{phrase: Inner}]
  Inner:
    - [{lexical: {pos: NN}}]
good:
  - {phrase: Outer}
bad:
  - {direct: x}
"""
    problem = only(problems_of(text, en_vocab), E.E_NO_BASE_CASE)
    assert "needs 2 levels of nesting but options.max_depth is 1" in problem.message


def test_validate_where_names_missing_inner_position(en_vocab: Vocabulary) -> None:
    text = """\
phrases:
  NP:
    - [{direct: the}, {id: head, lexical: {pos: NN}}]
good:
  - {phrase: NP, where: {noun: {animate: "1"}}}
bad:
  - {direct: x}
"""
    problem = only(problems_of(text, en_vocab), E.E_DANGLING_REF)
    assert "'where: noun' but alternative 1 of phrase NP has no lexical position 'noun'" in problem.message


def test_validate_phrase_files_missing_or_duplicated(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "a.yaml").write_text("NP:\n  - [{direct: the}]\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("NP:\n  - [{direct: a}]\n", encoding="utf-8")
    (tmp_path / "d.yaml").write_bytes("NP: [[{direct: \u00e9}]]".encode("latin-1"))
    text = (
        HEAD
        + "phrase_files: [a.yaml, b.yaml, c.yaml, d.yaml]\ngood:\n  - {phrase: NP}\nbad:\n  - {direct: x}\n"
    )
    with pytest.raises(TemplateError) as caught:
        template_from_text(text, file=str(tmp_path / "t.yaml"))
    messages = [str(p) for p in caught.value.problems]
    assert any("phrase file 'c.yaml' does not exist" in m for m in messages)
    assert any("b.yaml, line 1" in m and "defined in two phrase files" in m for m in messages)
    assert any("phrase file 'd.yaml' is not UTF-8 text" in m for m in messages)


PHRASE_TEMPLATE = (
    HEAD
    + """\
good:
  - {id: subj, phrase: NP}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
bad:
  - {same: subj}
  - {same: verb, form: VBP}
"""
)


def test_template_phrases_from_texts_are_used_and_hashed_only_when_used(en_vocab: Vocabulary) -> None:
    np = "- [{direct: the}, {id: head, lexical: {pos: NN}}]\n"
    unused = "- [{direct: a}]\n"
    first = template_from_text(PHRASE_TEMPLATE, file="t.yaml", phrase_texts={"NP": np, "Other": unused})
    other_changed = template_from_text(
        PHRASE_TEMPLATE, file="t.yaml", phrase_texts={"NP": np, "Other": "- [{direct: an}]\n"}
    )
    np_changed = template_from_text(
        PHRASE_TEMPLATE, file="t.yaml", phrase_texts={"NP": np.replace("the", "this"), "Other": unused}
    )
    assert first.content_hash == other_changed.content_hash != np_changed.content_hash
    pair = next(Generator(first, en_vocab).pairs(1, 0))
    assert pair.good.startswith("The ")


def test_template_phrase_texts_report_the_phrase_and_line() -> None:
    with pytest.raises(TemplateError) as caught:
        template_from_text(
            PHRASE_TEMPLATE, file="t.yaml", phrase_texts={"NP": "- [{direct: the}]\n- {oops}\n"}
        )
    problem = caught.value.problems[0]
    assert problem.template == "phrase NP" and problem.line == 2


def test_validate_surrogate_escape_is_a_syntax_error_not_a_crash() -> None:
    with pytest.raises(TemplateError) as caught:
        template_from_text('uid: x\nphenomenon: "\\ud800\\udc00"\n', file="s.yaml")
    problem = caught.value.problems[0]
    assert problem.code == E.E_SYNTAX and problem.line == 2 and "escape" in problem.message


def test_validate_same_with_a_vocabulary_form_column_is_accepted() -> None:
    # `form: X` names a tag or a `form_X` column, in a lexical rule and in `same` alike.
    vocabulary = Vocabulary(
        [
            make_item(id="eat", form="吃完", pos="VV", features={"form_INFIX_LE": "吃了完"}),
            make_item(id="take", form="拿走", pos="VV", features={"form_INFIX_LE": "拿了走"}),
        ],
        name="zh",
        language="zh",
    )
    text = "good:\n  - {id: v, lexical: {pos: VV}}\nbad:\n  - {same: v, form: INFIX_LE}\n"
    generator = Generator(build(HEAD.replace("language: en", "language: zh") + text), vocabulary)
    assert {(p.good, p.bad) for p in generator.pairs(2, 0)} == {("吃完", "吃了完"), ("拿走", "拿了走")}
    problem = only(problems_of(text.replace("INFIX_LE", "INFIX_GUO"), vocabulary), E.E_INFLECTION)
    assert "no column 'form_INFIX_GUO'" in problem.message


@pytest.mark.parametrize(
    ("blimp", "message"),
    [
        ("blimp: syntax\n", "'blimp' must map BLiMP's fields to text"),
        ("blimp: {feild: syntax}\n", "'blimp' has no field 'feild' (did you mean 'field'?)"),
        ("blimp: {field: [a, b]}\n", "'blimp: field' must be text"),
    ],
)
def test_validate_blimp_fields(blimp: str, message: str) -> None:
    with pytest.raises(TemplateError) as caught:
        build(HEAD + blimp + "good:\n  - {direct: a}\nbad:\n  - {direct: b}\n")
    [problem] = [p for p in caught.value.problems if "blimp" in p.message]
    assert message in problem.message and problem.key == "blimp" and problem.line == 4
