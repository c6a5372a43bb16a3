"""A ZhoBLiMP project imported end to end: every emitted template validates with our engine, the
implicit copy-by-equal-rule-text becomes explicit same/move/copy/delete, and every problem is
reported by file and cell."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import orjson
import pytest

from generator.generate import Generator
from generator.importers.zhoblimp import SourceFile, ZhoblimpImport, import_zhoblimp, write_import
from generator.importers.zhoblimp_templates import convert_template
from generator.library import VocabularyCache, find_templates, load_with_vocabulary
from generator.template import Deletion, PhraseRef, Reference, template_from_text
from generator.validate import validate
from mpp.cli import main
from tests.generator.importers.zhoblimp_files import (
    MALFORMED,
    PHRASES,
    TEMPLATES,
    VOCAB,
    source,
    template_sources,
)
from vocab.import_report import ImportNote


@pytest.fixture(scope="module")
def imported() -> ZhoblimpImport:
    return import_zhoblimp(template_sources(), vocabulary=source(VOCAB), phrases=source(PHRASES))


def by_uid(result: ZhoblimpImport, uid: str):  # type: ignore[no-untyped-def]
    text = next(t.text for t in result.templates if t.uid == uid)
    return template_from_text(text, phrase_texts=result.phrase_texts())


def notes_of(result: ZhoblimpImport, file: str) -> list[ImportNote]:
    return [n for n in result.notes if n.file == file]


def test_every_template_file_is_imported_and_validates(imported: ZhoblimpImport) -> None:
    assert sorted(t.uid for t in imported.templates) == [
        "BA_inversion",
        "aspect_deletion_insertion",
        "classifier_mismatch",
        "coordination_ambiguous_copy",
        "question_A_not_A_copy",
        "subject_gender__Kejia",
        "subject_gender__zhiheng",
    ]
    assert imported.vocabulary is not None
    for template in imported.templates:
        parsed = template_from_text(template.text, phrase_texts=imported.phrase_texts())
        assert validate(parsed, imported.vocabulary)[1] == []


def test_written_files_validate_and_generate_with_the_mpp_command(
    imported: ZhoblimpImport, tmp_path: Path
) -> None:
    write_import(imported, tmp_path)
    files = find_templates([tmp_path])
    assert len(files) == 7
    cache = VocabularyCache()
    for path in files:
        template, vocabulary = load_with_vocabulary(path, cache)
        pairs = list(Generator(template, vocabulary).pairs(3, seed=1))
        assert len(pairs) == 3 and all(p.good != p.bad for p in pairs)
    assert main(["validate", str(tmp_path)]) == 0


def test_a_reordered_cell_becomes_a_move(imported: ZhoblimpImport) -> None:
    template = by_uid(imported, "BA_inversion")
    rules = [p.rule for p in template.bad]
    assert [(r.mode, r.target) for r in rules if isinstance(r, Reference)] == [
        ("same", "p1"),
        ("same", "p2"),
        ("move", "p0"),
        ("same", "p3"),
        ("same", "p4"),
        ("same", "p5"),
    ]
    assert imported.vocabulary is not None
    pair = next(iter(Generator(template, imported.vocabulary).pairs(1, seed=0)))
    assert pair.edit_types() == ["move"]
    assert sorted(pair.good) == sorted(pair.bad)


def test_alternatives_and_phrase_properties_become_local_phrases(imported: ZhoblimpImport) -> None:
    template = by_uid(imported, "BA_inversion")
    assert isinstance(template.good[0].rule, PhraseRef) and template.good[0].rule.name == "p0_choices"
    assert len(template.phrases["p0_choices"].alternatives) == 2
    derived = template.phrases["NP_with_1"]
    heads = [alt[-1].rule for alt in derived.alternatives]
    assert all(h.features["number"] == ("singular",) for h in heads)  # type: ignore[union-attr]


def test_an_equal_cell_elsewhere_becomes_a_copy_and_an_empty_cell_a_deletion(
    imported: ZhoblimpImport,
) -> None:
    question = by_uid(imported, "question_A_not_A_copy")
    assert (question.bad[2].rule.mode, question.bad[2].rule.target) == ("copy", "p0")  # type: ignore[union-attr]
    assert imported.vocabulary is not None
    for pair in Generator(question, imported.vocabulary).pairs(5, seed=3):
        assert pair.edit_types() == ["copy"]
        (_, _, bad_span, _) = pair.critical_region[0]
        start, end = bad_span.chars
        inserted = pair.bad[start:end]
        assert inserted and pair.good.startswith(inserted)  # the subject, said again
        assert pair.bad[:start] + pair.bad[end:] == pair.good
    aspect = by_uid(imported, "aspect_deletion_insertion")
    assert isinstance(aspect.bad[1].rule, Deletion) and aspect.bad[1].rule.target == "p1"
    assert [p.id for p in aspect.good] == ["p0", "p1", "p2", "p4"]  # the empty good cell is no position
    kinds = next(iter(Generator(aspect, imported.vocabulary).pairs(1, seed=0))).edit_types()
    assert kinds == ["deletion", "insertion"]


def test_an_ambiguous_copy_takes_the_first_equal_cell_and_is_reported(imported: ZhoblimpImport) -> None:
    template = by_uid(imported, "coordination_ambiguous_copy")
    assert (template.bad[3].rule.mode, template.bad[3].rule.target) == ("copy", "p0")  # type: ignore[union-attr]
    (note,) = [n for n in notes_of(imported, "coordination_ambiguous_copy.json") if n.where == "bad_rule[3]"]
    assert "good_rule[0], good_rule[2]" in note.message and "first" in note.message
    assert imported.vocabulary is not None
    for pair in Generator(template, imported.vocabulary).pairs(5, seed=2):
        first = pair.good[: pair.good.index("和")]
        assert pair.bad.endswith(first + "。")


@pytest.mark.parametrize(
    ("cell", "reported"),
    [
        ("了", False),  # one literal: every equal cell says 了
        ("了|了", False),  # alternatives of one literal
        ("了 过", True),  # a literal drawn from two: the cells may differ
        ("了|过", True),
        ("pos:AS", True),  # a word rule
    ],
)
def test_issue_17_an_ambiguous_copy_is_reported_only_where_the_equal_cells_can_differ(
    cell: str, reported: bool
) -> None:
    """A bad cell equal to several good cells is reported only if those cells can produce different words."""
    obj = {
        "uid": "ambiguous",
        "phenomenon": "aspect",
        "good_rule": ["pos:PN", cell, "pos:VV", cell, "。"],
        "bad_rule": ["pos:PN", "pos:VV", cell, cell, "。"],
    }
    converted, notes = convert_template(obj, file="ambiguous.json")
    assert converted is not None
    assert [n.level for n in notes if n.where == "bad_rule[2]"] == (["changed"] if reported else [])


def test_forward_and_mismatched_references(imported: ZhoblimpImport) -> None:
    template = by_uid(imported, "classifier_mismatch")
    verb, classifier = template.good[1].rule, template.good[3].rule
    assert [(c.target, c.features, c.agree) for c in verb.constraints] == [("p4", ("tran_verb",), True)]  # type: ignore[union-attr]
    assert [(c.target, c.agree) for c in classifier.constraints] == [("p4", True)]  # type: ignore[union-attr]
    bad = template.bad[3].rule
    assert [(c.target, c.features, c.agree) for c in bad.constraints] == [("p4", ("classifier",), False)]  # type: ignore[union-attr]
    assert imported.vocabulary is not None
    vocab = imported.vocabulary
    assert template.options.sampling == "zhoblimp"
    # ZhoBLiMP's way: the bad classifier differs from the classifier value the good sentence
    # drew, not from every classifier the noun takes.
    for pair in Generator(template, vocab).pairs(30, seed=5):
        at = pair.good.index("一") + 1
        assert pair.bad[at] != pair.good[at]
    # Our own way: the bad classifier is none the noun takes.
    uniform = dataclasses.replace(template, options=dataclasses.replace(template.options, sampling="uniform"))
    for pair in Generator(uniform, vocab).pairs(10, seed=5):
        noun = next(i for i in vocab.items if i.pos == "NN" and pair.good.endswith(i.form + "。"))
        bad_classifier = pair.bad[pair.bad.index("一") + 1]
        assert bad_classifier not in noun.features["classifier"]


def test_strict_mp_uid_collisions_and_empty_phenomenon_are_reported(imported: ZhoblimpImport) -> None:
    strict = list(dict.fromkeys(n.file for n in imported.notes if n.where == "strict_MP"))
    assert sorted(strict) == [
        "ba_inversion_kejia.json",
        "classifier_mismatch_yeting.json",
        "subject_gender_zhiheng.json",
    ]
    for file in strict:
        setting, effect = [n for n in imported.notes if n.where == "strict_MP" and n.file == file]
        assert setting.level == "info" and "equal_length: characters" in setting.message
        # a move, a classifier for a classifier, 他 for 她: every pair is equally long already
        assert effect.level == "info" and "changes nothing" in effect.message
    collisions = [n for n in imported.notes if n.where == "uid"]
    assert {n.file for n in collisions} == {"subject_gender_Kejia.json", "subject_gender_zhiheng.json"}
    assert all("used by 2 files" in n.message for n in collisions)
    (phenomenon,) = [n for n in imported.notes if n.where == "phenomenon"]
    assert phenomenon.file == "aspect_deletion_insertion_zhiheng.json"
    assert by_uid(imported, "aspect_deletion_insertion").phenomenon == "unlabelled"


def test_strict_mp_sets_equal_length_characters(imported: ZhoblimpImport) -> None:
    """strict_MP: true becomes `options: {equal_length: characters}`, so every pair such a
    template makes has good and bad of one length; strict_MP: false leaves the option out."""
    assert imported.vocabulary is not None
    strict = {"BA_inversion", "classifier_mismatch", "subject_gender__zhiheng"}
    for converted in imported.templates:
        template = by_uid(imported, converted.uid)
        assert template.options.equal_length == ("characters" if converted.uid in strict else None)
    generator = Generator(by_uid(imported, "classifier_mismatch"), imported.vocabulary)
    assert all(len(p.good) == len(p.bad) for p in generator.pairs(20, seed=3))


@pytest.fixture(scope="module")
def malformed() -> ZhoblimpImport:
    return import_zhoblimp(template_sources(MALFORMED), vocabulary=source(VOCAB), phrases=source(PHRASES))


@pytest.mark.parametrize(
    ("file", "where", "says"),
    [
        ("broken_json.json", "line 3, column 3", "not valid JSON"),
        ("gbk_file.json", "line 1", "not UTF-8"),
        ("unknown_syntax.json", "good_rule[1]", "'pos:VV:tran' in the rule is not key:value"),
        ("index_out_of_range.json", "good_rule[1]", "matchedPosition 9 is outside the template (4 cells)"),
        ("eval_index.json", "good_rule[1]", "'1+1' in the rule is not a plain whole number"),
        ("match_to_phrase.json", "good_rule[2]", "not a word rule"),
        ("unequal_lengths.json", "bad_rule", "good_rule has 3 cells and bad_rule 2"),
        ("unknown_feature.json", "bad position 2 (b1)", "[E_UNKNOWN_FEATURE] 'valency'"),
        (
            "uses_unsupported_phrase.json",
            "good position 3 (p2)",
            "[E_UNKNOWN_PHRASE] there is no phrase 'Animal'",
        ),
    ],
)
def test_malformed_templates_are_skipped_naming_file_and_cell(
    malformed: ZhoblimpImport, file: str, where: str, says: str
) -> None:
    notes = notes_of(malformed, file)
    assert notes, f"nothing reported for {file}"
    skipped = [n for n in notes if n.level == "skipped"]
    assert skipped[0].where == where
    assert says in skipped[0].message
    assert malformed.templates == []


def test_a_phrase_the_vocabulary_cannot_fill_is_left_out_and_reported(imported: ZhoblimpImport) -> None:
    assert "Animal" not in imported.phrases
    (note,) = [n for n in imported.notes if n.where == "phrase 'Animal'"]
    assert note.level == "skipped" and "subcat" in note.message and "animal" in note.message


def test_only_the_alternatives_the_vocabulary_cannot_fill_are_left_out() -> None:
    """ZhoBLiMP's phrase LB: `pos:LB` fills, `AD + LB 受` and `AD + LB 让` cannot (no such LB)."""
    lb = [
        [{"type": "Lexical", "rule": {"pos": "PN"}}],
        [{"type": "Direct", "rule": ["很"]}, {"type": "Lexical", "rule": {"pos": "PN", "expression": "受"}}],
        [{"type": "Direct", "rule": ["很"]}, {"type": "Lexical", "rule": {"pos": "PN", "expression": "让"}}],
    ]
    phrases = SourceFile("p.json", orjson.dumps({"LB": lb}))
    result = import_zhoblimp([], vocabulary=source(VOCAB), phrases=phrases)
    assert [[p.get("lexical") for p in alt] for alt in result.phrases["LB"]] == [[{"pos": "PN"}]]
    notes = [n for n in result.notes if n.where.startswith("phrase 'LB'")]
    assert [(n.where, n.level) for n in notes] == [
        ("phrase 'LB', alternative 1", "changed"),
        ("phrase 'LB', alternative 2", "changed"),
    ]


def test_without_vocabulary_templates_are_parsed_and_the_report_says_so() -> None:
    result = import_zhoblimp(template_sources(), phrases=source(PHRASES))
    assert len(result.templates) == 7 and result.vocabulary is None
    assert any("not validated" in n.message for n in result.notes)
    assert "vocabulary:" not in result.templates[0].text


def test_without_phrases_templates_using_them_are_skipped() -> None:
    result = import_zhoblimp(template_sources(), vocabulary=source(VOCAB))
    assert [t.uid for t in result.templates] == ["subject_gender__Kejia", "subject_gender__zhiheng"]
    ba = [n for n in result.notes if n.file == "ba_inversion_kejia.json" and n.level == "skipped"]
    assert "does not define it" in ba[0].message


def test_cli_writes_our_layout_and_prints_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code = main(
        [
            "import",
            "zhoblimp",
            "--templates",
            str(TEMPLATES),
            str(MALFORMED / "eval_index.json"),
            "--vocab",
            str(VOCAB),
            "--phrases",
            str(PHRASES),
            "--out",
            str(out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "eval_index.json, good_rule[1]: [skipped]" in printed
    assert "imported 7 of 8 template file(s)" in printed
    assert (out / "vocabularies" / "vocab.tsv").exists() and (
        out / "vocabularies" / "vocab.schema.yaml"
    ).exists()
    assert (out / "phrases" / "phrases.yaml").exists()
    assert len(list((out / "zh").glob("*.yaml"))) == 7


def test_issue_17_cli_imports_the_vocabulary_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --templates, `mpp import zhoblimp --vocab` writes the vocabulary and its schema only."""
    out = tmp_path / "out"
    assert main(["import", "zhoblimp", "--vocab", str(VOCAB), "--out", str(out)]) == 0
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert written == ["vocabularies/vocab.schema.yaml", "vocabularies/vocab.tsv"]
    assert main(["vocab", "check", str(out / "vocabularies" / "vocab.tsv")]) == 0
    assert "vocab.tsv, line 14, column 'animate': [changed]" in capsys.readouterr().out


def test_issue_17_cli_without_templates_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing to import is a usage error (2); a vocabulary that cannot be used imports nothing (1)."""
    assert main(["import", "zhoblimp", "--out", str(tmp_path / "o")]) == 2
    assert "--vocab" in capsys.readouterr().err
    bad = tmp_path / "bad.tsv"
    bad.write_text("word\tpos\n书\tNN\n", encoding="utf-8")
    assert main(["import", "zhoblimp", "--vocab", str(bad), "--out", str(tmp_path / "o")]) == 1
    assert "bad.tsv, line 1, column 'expression': [skipped]" in capsys.readouterr().out
    assert main(["import", "zhoblimp", "--phrases", str(PHRASES), "--out", str(tmp_path / "p")]) == 0
    assert (tmp_path / "p" / "phrases" / "phrases.yaml").exists()


def test_cli_with_nothing_to_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["import", "zhoblimp", "--templates", str(tmp_path), "--out", str(tmp_path / "o")])
    assert code == 2 and "no .json template files" in capsys.readouterr().err
    code = main(
        [
            "import",
            "zhoblimp",
            "--templates",
            str(MALFORMED / "broken_json.json"),
            "--out",
            str(tmp_path / "o"),
        ]
    )
    assert code == 1


def test_a_kept_cell_repeating_a_replaced_word_repeats_the_bad_word() -> None:
    """ZhoBLiMP's released ellipsis_adj repeats the new verb ("…启程了一天，张夫人也启程了")."""
    folder = TEMPLATES.parent / "ellipsis"
    result = import_zhoblimp(template_sources(folder), vocabulary=source(VOCAB), phrases=source(PHRASES))
    (imported,) = result.templates
    template = template_from_text(imported.text, phrase_texts=result.phrase_texts())
    assert template.bad[7].id == "b7" and template.bad[5].rule.mode == "same"  # type: ignore[union-attr]
    (note,) = [n for n in result.notes if n.where == "bad_rule[7]"]
    assert note.level == "info" and "bad_rule[1]" in note.message
    assert result.vocabulary is not None
    for pair in Generator(template, result.vocabulary).pairs(10, seed=4):
        verb = pair.bad[pair.bad.index("也") + 1 : -2]
        assert verb in ("跑步", "睡觉") and pair.bad[2:].startswith(verb)
        assert pair.good[pair.good.index("也") + 1 : -2] != verb


def test_a_choice_zhoblimp_can_never_fill_is_reported_and_never_used() -> None:
    """ZhoBLiMP's causative_shi_ba: a pronoun that must differ in expression from a name gets
    another *name* as its value, which no pronoun has; the release never uses that choice."""
    folder = TEMPLATES.parent / "dead_choice"
    result = import_zhoblimp(template_sources(folder), vocabulary=source(VOCAB), phrases=source(PHRASES))
    (note,) = [n for n in result.notes if n.where == "good_rule[2]"]
    assert note.level == "changed" and note.message.startswith("choice 1 can never be filled")
    assert "good_rule[0]" in note.message and "expression" in note.message
    (imported,) = result.templates
    template = template_from_text(imported.text, phrase_texts=result.phrase_texts())
    assert result.vocabulary is not None
    pronouns = ("他", "她")
    made = list(Generator(template, result.vocabulary).pairs(6, seed=2))
    assert not any(p.good[3] in pronouns for p in made)
    uniform = dataclasses.replace(template, options=dataclasses.replace(template.options, sampling="uniform"))
    made = list(Generator(uniform, result.vocabulary).pairs(20, seed=2, unique="pair"))
    assert any(p.good[3] in pronouns for p in made)


def test_a_bad_word_agreeing_with_a_good_rule_is_named_with_its_effect() -> None:
    """ZhoBLiMP's BA_duplicate_argument: the bad pronoun's gender is drawn from the head's rule
    (female, male), so 她 can follow 张三; the report says so and ours does the same."""
    folder = TEMPLATES.parent / "rule_agreement"
    result = import_zhoblimp(template_sources(folder), vocabulary=source(VOCAB), phrases=source(PHRASES))
    (note,) = [n for n in result.notes if n.where == "bad_rule[2]"]
    assert note.level == "info" and "gender" in note.message and "good_rule[0]" in note.message
    assert "2 values: female, male" in note.message
    (imported,) = result.templates
    template = template_from_text(imported.text, phrase_texts=result.phrase_texts())
    vocab = result.vocabulary
    assert vocab is not None
    gender = {i.form: i.values("gender") for i in vocab.items if i.pos in ("NR", "PN")}

    def disagreeing(sampling: str) -> int:
        chosen = dataclasses.replace(
            template, options=dataclasses.replace(template.options, sampling=sampling)
        )
        pairs = Generator(chosen, vocab).pairs(16, seed=1, unique="pair", as_many_as_possible=True)
        return sum(gender[p.bad[:2]] != gender[p.bad[5]] for p in pairs)

    assert disagreeing("zhoblimp") > 0
    assert disagreeing("uniform") == 0


def test_the_report_names_a_strict_mp_template_the_option_changes() -> None:
    """ZhoBLiMP's passive_body_part: a one-character object replaced by a two-character one."""
    folder = TEMPLATES.parent / "strict_changes"
    result = import_zhoblimp(template_sources(folder), vocabulary=source(VOCAB), phrases=source(PHRASES))
    (effect,) = [n for n in result.notes if n.where == "strict_MP" and n.level == "changed"]
    assert "bad minus good could be +1 characters" in effect.message
    (imported,) = result.templates
    template = template_from_text(imported.text, phrase_texts=result.phrase_texts())
    assert result.vocabulary is not None
    pairs = list(Generator(template, result.vocabulary).pairs(8, seed=3, as_many_as_possible=True))
    assert pairs and all(len(p.good) == len(p.bad) for p in pairs)
