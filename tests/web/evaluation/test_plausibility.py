"""The least plausible good sentences of a paradigm, read from stored causal scores: the ranking
(engine order, weakest token, first pair), a constant number of queries, the section its
quality page loads, the choice of configuration, the hint without causal scores, permissions."""

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from mpp_studio.datasets.models import Dataset
from mpp_studio.evaluation.models import LanguageModel, ScoreConfig, ScoringRun
from mpp_studio.evaluation.plausibility import paradigm_plausibility
from mpp_studio.evaluation.services.sentences import PairSentences, dataset_pairs
from scoring.plausibility import PLAUSIBILITY_WARNING
from tests.web.conftest import PASSWORD
from tests.web.evaluation.conftest import store_score

pytestmark = pytest.mark.django_db

EN_UID = "en_sv_agreement"


@pytest.fixture
def hand_config(make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel) -> ScoreConfig:
    """The tiny GPT-2's configuration, in a run of `generated` (never scored: tests store scores)."""
    return make_run([gpt2_model]).configs.get()  # type: ignore[no-any-return]


def client_for(user: object) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)  # type: ignore[attr-defined]
    return client


def plausibility_url(dataset: Dataset, uid: str = EN_UID) -> str:
    return reverse("evaluation:plausibility", args=(dataset.project_id, dataset.pk, uid))


def distinct_goods(dataset: Dataset, uid: str = EN_UID) -> list[PairSentences]:
    """The paradigm's pairs, one per distinct good sentence (the first by index)."""
    seen: dict[str, PairSentences] = {}
    for pair in dataset_pairs(dataset):
        if pair.uid == uid:
            seen.setdefault(pair.good_key, pair)
    return list(seen.values())


def store_goods(config: ScoreConfig, dataset: Dataset) -> tuple[PairSentences, PairSentences]:
    """Store every distinct good sentence of the paradigm with mean -1, but one with mean -4.25
    (a -8.0 token) and one with mean -2; return those two pairs (least plausible first)."""
    goods = distinct_goods(dataset)
    assert len(goods) >= 3
    odd, second = goods[2], goods[0]
    for pair in goods:
        logprobs = [-0.5, -8.0] if pair is odd else [-2.0, -2.0] if pair is second else [-1.0, -1.0]
        store_score(config, pair.good, logprobs)
    return odd, second


def test_paradigm_plausibility_ranks_by_mean_with_the_weakest_token_and_first_pair(
    hand_config: ScoreConfig, generated: Dataset, django_assert_max_num_queries: Callable[..., object]
) -> None:
    """The stored scores are ranked by the engine, in a constant number of queries."""
    odd, second = store_goods(hand_config, generated)
    paradigm = generated.paradigms.get(uid=EN_UID)
    with django_assert_max_num_queries(4):  # type: ignore[operator]
        check = paradigm_plausibility(dataset=generated, paradigm=paradigm)
    assert check.config == hand_config and check.warning == PLAUSIBILITY_WARNING
    first, runner_up = check.rows[:2]
    assert first.sentence.text == odd.good.text and first.pair_id == odd.pair_id
    assert first.sentence.mean_logprob == pytest.approx(-4.25)
    assert (first.sentence.weakest.index, first.sentence.weakest.logprob) == (1, -8.0)
    assert runner_up.sentence.text == second.good.text and runner_up.sentence.mean_logprob == -2.0
    n_goods = len(distinct_goods(generated))
    assert check.n_scored == check.n_sentences == n_goods == len(check.rows)
    assert sum(r.n_pairs for r in check.rows) == 10


def test_page_lists_the_least_plausible_sentence_first_with_the_warning(
    hand_config: ScoreConfig, generated: Dataset, viewer: object
) -> None:
    """The page (no htmx) shows the warning and the sentences in order, each linked to its pair."""
    odd, second = store_goods(hand_config, generated)
    response = client_for(viewer).get(plausibility_url(generated))
    html = response.content.decode()
    assert response.status_code == 200
    assert escape(PLAUSIBILITY_WARNING) in html
    assert html.index(escape(odd.good.text)) < html.index(escape(second.good.text))
    pair_url = reverse("datasets:pair_detail", args=(generated.project_id, generated.pk, odd.pair_id))
    assert f'href="{pair_url}"' in html
    assert "Least plausible good sentences" in html and 'class="crumbs"' in html


def test_htmx_gets_the_section_alone(hand_config: ScoreConfig, generated: Dataset, viewer: object) -> None:
    store_goods(hand_config, generated)
    response = client_for(viewer).get(plausibility_url(generated), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith("<section") and 'class="crumbs"' not in html


def test_quality_page_loads_the_section(generated: Dataset, viewer: object) -> None:
    """The datasets app sits below evaluation: its quality page loads the section by URL."""
    url = reverse("datasets:paradigm_quality", args=(generated.project_id, generated.pk, EN_UID))
    html = client_for(viewer).get(url).content.decode()
    assert f'hx-get="{plausibility_url(generated)}"' in html


def test_config_query_picks_the_configuration_and_an_unknown_one_falls_back(
    hand_config: ScoreConfig,
    make_run: Callable[..., ScoringRun],
    gpt2_model: LanguageModel,
    generated: Dataset,
    viewer: object,
) -> None:
    """Another causal configuration of the dataset is offered; only its own scores are read."""
    odd, _ = store_goods(hand_config, generated)
    other = make_run([gpt2_model], dtype="bfloat16", name="Half").configs.get()
    store_score(other, distinct_goods(generated)[1].good, [-9.0])
    client = client_for(viewer)
    html = client.get(plausibility_url(generated), {"config": other.pk}).content.decode()
    assert f'<option value="{other.pk}" selected>' in html
    assert escape(distinct_goods(generated)[1].good.text) in html
    assert escape(odd.good.text) not in html
    # The first configuration in the dataset's order (model, method, dtype: bfloat16 first).
    first = paradigm_plausibility(dataset=generated, paradigm=generated.paradigms.get(uid=EN_UID)).config
    assert first == other
    for bad in ("", "999999", "x", "9" * 30):
        fallback = client.get(plausibility_url(generated), {"config": bad})
        assert fallback.status_code == 200
        assert f'<option value="{first.pk}" selected>' in fallback.content.decode()


def test_without_causal_scores_the_page_says_how_to_get_them(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel, generated: Dataset, viewer: object
) -> None:
    """A unigram run has no per-token causal scores: it is not offered, the hint is shown."""
    make_run([unigram_en])
    html = client_for(viewer).get(plausibility_url(generated)).content.decode()
    assert "No causal model has scored this dataset yet" in html
    assert reverse("evaluation:run_new", args=(generated.project_id,)) in html
    assert escape(PLAUSIBILITY_WARNING) not in html


def test_outsiders_and_unknown_paradigms_are_refused(
    generated: Dataset, outsider: object, viewer: object
) -> None:
    assert client_for(outsider).get(plausibility_url(generated)).status_code == 404
    assert client_for(viewer).get(plausibility_url(generated, "no_such_uid")).status_code == 404
