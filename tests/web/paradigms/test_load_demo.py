"""`manage.py load_demo`: demo user plus library import, idempotent, versions kept."""

from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from mpp_studio.lexicon.models import LibraryVocabulary
from mpp_studio.paradigms.models import LibraryTemplate
from tests.web.conftest import EN_NOUNS_SCHEMA

pytestmark = pytest.mark.django_db


def load_demo(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("load_demo", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_load_demo_creates_demo_superuser_and_prints_login(tmp_path: Path) -> None:
    out, _ = load_demo("--library", str(tmp_path / "absent"))
    user = get_user_model().objects.get(username="demo")
    assert user.is_superuser and user.is_staff
    assert user.check_password("demo")
    assert "user name 'demo' and password 'demo'" in out


def test_load_demo_leaves_existing_demo_user_alone(tmp_path: Path) -> None:
    get_user_model().objects.create_user(username="demo", password="changed-by-owner")
    out, _ = load_demo("--library", str(tmp_path / "absent"))
    user = get_user_model().objects.get(username="demo")
    assert user.check_password("changed-by-owner") and not user.is_superuser
    assert "already exists" in out and "password 'demo'" not in out


def test_load_demo_no_demo_user_imports_library_only(library_dir: Path) -> None:
    out, _ = load_demo("--no-demo-user", "--library", str(library_dir))
    assert not get_user_model().objects.exists()
    assert "demo" not in out.split("Grammar library")[0]
    assert LibraryTemplate.objects.count() == 2


def test_load_demo_reports_missing_library_folder(tmp_path: Path) -> None:
    out, err = load_demo("--library", str(tmp_path / "absent"))
    assert "No grammar library folder" in out and err == ""
    assert not LibraryTemplate.objects.exists()


def test_load_demo_imports_vocabularies_and_templates(library_dir: Path) -> None:
    out, err = load_demo("--library", str(library_dir))
    assert err == ""
    assert "2 vocabular" not in out  # counts are per file, not per kind
    assert "4 imported, 0 already up to date, 0 skipped" in out

    en = LibraryVocabulary.objects.get(file_name="vocabularies/en_nouns.csv")
    assert (en.name, en.language) == ("en_nouns", "en")
    assert en.items_text.startswith("id,form,lemma,pos,number\n")
    assert en.schema_text.startswith("language: en\n")
    zh = LibraryVocabulary.objects.get(file_name="vocabularies/zh_nouns.tsv")
    assert (zh.language, zh.schema_text) == ("", "")

    sv = LibraryTemplate.objects.get(uid="en_sv_agreement")
    assert sv.file_name == "en/agreement/sv_agreement.yaml"
    assert (sv.language, sv.phenomenon) == ("en", "subject_verb_agreement")
    assert sv.description == "The verb agrees in number with its subject."
    assert sv.source_text.startswith("uid: en_sv_agreement\n")
    assert sv.vocabulary == en
    assert LibraryTemplate.objects.get(uid="zh_classifier_noun").vocabulary == zh
    # Each version records the engine's check against its vocabulary version.
    assert (sv.problems, sv.capacity_text) == ([], "16")
    assert len(sv.engine_hash) == 16
    assert sv.source == "BLiMP regular_plural_subject_verb_agreement_1"
    assert (sv.example_good, sv.example_bad) == ("The cat sleeps.", "The cat sleep.")
    # A YAML file without a top-level uid is not a template, and is not reported either.
    assert not LibraryTemplate.objects.filter(file_name="en/notes.yaml").exists()


def test_load_demo_is_idempotent(library_dir: Path) -> None:
    load_demo("--library", str(library_dir))
    out, err = load_demo("--library", str(library_dir))
    assert err == ""
    assert "0 imported, 4 already up to date, 0 skipped" in out
    assert LibraryVocabulary.objects.count() == 2
    assert LibraryTemplate.objects.count() == 2
    assert get_user_model().objects.count() == 1


def test_load_demo_keeps_old_versions_when_files_change(library_dir: Path) -> None:
    """A changed file is a new version; a template bound to a changed vocabulary is one too."""
    load_demo("--library", str(library_dir))
    template_path = library_dir / "en" / "agreement" / "sv_agreement.yaml"
    template_path.write_text(
        template_path.read_text().replace('version: "1"', 'version: "2"'), encoding="utf-8"
    )
    vocabulary_path = library_dir / "vocabularies" / "zh_nouns.tsv"
    vocabulary_path.write_text(vocabulary_path.read_text() + "z11\t马\t马\tN\t匹\n", encoding="utf-8")

    out, err = load_demo("--library", str(library_dir))

    assert err == ""
    # sv_agreement.yaml, zh_nouns.tsv, and classifier.yaml (same text, new vocabulary version).
    assert "3 imported, 1 already up to date" in out
    versions = LibraryTemplate.objects.filter(file_name="en/agreement/sv_agreement.yaml")
    assert sorted('version: "2"' in t.source_text for t in versions) == [False, True]
    zh_versions = LibraryVocabulary.objects.filter(file_name="vocabularies/zh_nouns.tsv").order_by("id")
    assert [v.items_text.count("\n") for v in zh_versions] == [15, 16]
    old, new = LibraryTemplate.objects.filter(file_name="zh/classifier.yaml").order_by("id")
    assert old.source_text == new.source_text
    assert (old.vocabulary, new.vocabulary) == (zh_versions[0], zh_versions[1])
    assert old.content_hash != new.content_hash


def test_load_demo_schema_change_is_a_new_vocabulary_version(library_dir: Path) -> None:
    load_demo("--library", str(library_dir))
    schema_path = library_dir / "vocabularies" / "en_nouns.schema.yaml"
    schema_path.write_text(EN_NOUNS_SCHEMA.replace("language: en", "language: en-GB"))
    load_demo("--library", str(library_dir))
    languages = LibraryVocabulary.objects.filter(file_name="vocabularies/en_nouns.csv").values_list(
        "language", flat=True
    )
    assert sorted(languages) == ["en", "en-GB"]


def test_load_demo_takes_vocabulary_name_from_schema(library_dir: Path) -> None:
    """A schema's `name` names the vocabulary; without one the file stem does."""
    (library_dir / "vocabularies" / "en_nouns.schema.yaml").write_text(
        "name: English nouns\n" + EN_NOUNS_SCHEMA
    )
    load_demo("--library", str(library_dir))
    names = dict(LibraryVocabulary.objects.values_list("file_name", "name"))
    assert names == {
        "vocabularies/en_nouns.csv": "English nouns",
        "vocabularies/zh_nouns.tsv": "zh_nouns",
    }


def test_load_demo_stores_unparseable_yaml_with_a_syntax_problem(library_dir: Path) -> None:
    """Text that is not YAML is stored anyway, named after its file, with an E_SYNTAX problem."""
    (library_dir / "en" / "broken.yaml").write_text("uid: en_broken\nphenomenon: [unclosed\n")
    out, err = load_demo("--library", str(library_dir))
    assert err.splitlines() == [
        "Imported en/broken.yaml with 1 problem:",
        "  broken.yaml, line 2: this is not valid YAML: the [ opened on line 2 is not closed (the reader "
        "stopped on line 3: did not find expected ',' or ']'); a value that contains : ? , # [ ] or { } "
        "must be put in quotes",
    ]
    assert "5 imported, 0 already up to date, 0 skipped; 1 template with problems" in out
    broken = LibraryTemplate.objects.get(file_name="en/broken.yaml")
    assert broken.uid == "broken"
    assert broken.source_text == "uid: en_broken\nphenomenon: [unclosed\n"
    assert [(p["code"], p["line"]) for p in broken.problems] == [("E_SYNTAX", 2)]
    assert broken.capacity_text == ""


def test_load_demo_skips_rejected_vocabulary_with_row_errors_and_flags_its_templates(
    library_dir: Path,
) -> None:
    """A vocabulary the engine rejects is not stored; its row errors are listed, and its templates
    are stored with a vocabulary problem."""
    (library_dir / "vocabularies" / "en_nouns.csv").write_text(
        "id,form,lemma,pos,number\nn1,cat,cat,NN,sg\nn2,cats,cat,NN,plural\nn3,,dog,NN,sg\n"
    )
    out, err = load_demo("--library", str(library_dir))
    lines = err.splitlines()
    assert lines[:3] == [
        "Skipped vocabularies/en_nouns.csv: the vocabulary has 2 problems; nothing of it was stored",
        "  en_nouns.csv, line 3, column 'number': 'plural' is not one of the declared values (sg, pl)",
        "  en_nouns.csv, line 4, column 'form': the form is empty; every row needs a form "
        "(leave the whole row blank to skip it)",
    ]
    assert lines[3] == "Imported en/agreement/sv_agreement.yaml with 1 problem:"
    assert "vocabularies/en_nouns.csv has problems, so it was not imported" in lines[4]
    assert "3 imported, 0 already up to date, 1 skipped; 1 template with problems" in out
    assert not LibraryVocabulary.objects.filter(file_name="vocabularies/en_nouns.csv").exists()
    sv = LibraryTemplate.objects.get(uid="en_sv_agreement")
    assert sv.vocabulary is None
    assert [(p["code"], p["line"]) for p in sv.problems] == [("E_VOCABULARY", 8)]


def test_load_demo_skips_vocabulary_with_bad_schema(library_dir: Path) -> None:
    (library_dir / "vocabularies" / "en_nouns.schema.yaml").write_text("features: {number\n")
    out, err = load_demo("--library", str(library_dir))
    lines = err.splitlines()
    assert (
        lines[0]
        == "Skipped vocabularies/en_nouns.csv: the vocabulary has 1 problem; nothing of it was stored"
    )
    assert lines[1].startswith("  en_nouns.schema.yaml, line 2: this is not valid YAML")
    assert "3 imported, 0 already up to date, 1 skipped; 1 template with problems" in out


def test_load_demo_names_every_line_that_is_not_utf8(library_dir: Path) -> None:
    (library_dir / "vocabularies" / "zh_nouns.tsv").write_bytes("id\tform\nz1\t书\n".encode("gbk"))
    _, err = load_demo("--library", str(library_dir))
    lines = err.splitlines()
    assert lines[0].startswith("Skipped vocabularies/zh_nouns.tsv: the vocabulary has 1 problem")
    assert lines[1].startswith("  zh_nouns.tsv, line 2: this line is not UTF-8 text")


@pytest.mark.parametrize(
    ("template_text", "message"),
    [
        (
            "uid: x\nvocabulary: ../vocabularies/missing.csv\n",
            "vocabulary file '../vocabularies/missing.csv' does not exist",
        ),
        ("uid: x\nvocabulary: ../../outside.csv\n", "is outside the library folder"),
        ("uid: x\nvocabulary: notes.yaml\n", "is not a .csv or .tsv file in vocabularies/"),
        ("uid: ''\n", "the template needs 'uid'"),
        ("uid: x\nphenomenon: [a, b]\n", "'phenomenon' must be text"),
        (f"uid: {'x' * 201}\n", "'uid' is longer than 200 characters; the platform keeps the first 200"),
    ],
)
def test_load_demo_stores_templates_with_problems(
    library_dir: Path, template_text: str, message: str
) -> None:
    """Nothing an author wrote is lost: a template with problems is stored with them."""
    (library_dir.parent / "outside.csv").write_text("id,form\n1,a\n")
    (library_dir / "en" / "bad.yaml").write_text(template_text)
    _, err = load_demo("--library", str(library_dir))
    assert err.startswith("Imported en/bad.yaml with ")
    assert message in err
    bad = LibraryTemplate.objects.get(file_name="en/bad.yaml")
    assert any(message in problem["message"] for problem in bad.problems)
    assert bad.source_text == template_text
    assert len(bad.uid) <= 200 and bad.uid
    assert LibraryTemplate.objects.count() == 3
