"""`manage.py load_demo`: demo user plus library import, idempotent, versions kept."""

from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from mpp_studio.lexicon.models import Vocabulary
from mpp_studio.paradigms.models import Template

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
    assert Template.objects.count() == 2


def test_load_demo_reports_missing_library_folder(tmp_path: Path) -> None:
    out, err = load_demo("--library", str(tmp_path / "absent"))
    assert "No grammar library folder" in out and err == ""
    assert not Template.objects.exists()


def test_load_demo_imports_vocabularies_and_templates(library_dir: Path) -> None:
    out, err = load_demo("--library", str(library_dir))
    assert err == ""
    assert "2 vocabular" not in out  # counts are per file, not per kind
    assert "4 imported, 0 already up to date, 0 skipped" in out

    en = Vocabulary.objects.get(file_name="vocabularies/en_nouns.csv")
    assert (en.name, en.language) == ("en_nouns", "en")
    assert en.items_text.startswith("id,form,lemma,pos,number\n")
    assert en.schema_text.startswith("language: en\n")
    zh = Vocabulary.objects.get(file_name="vocabularies/zh_nouns.tsv")
    assert (zh.language, zh.schema_text) == ("", "")

    sv = Template.objects.get(uid="en_sv_agreement")
    assert sv.file_name == "en/agreement/sv_agreement.yaml"
    assert (sv.language, sv.phenomenon) == ("en", "subject_verb_agreement")
    assert sv.description == "The verb agrees in number with its subject."
    assert sv.source_text.startswith("uid: en_sv_agreement\n")
    assert sv.vocabulary == en
    assert Template.objects.get(uid="zh_classifier_noun").vocabulary == zh
    # A YAML file without a top-level uid is not a template, and is not reported either.
    assert not Template.objects.filter(file_name="en/notes.yaml").exists()


def test_load_demo_is_idempotent(library_dir: Path) -> None:
    load_demo("--library", str(library_dir))
    out, err = load_demo("--library", str(library_dir))
    assert err == ""
    assert "0 imported, 4 already up to date, 0 skipped" in out
    assert Vocabulary.objects.count() == 2
    assert Template.objects.count() == 2
    assert get_user_model().objects.count() == 1


def test_load_demo_keeps_old_versions_when_files_change(library_dir: Path) -> None:
    load_demo("--library", str(library_dir))
    template_path = library_dir / "en" / "agreement" / "sv_agreement.yaml"
    template_path.write_text(template_path.read_text().replace("version: 1", "version: 2"), encoding="utf-8")
    vocabulary_path = library_dir / "vocabularies" / "zh_nouns.tsv"
    vocabulary_path.write_text(vocabulary_path.read_text() + "z3\t狗\t狗\tN\t条\n", encoding="utf-8")

    out, _ = load_demo("--library", str(library_dir))

    assert "2 imported, 2 already up to date" in out
    versions = Template.objects.filter(file_name="en/agreement/sv_agreement.yaml")
    assert sorted("version: 2" in t.source_text for t in versions) == [False, True]
    zh_versions = Vocabulary.objects.filter(file_name="vocabularies/zh_nouns.tsv")
    assert zh_versions.count() == 2
    assert sorted(v.items_text.count("\n") for v in zh_versions) == [3, 4]


def test_load_demo_schema_change_is_a_new_vocabulary_version(library_dir: Path) -> None:
    load_demo("--library", str(library_dir))
    (library_dir / "vocabularies" / "en_nouns.schema.yaml").write_text("language: en-GB\n")
    load_demo("--library", str(library_dir))
    languages = Vocabulary.objects.filter(file_name="vocabularies/en_nouns.csv").values_list(
        "language", flat=True
    )
    assert sorted(languages) == ["en", "en-GB"]


def test_load_demo_takes_vocabulary_name_from_schema(library_dir: Path) -> None:
    """A schema's `name` names the vocabulary; without one the file stem does."""
    (library_dir / "vocabularies" / "en_nouns.schema.yaml").write_text("name: English nouns\nlanguage: en\n")
    load_demo("--library", str(library_dir))
    names = dict(Vocabulary.objects.values_list("file_name", "name"))
    assert names == {
        "vocabularies/en_nouns.csv": "English nouns",
        "vocabularies/zh_nouns.tsv": "zh_nouns",
    }


def test_load_demo_skips_bad_yaml_with_file_name_and_imports_the_rest(library_dir: Path) -> None:
    (library_dir / "en" / "broken.yaml").write_text("uid: en_broken\nphenomenon: [unclosed\n")
    out, err = load_demo("--library", str(library_dir))
    assert err.startswith("Skipped en/broken.yaml: invalid YAML at line 3")
    assert "4 imported, 0 already up to date, 1 skipped" in out
    assert set(Template.objects.values_list("uid", flat=True)) == {
        "en_sv_agreement",
        "zh_classifier_noun",
    }


def test_load_demo_skips_vocabulary_with_bad_schema_and_its_templates(library_dir: Path) -> None:
    (library_dir / "vocabularies" / "en_nouns.schema.yaml").write_text("features: {number\n")
    out, err = load_demo("--library", str(library_dir))
    lines = err.splitlines()
    assert lines[0].startswith(
        "Skipped vocabularies/en_nouns.csv: invalid schema en_nouns.schema.yaml at line 2"
    )
    assert lines[1] == (
        "Skipped en/agreement/sv_agreement.yaml: "
        "its vocabulary vocabularies/en_nouns.csv was skipped (see above)"
    )
    assert "2 imported, 0 already up to date, 2 skipped" in out


@pytest.mark.parametrize(
    ("template_text", "message"),
    [
        (
            "uid: x\nvocabulary: ../vocabularies/missing.csv\n",
            "vocabulary file '../vocabularies/missing.csv' does not exist",
        ),
        ("uid: x\nvocabulary: ../../outside.csv\n", "is outside the library folder"),
        ("uid: x\nvocabulary: notes.yaml\n", "is not a .csv or .tsv file in vocabularies/"),
        ("uid: ''\n", "'uid' must be a non-empty text value"),
        ("uid: x\nphenomenon: [a, b]\n", "'phenomenon' must be a single text value"),
        (f"uid: {'x' * 201}\n", "uid: Ensure this value has at most 200 characters"),
    ],
)
def test_load_demo_reports_template_problems(library_dir: Path, template_text: str, message: str) -> None:
    (library_dir.parent / "outside.csv").write_text("id,form\n1,a\n")
    (library_dir / "en" / "bad.yaml").write_text(template_text)
    _, err = load_demo("--library", str(library_dir))
    assert err.startswith("Skipped en/bad.yaml: ")
    assert message in err
    assert Template.objects.count() == 2


def test_load_demo_reports_non_utf8_file(library_dir: Path) -> None:
    (library_dir / "vocabularies" / "latin1.csv").write_bytes("id,form\n1,caf\xe9\n".encode("latin-1"))
    _, err = load_demo("--library", str(library_dir))
    assert "Skipped vocabularies/latin1.csv: latin1.csv is not UTF-8 text" in err


def test_load_demo_uses_grammar_library_dir_setting(settings, library_dir: Path) -> None:
    settings.GRAMMAR_LIBRARY_DIR = library_dir
    out, _ = load_demo()
    assert f"Grammar library {library_dir}: 4 imported" in out


def test_load_demo_imports_every_shipped_library_file() -> None:
    """Every file in the repository's templates/ folder imports; none is skipped."""
    _, err = load_demo()
    assert err == "", err
