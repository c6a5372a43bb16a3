"""The home page: sign-in required; the newest paradigm versions by language and phenomenon."""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from mpp_studio.paradigms.models import LibraryTemplate
from mpp_studio.paradigms.templatetags.paradigm_text import breakable

pytestmark = pytest.mark.django_db


def home_html(client: Client) -> str:
    """Return the home page without the line-break hints (<wbr>) put into uids and paths."""
    return client.get("/library/").content.decode().replace("<wbr>", "")


def test_home_redirects_anonymous_user_to_login(client: Client) -> None:
    response = client.get("/library/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/library/"


def test_login_page_renders_and_signs_in(client: Client) -> None:
    get_user_model().objects.create_user(username="ling", password="pw-for-tests")
    page = client.get("/accounts/login/")
    assert page.status_code == 200
    assert b"Sign in" in page.content
    assert b"core/site.css" in page.content
    response = client.post("/accounts/login/", {"username": "ling", "password": "pw-for-tests"})
    assert response.status_code == 302 and response["Location"] == "/"


def test_login_page_reports_wrong_password(client: Client) -> None:
    response = client.post("/accounts/login/", {"username": "nobody", "password": "x"})
    assert response.status_code == 200
    assert b"do not match" in response.content


def test_home_lists_paradigms_by_language_and_phenomenon(admin_client: Client, loaded_library: Path) -> None:
    html = home_html(admin_client)
    assert "2 paradigms in 2 languages." in html
    # Phenomenon identifiers are shown as words.
    assert html.index("English") < html.index("subject verb agreement") < html.index("en_sv_agreement")
    assert html.index("Chinese") < html.index("classifiers") < html.index("zh_classifier_noun")
    assert "The verb agrees in number with its subject." in html
    assert "量词与名词搭配。" in html


def test_home_shows_newest_version_and_version_count(admin_client: Client, loaded_library: Path) -> None:
    path = loaded_library / "en" / "agreement" / "sv_agreement.yaml"
    path.write_text(path.read_text().replace("The verb agrees", "Verbs agree"), encoding="utf-8")
    call_command("load_demo", "--library", str(loaded_library), stdout=StringIO())
    html = home_html(admin_client)
    assert "Verbs agree in number with its subject." in html
    assert "The verb agrees" not in html
    assert "2 versions" in html


def test_home_links_staff_to_admin(admin_client: Client, loaded_library: Path) -> None:
    html = home_html(admin_client)
    assert "/admin/paradigms/librarytemplate/" in html
    assert "/admin/lexicon/libraryvocabulary/" in html


def test_home_hides_admin_links_from_non_staff(client: Client, loaded_library: Path) -> None:
    user = get_user_model().objects.create_user(username="ling", password="pw")
    client.force_login(user)
    html = home_html(client)
    assert "en_sv_agreement" in html
    assert "/admin/" not in html


def test_home_explains_empty_library(admin_client: Client) -> None:
    html = home_html(admin_client)
    assert "No paradigms are loaded yet." in html
    assert "load_demo" in html


@pytest.mark.parametrize("url", ["/admin/paradigms/librarytemplate/", "/admin/lexicon/libraryvocabulary/"])
def test_admin_changelists_render(admin_client: Client, loaded_library: Path, url: str) -> None:
    assert admin_client.get(url).status_code == 200


def test_home_shows_example_pair_capacity_and_link(admin_client: Client, loaded_library: Path) -> None:
    html = home_html(admin_client)
    sv = LibraryTemplate.objects.get(uid="en_sv_agreement")
    assert f'<a class="uid" href="/paradigms/{sv.pk}/"><code>en_sv_agreement</code></a>' in html
    assert '<span class="good-sentence">The cat sleeps.</span>' in html
    assert '<span class="bad-sentence">The cat sleep.</span>' in html
    assert re.search(r'<td class="num capacity">\s*16\s*</td>', html)
    assert re.search(r'<td class="num capacity">\s*11\s*</td>', html)
    assert '<td class="example" lang="zh">' in html
    assert "problem" not in html


def test_home_flags_paradigms_with_problems(admin_client: Client, library_with_problems: Path) -> None:
    call_command("load_demo", "--library", str(library_with_problems), stdout=StringIO(), stderr=StringIO())
    html = home_html(admin_client)
    assert "4 paradigms in 3 languages." in html
    assert html.count('<span class="badge badge-problem">1 problem</span>') == 2
    invalid = re.search(r'<tr class="paradigm with-problems">.*?</tr>', html, re.S)
    assert invalid is not None
    # A paradigm with problems has no capacity to show.
    assert re.search(r'<td class="num capacity">\s*<span class="meta">—</span>\s*</td>', invalid[0])
    # The unparseable file is named after its file and listed where its language is not given.
    assert "Language not given" in html and "<code>broken</code>" in html


def test_breakable_escapes_and_allows_breaks_at_joints() -> None:
    assert breakable("en/a_b<x>.yaml") == "en/<wbr>a_<wbr>b&lt;x&gt;.yaml"
