"""Token frequencies of a tokenizer on the platform (SLOR and MORCELA): counted from a text as a
job, or read from a counts file in ZhoBLiMP's layout; stored once per tokenizer; filled into
every recorded pair score of its configurations, and into chunks scored later; SLOR and MORCELA
results equal the engine's on the same numbers; every bad input said in words."""

import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from mpp_studio.evaluation import results
from mpp_studio.evaluation.models import (
    LanguageModel,
    PairKey,
    PairScore,
    ScoringRun,
    SentenceScore,
    TokenFrequencyTable,
)
from mpp_studio.evaluation.services import language_model_create
from mpp_studio.evaluation.services.token_frequencies import (
    token_frequencies_create,
    token_frequencies_delete,
    token_frequencies_make,
)
from mpp_studio.jobs.models import Job
from scoring.linking import parse_linking
from scoring.metrics import PairScores, pair_report
from scoring.token_frequencies import TokenFrequencies, count_token_ids, tokenizer_key
from scoring.torch_support import load_tokenizer
from tests.web.conftest import PASSWORD
from tests.web.datasets.conftest import run_generation
from tests.web.evaluation.conftest import run_chunks

pytestmark = pytest.mark.django_db

TEXT = "The cat sleeps.\nThe dogs bark at the cat.\n\n猫在睡觉。\nA child reads a book.\n" * 20


def upload(text: str = TEXT, name: str = "corpus.txt") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8"))


@pytest.fixture
def scored(make_run: Callable[..., ScoringRun], gpt2_model: LanguageModel) -> ScoringRun:
    """`generated` scored by the tiny GPT-2, every chunk run (no frequencies yet)."""
    run = make_run([gpt2_model])
    run_chunks(run)
    return run


def make_table(
    project: object, model: LanguageModel, file: SimpleUploadedFile, origin: str = "text"
) -> TokenFrequencyTable:
    table = token_frequencies_create(project=project, language_model=model, upload=file, origin=origin)  # type: ignore[arg-type]
    token_frequencies_make(table_id=table.pk)
    table.refresh_from_db()
    return table


def engine_report(run: ScoringRun, frequencies: TokenFrequencies, key: str) -> dict[str, object]:
    """The engine's report of the run's pairs under `key`, from the stored sentences."""
    config = run.configs.get()
    tokenizer = load_tokenizer(config.source)
    linking = parse_linking(key)
    stored = {s.sentence_key: s for s in SentenceScore.objects.filter(config=config)}
    items = []
    for row in PairScore.objects.filter(config=config).select_related("pair__sentence_keys", "paradigm"):
        sides = []
        for sentence_key in (row.pair.sentence_keys.good_key, row.pair.sentence_keys.bad_key):
            sentence = stored[sentence_key]
            unigram = frequencies.log_prob(tokenizer.convert_tokens_to_ids(sentence.data["tokens"]))
            sides.append((linking.score(sentence.lp_sum, sentence.n_tokens, unigram), sentence.n_tokens))
        (good, good_n), (bad, bad_n) = sides
        items.append(
            PairScores(
                str(row.pair_id), row.paradigm.uid, row.paradigm.phenomenon, good, bad, good_n == bad_n
            )
        )
    report = pair_report(items, reduction=linking.key, higher_is_better=True, bootstrap=0)
    return report.to_dict()


def test_a_text_is_counted_with_the_tokenizer_and_fills_every_pair_score(
    project: object, gpt2_model: LanguageModel, scored: ScoringRun, generated: object, tiny_gpt2_folder: Path
) -> None:
    config = scored.configs.get()
    assert PairScore.objects.filter(config=config, good_unigram__isnull=True).count() == 20
    table = make_table(project, gpt2_model, upload())
    assert table.ready and table.job is not None and table.job.status == Job.Status.DONE
    tokenizer = load_tokenizer(str(tiny_gpt2_folder))
    assert table.tokenizer_key == tokenizer_key(tokenizer.get_vocab())
    counts = count_token_ids(
        TEXT.splitlines(), lambda lines: tokenizer(lines, add_special_tokens=False)["input_ids"]
    )
    expected = TokenFrequencies.from_counts(counts, "corpus.txt")
    assert table.frequencies == expected.to_json() and table.n_tokens == sum(counts.values())
    assert "the unigram log-probabilities of 20 pair scores of 1 configuration filled" in table.job.message
    assert not PairScore.objects.filter(config=config, good_unigram__isnull=True).exists()
    # SLOR and MORCELA on the platform equal the engine's on the same stored numbers
    for key in ("slor", "morcela:beta=0.8,gamma=1.5"):
        report = results.pair_report(generated, config, reduction=key)  # type: ignore[arg-type]
        assert report is not None and report.overall.n == 20
        assert report.to_dict() == engine_report(scored, expected, parse_linking(key).key)


def test_a_chunk_scored_later_fills_its_own_pairs(
    project: object,
    gpt2_model: LanguageModel,
    make_run: Callable[..., ScoringRun],
    make_dataset: Callable[..., object],
) -> None:
    first = make_run([gpt2_model])
    run_chunks(first)  # records the configuration's tokenizer key
    make_table(project, gpt2_model, upload())
    later = make_dataset("en", n=6, seed=4, name="Later set")
    run_generation(later)
    later.refresh_from_db()  # type: ignore[attr-defined]
    run = make_run([gpt2_model], [later])
    run_chunks(run)
    rows = PairScore.objects.filter(config=run.configs.get(), paradigm__dataset=later)
    assert rows.count() == 6 and not rows.filter(good_unigram__isnull=True).exists()


def test_frequencies_are_stored_once_per_tokenizer_and_shared(
    project: object, gpt2_model: LanguageModel, tiny_gpt2_folder: Path, scored: ScoringRun
) -> None:
    make_table(project, gpt2_model, upload())
    twin = language_model_create(project=project, name="same tokenizer", source=str(tiny_gpt2_folder))  # type: ignore[arg-type]
    second = make_table(project, twin, upload(name="again.txt"))
    assert not second.ready and second.job is not None and second.job.status == Job.Status.FAILED
    assert "this project has the frequencies of this tokenizer already ('corpus.txt'" in second.job.message
    assert TokenFrequencyTable.objects.filter(tokenizer_key__gt="").count() == 1


def test_a_zhoblimp_counts_file_is_read_and_checked_against_the_tokenizer(
    project: object, gpt2_model: LanguageModel, scored: ScoringRun, generated: object, tiny_gpt2_folder: Path
) -> None:
    size = len(load_tokenizer(str(tiny_gpt2_folder)).get_vocab())
    beyond = make_table(
        project, gpt2_model, upload(json.dumps({"5": 0.5, str(size + 3): 0.5}), "other.json"), "zhoblimp"
    )
    assert beyond.job is not None and beyond.job.status == Job.Status.FAILED
    assert f"lists token id {size + 3}, but the tokenizer of" in beyond.job.message
    token_frequencies_delete(table=beyond)
    bad = make_table(project, gpt2_model, upload('{"5": 2.0}', "bad.json"), "zhoblimp")
    assert bad.job is not None and "token 5 has frequency 2.0" in bad.job.message
    token_frequencies_delete(table=bad)
    counts = {str(i): 1 / size for i in range(size)}
    table = make_table(project, gpt2_model, upload(json.dumps(counts), "unigram.json"), "zhoblimp")
    assert table.ready and table.n_tokens is None
    # every token equally frequent: a sentence's unigram log-prob is its length times ln(1 / size)
    row = PairScore.objects.filter(config=scored.configs.get()).first()
    assert row is not None and row.good_unigram == pytest.approx(row.good_tokens * math.log(1 / size))


def test_bad_requests_are_refused_naming_the_field(
    project: object, tiny_bert_folder: Path, gpt2_model: LanguageModel
) -> None:
    masked = language_model_create(project=project, name="bert", source=str(tiny_bert_folder), kind="masked")  # type: ignore[arg-type]
    with pytest.raises(ValidationError) as caught:
        token_frequencies_create(project=project, language_model=masked, upload=upload(), origin="text")  # type: ignore[arg-type]
    assert "is a Masked LM" in caught.value.message_dict["language_model"][0]
    with pytest.raises(ValidationError) as caught:
        token_frequencies_create(project=project, language_model=gpt2_model, upload=upload(""), origin="text")  # type: ignore[arg-type]
    assert caught.value.message_dict["file"] == ["'corpus.txt' is empty."]
    latin1 = make_table(project, gpt2_model, SimpleUploadedFile("latin1.txt", "ok\ncafé\n".encode("latin-1")))
    assert latin1.job is not None and "'latin1.txt', line 2: not UTF-8 text" in latin1.job.message
    assert not TokenFrequencyTable.objects.filter(tokenizer_key__gt="").exists()


def test_deleting_frequencies_empties_the_unigram_log_probabilities(
    project: object, gpt2_model: LanguageModel, scored: ScoringRun, generated: object
) -> None:
    table = make_table(project, gpt2_model, upload())
    assert token_frequencies_delete(table=table) == 20
    assert results.pair_report(generated, scored.configs.get(), reduction="slor") is None  # type: ignore[arg-type]
    assert results.pair_report(generated, scored.configs.get(), reduction="sum") is not None  # type: ignore[arg-type]


def test_pages_and_api_store_and_list_frequencies(
    project: object,
    editor: object,
    viewer: object,
    gpt2_model: LanguageModel,
    api_client_for: Callable[[object], object],
) -> None:
    client = Client()
    assert client.login(username=editor.username, password=PASSWORD)  # type: ignore[attr-defined]
    page = reverse("evaluation:model_list", args=[project.pk])  # type: ignore[attr-defined]
    response = client.post(
        reverse("evaluation:frequencies_create", args=[project.pk]),  # type: ignore[attr-defined]
        {
            "frequencies-language_model": gpt2_model.pk,
            "frequencies-origin": "text",
            "frequencies-file": upload(),
        },
    )
    assert response.status_code == 302
    table = TokenFrequencyTable.objects.get()
    token_frequencies_make(table_id=table.pk)
    html = client.get(page).content.decode()
    assert 'class="frequency-row" data-file="corpus.txt"' in html and "distinct" in html
    refused = client.post(
        reverse("evaluation:frequencies_create", args=[project.pk]),  # type: ignore[attr-defined]
        {"frequencies-language_model": 999999, "frequencies-origin": "text", "frequencies-file": upload()},
    )
    assert (
        refused.status_code == 400
        and "999999 is not a causal model of this project." in refused.content.decode()
    )
    api = api_client_for(viewer)
    listed = api.get(f"/api/projects/{project.pk}/token-frequencies/").json()  # type: ignore[attr-defined]
    assert [(t["file_name"], t["ready"], t["n_tokens"] > 0) for t in listed] == [("corpus.txt", True, True)]
    writer = api_client_for(editor)
    answer = writer.post(  # type: ignore[attr-defined]
        f"/api/projects/{project.pk}/token-frequencies/",  # type: ignore[attr-defined]
        {"language_model": gpt2_model.pk, "origin": "zhoblimp", "file": upload('{"1": 1.0}', "u.json")},
        format="multipart",
    )
    assert answer.status_code == 202 and answer.json()["job"]["status"] == "queued"
    assert writer.delete(f"/api/projects/{project.pk}/token-frequencies/{table.pk}/").status_code == 204  # type: ignore[attr-defined]
    viewer_client = Client()
    assert viewer_client.login(username=viewer.username, password=PASSWORD)  # type: ignore[attr-defined]
    assert viewer_client.post(reverse("evaluation:frequencies_create", args=[project.pk])).status_code == 403  # type: ignore[attr-defined]


def test_a_job_stopped_while_filling_finishes_when_run_again(
    project: object, gpt2_model: LanguageModel, scored: ScoringRun
) -> None:
    table = make_table(project, gpt2_model, upload())
    config = scored.configs.get()
    rows = PairScore.objects.filter(config=config)
    first = rows.order_by("pk").first()
    assert first is not None
    # the worker died after storing the frequencies and filling part of the rows
    rows.filter(pk__gt=first.pk).update(good_unigram=None, bad_unigram=None)
    Job.objects.filter(pk=table.job_id).update(status=Job.Status.RUNNING)
    # a pair whose sentences are gone is passed over, never stopping the rows after it
    PairKey.objects.filter(pair_id=rows.order_by("pk")[1].pair_id).delete()
    token_frequencies_make(table_id=table.pk)
    table.refresh_from_db()
    assert table.job is not None and table.job.status == Job.Status.DONE
    assert rows.filter(good_unigram__isnull=True).count() == 1
    assert "the unigram log-probabilities of 18 pair scores of 1 configuration filled" in table.job.message


def test_a_task_that_gives_up_fails_the_job_in_words(project: object, gpt2_model: LanguageModel) -> None:
    from mpp_studio.evaluation.services.token_frequencies import token_frequencies_give_up

    table = token_frequencies_create(
        project=project, language_model=gpt2_model, upload=upload(), origin="text"
    )  # type: ignore[arg-type]
    token_frequencies_give_up(
        table_id=table.pk, message="the worker could not finish (TimeLimitExceeded: 21600)."
    )
    table.refresh_from_db()
    assert table.job is not None and table.job.status == Job.Status.FAILED
    assert table.job.message.startswith(
        "The token frequencies could not be made: the worker could not finish"
    )
