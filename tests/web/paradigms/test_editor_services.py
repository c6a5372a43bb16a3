"""The editor's preview service, where each problem is placed, and restoring versions."""

import pytest
from django.core.exceptions import ValidationError

from generator import errors as E
from generator.errors import GenerationError, Problem
from mpp_studio.paradigms.services import template_save
from mpp_studio.paradigms.services.editor import (
    EDITED_FILE,
    editor_preview,
    shown_problems,
    template_version_restore,
)
from tests.web.paradigms.editor_texts import DET_TEMPLATE

pytest_plugins = ["tests.web.paradigms.editor_support"]

TEXT = """\
uid: x
phenomenon: p
language: en
vocabulary: animals
options:
  max_depth: 0
notes: a note
good:
  - {direct: a}
bad:
  - {direct: b}
"""


@pytest.mark.parametrize(
    ("problem", "place"),
    [
        (Problem(E.E_UNKNOWN_VALUE, "m", EDITED_FILE, "good", "2 (subj)", 9), ("good", 2, "")),
        (Problem(E.E_DANGLING_REF, "m", EDITED_FILE, "bad", "1", 11), ("bad", 1, "")),
        (
            Problem(E.E_FIELD, "the good grammar must be a non-empty list", EDITED_FILE, "good", "", 8),
            ("good", None, ""),
        ),
        (Problem(E.E_FIELD, "m", EDITED_FILE, line=1, key="phenomenon"), ("", None, "phenomenon")),
        (Problem(E.E_VOCABULARY, "m", EDITED_FILE, line=4, key="vocabulary"), ("", None, "vocabulary")),
        (Problem(E.E_FIELD, "m", EDITED_FILE, line=6, key="options"), ("", None, "options")),
        (Problem(E.E_FIELD, "m", EDITED_FILE, line=7, key="notes"), ("", None, "extra")),
        (Problem(E.E_SAME_GRAMMARS, "m", EDITED_FILE, line=8, key="good"), ("good", None, "")),
        (Problem(E.E_FIELD, "m", EDITED_FILE, line=1), ("", None, "")),
        (
            Problem(E.E_UNKNOWN_VALUE, "m", EDITED_FILE, "phrase NP, alternative 1", "2 (head)", 3),
            ("", None, ""),
        ),
        (Problem(E.E_SYNTAX, "m", "phrase NP", line=2), ("", None, "")),
    ],
)
def test_shown_problems_places_each_problem(problem: Problem, place: tuple[str, int | None, str]) -> None:
    """The row from a position's grammar and number; the field from the key the engine names."""
    [shown] = shown_problems([problem], table=True)
    assert (shown.grammar, shown.row, shown.field) == place


@pytest.mark.parametrize(
    ("change", "place"),
    [
        (("phenomenon: p\n", ""), "phenomenon"),
        (("uid: x", "uid: x y"), "uid"),
        (("options:\n", "options:\n  speed: 3\n"), "options"),
        (("notes: a note", "colour: red"), "extra"),
        (("  - {direct: b}", "  - {direct: a}"), "bad"),
    ],
)
def test_the_engine_names_the_field_of_each_problem_of_a_text(change: tuple[str, str], place: str) -> None:
    """Checked by the engine, a text's problems come with their field: no message is read."""
    from generator.errors import TemplateError
    from generator.generate import Generator
    from generator.template import template_from_text
    from vocab.lexicon import Vocabulary

    text = TEXT.replace("  max_depth: 0\n", "").replace(*change)
    try:
        Generator(template_from_text(text, file=EDITED_FILE), Vocabulary((), name="animals"))
    except TemplateError as exc:
        problems = exc.problems
    else:
        raise AssertionError("the text has a problem")
    places = {p.field or p.grammar for p in shown_problems(problems, table=True)}
    assert place in places, [(p.code, p.message, p.key) for p in problems]


def test_shown_problems_words_the_place_for_the_table_and_the_yaml_view() -> None:
    problem = Problem(E.E_UNKNOWN_VALUE, "m", EDITED_FILE, "good", "2 (subj)", 9)
    assert shown_problems([problem], table=True)[0].where == "good grammar, position 2 (subj)"
    yaml_view = shown_problems([problem], table=False)[0]
    assert yaml_view.where == "line 9, good grammar, position 2 (subj)" and yaml_view.line == 9
    # A phrase's own problem keeps its name and line: the phrase is not the edited text.
    phrase = shown_problems([Problem(E.E_SYNTAX, "m", "phrase NP", line=2)], table=True)[0]
    assert phrase.where == "phrase NP, line 2" and phrase.line is None
    needs = shown_problems([Problem(E.E_FIELD, "m", EDITED_FILE, line=1, key="uid")], table=True)[0]
    assert needs.place == "Identifier (uid)"


@pytest.mark.django_db
def test_preview_of_a_small_paradigm_shows_all_it_can_make(project: object, animals: object) -> None:
    text = DET_TEMPLATE.replace("{pos: NN, number: pl}", "{pos: NN, number: pl, lemma: cat}").replace(
        "{pos: VB}", "{pos: VB, lemma: [run, sleep]}"
    )
    preview = editor_preview(project=project, source_text=text, seed=0, table=True)  # type: ignore[arg-type]
    assert preview.capacity_text == "4" and len(preview.pairs) == 4
    assert preview.message == "This paradigm can make only 4 different pairs; all of them are shown."


@pytest.mark.django_db
def test_preview_keeps_the_pairs_made_before_the_generator_stopped(
    project: object, animals: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.generate import Generator

    real = Generator.pairs

    def stopping(self: Generator, n: int, seed: int, **kwargs: object):  # type: ignore[no-untyped-def]
        for index, pair in enumerate(real(self, n, seed)):
            if index == 3:
                raise GenerationError(Problem(E.E_SHORTFALL, "too few words"))
            yield pair

    monkeypatch.setattr(Generator, "pairs", stopping)
    preview = editor_preview(project=project, source_text=DET_TEMPLATE, seed=0, table=True)  # type: ignore[arg-type]
    assert len(preview.pairs) == 3 and preview.message == "The generator stopped early: too few words."


@pytest.mark.django_db
def test_restore_refuses_a_uid_another_template_took(project: object, animals: object, owner: object) -> None:
    first = template_save(project=project, source_text=DET_TEMPLATE, user=owner)  # type: ignore[arg-type]
    template_save(
        project=project,  # type: ignore[arg-type]
        source_text=DET_TEMPLATE.replace("uid: det_noun_agreement", "uid: renamed"),
        user=owner,  # type: ignore[arg-type]
        template=first.template,
    )
    template_save(project=project, source_text=DET_TEMPLATE, user=owner)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="already has a template with uid 'det_noun_agreement'"):
        template_version_restore(version=first, user=owner)  # type: ignore[arg-type]
    assert first.template.versions.count() == 2


@pytest.mark.django_db
def test_a_preview_reads_the_template_text_once(
    project: object, animals: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its phrases, the template, its fields and where each problem belongs all come from one
    reading of the YAML (four before: phrase use, template, fields, the problems' lines)."""
    from generator import source

    read: list[str] = []
    real = source._check_depth

    def counted(text: str) -> None:
        read.append(text)
        real(text)

    monkeypatch.setattr(source, "_check_depth", counted)
    broken = DET_TEMPLATE.replace("uid:", "colour: red\nuid:")
    preview = editor_preview(project=project, source_text=broken, seed=0, table=True)  # type: ignore[arg-type]
    assert [p.field for p in preview.problems] == ["extra"]
    assert read.count(broken) == 1
