"""The paradigm page: sign-in required, metadata, escaped YAML, problems, and the pair preview."""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from mpp_studio.paradigms import services
from mpp_studio.paradigms.models import LibraryTemplate

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded_with_problems(library_with_problems: Path) -> Path:
    call_command("load_demo", "--library", str(library_with_problems), stdout=StringIO(), stderr=StringIO())
    return library_with_problems


@pytest.fixture
def signed_in(client: Client) -> Client:
    client.force_login(get_user_model().objects.create_user(username="ling", password="pw"))
    return client


def page(client: Client, uid: str, query: str = "") -> str:
    template = LibraryTemplate.objects.filter(uid=uid).latest("id")
    response = client.get(f"/paradigms/{template.pk}/{query}")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    return response.content.decode()


def pair_rows(html: str) -> list[str]:
    return re.findall(r'<tr class="pair">(.*?)</tr>', html, re.S)


def test_detail_redirects_anonymous_user_to_login(client: Client, loaded_library: Path) -> None:
    template = LibraryTemplate.objects.get(uid="en_sv_agreement")
    response = client.get(f"/paradigms/{template.pk}/")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/paradigms/{template.pk}/"


def test_detail_of_unknown_id_is_404(signed_in: Client) -> None:
    assert signed_in.get("/paradigms/999999/").status_code == 404


def test_detail_shows_metadata_and_escaped_yaml(signed_in: Client, loaded_library: Path) -> None:
    html = page(signed_in, "en_sv_agreement")
    assert "<code>en_sv_agreement</code>" in html
    assert '<span class="badge badge-ok">valid</span>' in html
    assert "subject verb agreement" in html
    assert "BLiMP regular_plural_subject_verb_agreement_1" in html
    assert "16 different pairs" in html
    assert "<code>en/agreement/sv_agreement.yaml</code>" in html
    assert "version 1 of 1" in html
    # The YAML is shown escaped, one numbered line each.
    assert (
        '<span class="line" id="L1"><span class="ln" aria-hidden="true">1</span>uid: en_sv_agreement</span>'
        in html
    )
    assert "{same: &quot;4&quot;}" in html


def test_detail_previews_ten_pairs_with_marked_critical_region(
    signed_in: Client, loaded_library: Path
) -> None:
    html = page(signed_in, "en_sv_agreement")
    rows = pair_rows(html)
    assert len(rows) == 10
    for row in rows:
        good, bad = re.findall(r'<td class="sentence (?:good|bad)" lang="en">(.*?)</td>', row)
        good_mark = re.fullmatch(r'The \w+ <mark title="substitution">(\w+)</mark>\.', good)
        bad_mark = re.fullmatch(r'The \w+ <mark title="substitution">(\w+)</mark>\.', bad)
        assert good_mark and bad_mark and good_mark[1] == bad_mark[1] + "s"
        assert '<td class="edit meta">substitution</td>' in row


def test_detail_seed_changes_the_pairs(signed_in: Client, loaded_library: Path) -> None:
    seed_0 = pair_rows(page(signed_in, "en_sv_agreement"))
    assert pair_rows(page(signed_in, "en_sv_agreement", "?seed=0")) == seed_0
    seed_7 = page(signed_in, "en_sv_agreement", "?seed=7")
    assert 'name="seed" id="id_seed" min="0" value="7"' in seed_7
    assert pair_rows(seed_7) != seed_0


@pytest.mark.parametrize("seed", ["-1", "abc", "1e3"])
def test_detail_rejects_a_bad_seed_with_a_message(signed_in: Client, loaded_library: Path, seed: str) -> None:
    html = page(signed_in, "en_sv_agreement", f"?seed={seed}")
    assert '<p class="error">Seed: ' in html
    assert pair_rows(html) == []


def test_detail_shows_chinese_pairs_with_language(signed_in: Client, loaded_library: Path) -> None:
    html = page(signed_in, "zh_classifier_noun")
    assert '<p class="lead" lang="zh">量词与名词搭配。</p>' in html
    rows = pair_rows(html)
    assert len(rows) == 10
    assert all(
        re.search(r'<td class="sentence good" lang="zh">一<mark title="substitution">\w</mark>\w+</td>', r)
        for r in rows
    )


def test_detail_lists_problems_with_lines_and_no_preview(
    signed_in: Client, loaded_with_problems: Path
) -> None:
    html = page(signed_in, "en_invalid_agreement")
    assert '<span class="badge badge-problem">1 problem</span>' in html
    assert '<span class="code-tag">E_UNKNOWN_VALUE</span>' in html
    assert '<a href="#L8">invalid.yaml, line 8, good grammar, position 2 (subj)</a>' in html
    assert "number: &#x27;dual&#x27; is not one of the declared values (sg, pl)" in html
    assert '<span class="line problem-line" id="L8">' in html
    assert "This paradigm has problems (listed above), so it cannot make pairs yet." in html
    assert pair_rows(html) == []


def test_detail_of_unparseable_yaml_shows_syntax_problem(
    signed_in: Client, loaded_with_problems: Path
) -> None:
    html = page(signed_in, "broken")
    assert '<span class="code-tag">E_SYNTAX</span>' in html
    assert '<a href="#L2">broken.yaml, line 2</a>' in html  # where the [ was opened
    assert "phenomenon: [unclosed" in html


def test_detail_shows_an_engine_failure_as_a_message(
    signed_in: Client, loaded_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(template: LibraryTemplate) -> None:
        raise KeyError("surprise")

    monkeypatch.setattr(services.preview, "template_generator", crash)
    html = page(signed_in, "en_sv_agreement")
    assert "The generator failed unexpectedly (KeyError: &#x27;surprise&#x27;)" in html


def test_detail_links_older_versions(signed_in: Client, loaded_library: Path) -> None:
    path = loaded_library / "en" / "agreement" / "sv_agreement.yaml"
    path.write_text(path.read_text().replace("The verb agrees", "Verbs agree"), encoding="utf-8")
    call_command("load_demo", "--library", str(loaded_library), stdout=StringIO())
    old, _ = LibraryTemplate.objects.filter(uid="en_sv_agreement").order_by("id")
    html = page(signed_in, "en_sv_agreement")
    assert "version 2 of 2" in html
    assert f'<a href="/paradigms/{old.pk}/">' in html
    assert signed_in.get(f"/paradigms/{old.pk}/").status_code == 200
