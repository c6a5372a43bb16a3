"""The quality report page of a dataset's paradigm: figures, tokenizer setting, permissions."""

from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from mpp_studio.datasets.models import Dataset
from tests.vocab.tiny_tokenizers import build_wordpiece
from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db

EN_UID = "en_sv_agreement"


def client_for(user: object | None) -> Client:
    client = Client()
    if user is not None:
        assert client.login(username=user.username, password=PASSWORD)  # type: ignore[attr-defined]
    return client


def quality_url(dataset: Dataset, uid: str = EN_UID) -> str:
    return reverse("datasets:paradigm_quality", args=(dataset.project_id, dataset.pk, uid))


@pytest.fixture(scope="module")
def wordpiece_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wordpiece(tmp_path_factory.mktemp("wp"))


def test_service_reports_on_the_stored_pairs(generated: Dataset) -> None:
    """The service reads the paradigm's pairs and the engine computes the figures."""
    from mpp_studio.datasets.services.quality import paradigm_quality

    paradigm = generated.paradigms.get(uid=EN_UID)
    quality = paradigm_quality(paradigm=paradigm)
    assert quality.problems == () and quality.pairs_read == quality.pairs_stored == 10
    report = quality.report
    assert report is not None and report.region_from == "template"
    # "The cat sleeps." / "The cat sleep.": one more character, the same words.
    assert report.words.equal_share == 1.0 and report.characters.mean == 1.0
    assert report.frequency is not None and report.frequency.critical_words_good == 10
    assert report.tokenizer is None


def test_pairs_without_the_engine_fields_are_diffed_and_their_language_guessed(generated: Dataset) -> None:
    """Records as an import stores them (sentences only, no language) still get a report."""
    from mpp_studio.datasets.models import Pair
    from mpp_studio.datasets.services.quality import paradigm_quality

    paradigm = generated.paradigms.get(uid="zh_classifier_noun")
    paradigm.language = ""
    paradigm.save(update_fields=["language"])
    for pair in Pair.objects.filter(paradigm=paradigm):
        pair.record = {
            "sentence_good": pair.sentence_good,
            "sentence_bad": pair.sentence_bad,
            "UID": paradigm.uid,
        }
        pair.save(update_fields=["record"])
    quality = paradigm_quality(paradigm=paradigm)
    assert quality.report is not None and quality.report.language == "zh"
    assert quality.report.region_from == "diff" and quality.report.pairs == 10


def test_broken_record_is_a_message_not_an_error(generated: Dataset, viewer: object) -> None:
    from mpp_studio.datasets.models import Pair

    pair = Pair.objects.filter(paradigm__uid=EN_UID, paradigm__dataset=generated).order_by("index").first()
    assert pair is not None
    pair.record = {"sentence_good": "A cat sleeps."}
    pair.save(update_fields=["record"])
    response = client_for(viewer).get(quality_url(generated))
    html = response.content.decode()
    assert response.status_code == 200
    assert (
        f"pair {pair.index}: needs the text fields" in html
        and "could not be computed from these pairs" in html
    )


def test_page_without_a_tokenizer_shows_the_rest(generated: Dataset, viewer: object) -> None:
    html = client_for(viewer).get(quality_url(generated)).content.decode()
    assert f'Quality report: <code class="uid">{EN_UID}</code>' in html
    assert "No tokenizer is configured" in html and "MPP_TOKENIZERS" in html
    assert "Length, good minus bad" in html and "+1.00" in html
    assert "Frequency of the critical words" in html and "Source <strong>wordfreq</strong>" in html
    assert "Sentences that repeat a word" in html and "0 pairs with good = bad" in html
    assert "Vocabulary items that filled the most pairs" in html and "<code>v" in html
    assert "Choose a tokenizer to see out-of-vocabulary rates." in html


def test_page_with_a_configured_tokenizer_shows_token_and_oov_figures(
    generated: Dataset, viewer: object, wordpiece_folder: Path
) -> None:
    with override_settings(MPP_TOKENIZERS={"tiny-wp": str(wordpiece_folder)}):
        html = client_for(viewer).get(quality_url(generated)).content.decode()
    assert '<option value="tiny-wp" selected>tiny-wp</option>' in html
    assert "Tokens (tiny-wp)" in html and "Out of vocabulary (unknown token or split)" in html
    assert "No tokenizer is configured" not in html


def test_unknown_tokenizer_and_frequency_source_are_reported(generated: Dataset, viewer: object) -> None:
    html = (
        client_for(viewer)
        .get(quality_url(generated), {"tokenizer": "nope", "frequency": "tv"})
        .content.decode()
    )
    assert "There is no tokenizer named “nope” in MPP_TOKENIZERS." in html
    assert "Unknown frequency source “tv”; wordfreq is used." in html


def test_written_source_and_chinese_paradigm(generated: Dataset, viewer: object) -> None:
    client = client_for(viewer)
    html = client.get(quality_url(generated), {"frequency": "written"}).content.decode()
    assert "Source <strong>written</strong>" in html
    html = client.get(quality_url(generated, "zh_classifier_noun")).content.decode()
    assert "Source <strong>wordfreq</strong>" in html and "zh_classifier_noun" in html


def test_detail_page_links_each_paradigm_to_its_report(generated: Dataset, viewer: object) -> None:
    url = reverse("datasets:dataset_detail", args=(generated.project_id, generated.pk))
    html = client_for(viewer).get(url).content.decode()
    assert f'href="{quality_url(generated)}">Quality report</a>' in html


@pytest.mark.parametrize(
    ("role", "status"), [("viewer", 200), ("editor", 200), ("owner", 200), ("outsider", 404)]
)
def test_members_read_the_report_and_others_get_404(
    generated: Dataset, role: str, status: int, request: pytest.FixtureRequest
) -> None:
    if role == "outsider":
        request.getfixturevalue("other_project")
    user = request.getfixturevalue(role)
    assert client_for(user).get(quality_url(generated)).status_code == status


def test_anonymous_is_sent_to_sign_in_and_unknown_paradigm_is_404(generated: Dataset, viewer: object) -> None:
    response = client_for(None).get(quality_url(generated))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client_for(viewer).get(quality_url(generated, "no_such_uid")).status_code == 404
    assert client_for(viewer).post(quality_url(generated)).status_code == 405


def test_paradigm_without_pairs_says_so(make_dataset: object, viewer: object) -> None:
    dataset = make_dataset("en")  # type: ignore[operator]
    html = client_for(viewer).get(quality_url(dataset)).content.decode()
    assert "This paradigm has no pairs to report on yet." in html and "0 of 0 stored pairs" in html
