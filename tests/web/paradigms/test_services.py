"""LibraryTemplate versions stored with the engine's check, the library import, and the pair preview."""

from pathlib import Path

import pytest
from django.conf import settings

from generator.template import template_from_text
from mpp_studio.lexicon.models import LibraryVocabulary
from mpp_studio.lexicon.services import vocabulary_import
from mpp_studio.paradigms import services
from mpp_studio.paradigms.models import LibraryTemplate
from mpp_studio.paradigms.services import library_import, template_import, template_preview
from tests.web.conftest import EN_NOUNS_CSV, EN_NOUNS_SCHEMA, INVALID_TEMPLATE_YAML, SV_AGREEMENT_YAML

pytestmark = pytest.mark.django_db

EN_PHRASES_YAML = """\
NP:
  - [{direct: the}, {id: head, lexical: {pos: NN, number: sg}}]
"""
PHRASE_TEMPLATE_YAML = """\
uid: en_sv_phrase
phenomenon: subject_verb_agreement
language: en
vocabulary: ../vocabularies/en_nouns.csv
phrase_files: [../phrases/np.yaml]
good:
  - {id: subj, phrase: NP}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
bad:
  - {same: subj}
  - {same: verb, form: VBP}
"""


@pytest.fixture
def en_nouns() -> LibraryVocabulary:
    return vocabulary_import(
        file_name="vocabularies/en_nouns.csv", items_text=EN_NOUNS_CSV, schema_text=EN_NOUNS_SCHEMA
    )[0]


@pytest.fixture
def sv_template(en_nouns: LibraryVocabulary) -> LibraryTemplate:
    return template_import(file_name="en/sv.yaml", source_text=SV_AGREEMENT_YAML, vocabulary=en_nouns)[0]


def test_template_import_records_the_check_of_a_valid_template(sv_template: LibraryTemplate) -> None:
    assert sv_template.problems == []
    assert sv_template.capacity_text == "16"
    assert sv_template.engine_hash == template_from_text(SV_AGREEMENT_YAML).content_hash
    assert (sv_template.uid, sv_template.language, sv_template.phenomenon) == (
        "en_sv_agreement",
        "en",
        "subject_verb_agreement",
    )


def test_template_import_stores_invalid_template_with_located_problems(en_nouns: LibraryVocabulary) -> None:
    template, created = template_import(
        file_name="en/invalid.yaml", source_text=INVALID_TEMPLATE_YAML, vocabulary=en_nouns
    )
    assert created
    template.refresh_from_db()
    assert template.source_text == INVALID_TEMPLATE_YAML
    assert template.uid == "en_invalid_agreement"
    assert template.capacity_text == ""
    [problem] = template.problems
    assert problem == {
        "code": "E_UNKNOWN_VALUE",
        "message": "number: 'dual' is not one of the declared values (sg, pl)",
        "template": "invalid.yaml",
        "grammar": "good",
        "position": "2 (subj)",
        "line": 8,
        "key": "",
    }


def test_template_import_stores_unparseable_yaml_with_syntax_problem(en_nouns: LibraryVocabulary) -> None:
    text = "uid: en_broken\ngood:\n  - {direct: the\n"
    template, created = template_import(file_name="en/broken.yaml", source_text=text, vocabulary=en_nouns)
    assert created and template.source_text == text
    assert template.uid == "broken"  # named after its file: the engine could not read the uid
    # The line of the unclosed `{`, not the end of the text where the reader noticed it.
    assert [(p["code"], p["line"]) for p in template.problems] == [("E_SYNTAX", 3)]
    assert template.engine_hash == ""


def test_template_import_without_vocabulary_says_so(db: None) -> None:
    template, _ = template_import(
        file_name="en/sv.yaml", source_text=SV_AGREEMENT_YAML, vocabulary_problem="it is missing"
    )
    assert [(p["code"], p["message"]) for p in template.problems] == [("E_VOCABULARY", "it is missing")]


def test_template_import_is_idempotent(sv_template: LibraryTemplate, en_nouns: LibraryVocabulary) -> None:
    again, created = template_import(
        file_name="en/sv.yaml", source_text=SV_AGREEMENT_YAML, vocabulary=en_nouns
    )
    assert (again, created) == (sv_template, False)


def test_template_import_new_vocabulary_version_is_a_new_template_version(
    sv_template: LibraryTemplate,
) -> None:
    """The check depends on the vocabulary, so the same text bound to a new vocabulary is new."""
    bigger, _ = vocabulary_import(
        file_name="vocabularies/en_nouns.csv",
        items_text=EN_NOUNS_CSV + "n9,fox,fox,NN,sg\nn10,foxes,fox,NN,pl\n",
        schema_text=EN_NOUNS_SCHEMA,
    )
    newer, created = template_import(file_name="en/sv.yaml", source_text=SV_AGREEMENT_YAML, vocabulary=bigger)
    assert created and newer.pk != sv_template.pk
    assert (sv_template.capacity_text, newer.capacity_text) == ("16", "20")


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def phrase_library(tmp_path: Path) -> Path:
    return write(
        tmp_path / "library",
        {
            "vocabularies/en_nouns.csv": EN_NOUNS_CSV,
            "vocabularies/en_nouns.schema.yaml": EN_NOUNS_SCHEMA,
            "phrases/np.yaml": EN_PHRASES_YAML,
            "en/phrase.yaml": PHRASE_TEMPLATE_YAML,
        },
    )


def test_library_import_stores_phrase_files_and_checks_the_stored_copies(phrase_library: Path) -> None:
    report = library_import(library_dir=phrase_library)
    assert [(r.file_name, r.outcome, r.details) for r in report.results] == [
        ("vocabularies/en_nouns.csv", "created", ()),
        ("en/phrase.yaml", "created", ()),
    ]
    template = LibraryTemplate.objects.get(uid="en_sv_phrase")
    assert template.phrase_texts == {"../phrases/np.yaml": EN_PHRASES_YAML}
    assert (template.problems, template.capacity_text) == ([], "16")

    # The preview reads the stored copy, not the file on disk.
    (phrase_library / "phrases" / "np.yaml").unlink()
    preview = template_preview(template=template, seed=0)
    assert len(preview.pairs) == 10 and preview.message == ""


def test_library_import_new_phrase_file_text_is_a_new_version(phrase_library: Path) -> None:
    library_import(library_dir=phrase_library)
    (phrase_library / "phrases" / "np.yaml").write_text(EN_PHRASES_YAML.replace("sg", "pl"), encoding="utf-8")
    report = library_import(library_dir=phrase_library)
    assert [r.outcome for r in report.results] == ["unchanged", "created"]
    assert LibraryTemplate.objects.filter(uid="en_sv_phrase").count() == 2


def test_library_import_reports_a_missing_phrase_file_by_line(phrase_library: Path) -> None:
    (phrase_library / "phrases" / "np.yaml").unlink()
    library_import(library_dir=phrase_library)
    [problem] = LibraryTemplate.objects.get(uid="en_sv_phrase").problems
    assert (problem["code"], problem["line"]) == ("E_FIELD", 5)
    assert problem["message"] == "phrase file '../phrases/np.yaml' does not exist"


def test_shipped_library_imports_without_problems() -> None:
    """Every file of the shipped library (templates/) imports, and every template is valid."""
    report = library_import(library_dir=Path(settings.GRAMMAR_LIBRARY_DIR))
    assert report.results, "the shipped library is empty"
    trouble = [
        (r.file_name, r.message, r.details) for r in report.results if r.outcome == "skipped" or r.details
    ]
    assert trouble == []
    assert LibraryTemplate.objects.exclude(capacity_text="").count() == LibraryTemplate.objects.count() > 0


def test_template_preview_returns_ten_pairs_with_highlight_spans(sv_template: LibraryTemplate) -> None:
    preview = template_preview(template=sv_template, seed=0)
    assert (preview.seed, preview.message, len(preview.pairs)) == (0, "", 10)
    assert [pair.number for pair in preview.pairs] == list(range(1, 11))
    for pair in preview.pairs:
        assert "".join(segment.text for segment in pair.good_segments) == pair.good
        assert "".join(segment.text for segment in pair.bad_segments) == pair.bad
        [good_mark] = [s for s in pair.good_segments if s.marked]
        [bad_mark] = [s for s in pair.bad_segments if s.marked]
        assert good_mark.labels == bad_mark.labels == ("substitution",)
        assert good_mark.text == bad_mark.text + "s"  # "sleeps" against "sleep"
        assert pair.edits == ("substitution",)


def test_template_preview_is_reproducible_and_depends_on_the_seed(sv_template: LibraryTemplate) -> None:
    def goods(seed: int) -> list[str]:
        return [pair.good for pair in template_preview(template=sv_template, seed=seed).pairs]

    assert goods(0) == goods(0)
    assert goods(0) != goods(1)


def test_template_preview_shows_all_pairs_of_a_small_paradigm(en_nouns: LibraryVocabulary) -> None:
    text = SV_AGREEMENT_YAML.replace("{pos: VB}", "{pos: VB, lemma: sleep}")
    template, _ = template_import(file_name="en/small.yaml", source_text=text, vocabulary=en_nouns)
    preview = template_preview(template=template, seed=3)
    assert len(preview.pairs) == 4
    assert preview.message == "This paradigm can make only 4 different pairs; all of them are shown."


def test_template_preview_of_template_with_problems_explains_instead(en_nouns: LibraryVocabulary) -> None:
    template, _ = template_import(
        file_name="en/invalid.yaml", source_text=INVALID_TEMPLATE_YAML, vocabulary=en_nouns
    )
    preview = template_preview(template=template, seed=0)
    assert preview.pairs == []
    assert "has problems" in preview.message


def test_template_preview_reports_problems_of_an_unchecked_row(en_nouns: LibraryVocabulary) -> None:
    """A row stored before checks were recorded (problems empty) still never raises."""
    row = LibraryTemplate.objects.create(
        uid="old",
        file_name="en/old.yaml",
        content_hash="x",
        source_text=INVALID_TEMPLATE_YAML,
        vocabulary=en_nouns,
    )
    preview = template_preview(template=row, seed=0)
    assert preview.message == "The generator found problems in this paradigm:"
    assert preview.details == (
        "old.yaml, line 8, good grammar, position 2 (subj): number: 'dual' is not one of the declared "
        "values (sg, pl)",
    )


def test_template_preview_reports_an_engine_failure(
    sv_template: LibraryTemplate, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(template: LibraryTemplate) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(services.preview, "template_generator", broken)
    preview = template_preview(template=sv_template, seed=0)
    assert preview.pairs == []
    assert preview.message.startswith("The generator failed unexpectedly (RuntimeError: boom)")
