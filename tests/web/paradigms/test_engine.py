"""The bridge to the generator: stored texts parsed in a sandbox, checks that never raise."""

from pathlib import Path

import pytest

from generator.generate import Generator
from mpp_studio.paradigms import engine
from mpp_studio.paradigms.engine import template_check, template_fields, template_parse
from tests.web.conftest import SV_AGREEMENT_YAML

PHRASES = "NP:\n  - [{direct: the}, {id: head, lexical: {pos: NN}}]\n"


@pytest.mark.parametrize("rel", ["phrases.yaml", "../phrases/np.yaml", "a/../../../b/np.yaml", "./np.yaml"])
def test_template_parse_finds_stored_phrase_files_at_their_relative_paths(rel: str) -> None:
    text = SV_AGREEMENT_YAML + f"phrase_files: [{rel}]\n"
    parsed = template_parse(source_text=text, file_name="en/sv.yaml", phrase_texts={rel: PHRASES})
    assert "NP" in parsed.phrases


def test_template_parse_never_writes_outside_its_sandbox(tmp_path: Path) -> None:
    outside = tmp_path / "np.yaml"
    text = SV_AGREEMENT_YAML + f"phrase_files: [{outside}]\n"
    with pytest.raises(engine.TemplateError) as caught:
        template_parse(source_text=text, file_name="en/sv.yaml", phrase_texts={str(outside): PHRASES})
    assert not outside.exists()
    assert caught.value.problems[0].message == f"phrase file '{outside}' does not exist"


def test_template_fields_reads_metadata_of_a_template_the_engine_rejects() -> None:
    fields = template_fields("uid: x\nlanguage: zh\nvocabulary: ../v.tsv\nexample: {good: 一本书}\nbad: 3\n")
    assert (fields.readable, fields.uid, fields.language, fields.vocabulary, fields.vocabulary_line) == (
        True,
        "x",
        "zh",
        "../v.tsv",
        3,
    )
    assert (fields.example_good, fields.example_bad) == ("一本书", "")
    assert template_fields("a: [").readable is False


def test_template_check_turns_an_engine_failure_into_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(template: object, vocabulary: object, **kwargs: object) -> Generator:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(engine, "generator_build", crash)
    check = template_check(
        source_text=SV_AGREEMENT_YAML, file_name="en/sv.yaml", phrase_texts={}, vocabulary=None
    )
    [problem] = check.problems
    assert problem.code == engine.E_ENGINE
    assert "ZeroDivisionError: division by zero" in problem.message
    assert check.fields.uid == "en_sv_agreement"
