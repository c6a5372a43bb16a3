"""Fixtures for model evaluation: a generated dataset (the datasets app's fixtures), registered
models, a tiny local GPT-2 (built here, never downloaded), and a helper that runs every chunk
of a run in this process as a worker would."""

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.scoring.tiny_models import build_bert, build_gpt2
from tests.web.datasets.conftest import generated, make_dataset, run_generation, templates  # noqa: F401


@pytest.fixture(scope="session")
def tiny_gpt2_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny GPT-2-style model folder (random weights, local tokenizer), built once."""
    return build_gpt2(tmp_path_factory.mktemp("evaluation_gpt2"))


# What the stand-in hub answers: a config.json per model id (none reach the real hub here).
HUB_CONFIGS: dict[str, dict[str, object]] = {
    "gpt2": {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2"},
    "EleutherAI/pythia-70m": {"architectures": ["GPTNeoXForCausalLM"], "model_type": "gpt_neox"},
    "roberta-base": {"architectures": ["RobertaForMaskedLM"], "model_type": "roberta"},
    "prajjwal1/bert-tiny": {"model_type": "bert"},
}


@pytest.fixture(autouse=True)
def stand_in_hub(monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[str, object]]:
    """Registration asks the hub for a hub model's config.json: here a stand-in that knows
    HUB_CONFIGS and answers any other id as the real one does for a model it does not have
    (tests/scoring/test_model_kind.py tests the real lookup)."""
    from mpp_studio.evaluation.services import language_models
    from scoring.model_kind import ModelConfigError

    def hub_config(model_id: str, revision: str = "", **_: object) -> dict[str, object]:
        if model_id not in HUB_CONFIGS:
            raise ModelConfigError(f"the Hugging Face hub has no model '{model_id}' this server may read")
        return HUB_CONFIGS[model_id]

    monkeypatch.setattr(language_models, "hub_config", hub_config)
    return HUB_CONFIGS


@pytest.fixture(scope="session")
def tiny_bert_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny BERT-style masked LM folder, built once."""
    return build_bert(tmp_path_factory.mktemp("evaluation_bert"))


@pytest.fixture
def gpt2_model(project: object, tiny_gpt2_folder: Path, editor: object) -> object:
    """The tiny GPT-2 registered in `project` as a causal model."""
    from mpp_studio.evaluation.services import language_model_create

    return language_model_create(
        project=project,  # type: ignore[arg-type]
        name="tiny-gpt2",
        source=str(tiny_gpt2_folder),
        kind="causal",
        language="en",
        created_by=editor,  # type: ignore[arg-type]
    )


@pytest.fixture
def unigram_en(project: object) -> object:
    """The project's English unigram baseline."""
    from mpp_studio.evaluation.services import language_model_unigram_ensure

    return language_model_unigram_ensure(project=project, language="en")  # type: ignore[arg-type]


def run_chunks(run: object) -> int:
    """Run every chunk of a run in this process, in the order they were queued; return how many."""
    from mpp_studio.evaluation.models import ScoringChunk
    from mpp_studio.evaluation.services import score_chunk

    chunks = list(
        ScoringChunk.objects.filter(run=run)
        .order_by("config_id", "dataset_id", "index")
        .values_list("config_id", "dataset_id", "index")
    )
    for config_id, dataset_id, index in chunks:
        score_chunk(run_id=run.pk, config_id=config_id, dataset_id=dataset_id, chunk_index=index)  # type: ignore[attr-defined]
    return len(chunks)


@pytest.fixture
def make_run(project: object, editor: object, generated: object) -> Callable[..., object]:  # noqa: F811
    """Return a function creating a run (chunks queued, not run) over `generated` by default."""
    from mpp_studio.evaluation.services import run_create

    def make(models: list[object], datasets: list[object] | None = None, **options: object) -> object:
        options.setdefault("chunk_size", 8)
        return run_create(
            project=project,  # type: ignore[arg-type]
            name=str(options.pop("name", "Run")),
            language_models=models,  # type: ignore[arg-type]
            datasets=datasets if datasets is not None else [generated],  # type: ignore[list-item]
            created_by=editor,  # type: ignore[arg-type]
            **options,  # type: ignore[arg-type]
        )

    return make


def store_score(config: object, sentence: object, logprobs: list[float]) -> object:
    """Store a hand-made score of `sentence` (a scoring.Sentence) under `config`: one token per
    value, spread over the text; returns the row. Then record, as the chunk that scored it
    would, every pair of every dataset whose two sentences are now stored (results count
    recorded pairs only)."""
    from mpp_studio.datasets.models import Dataset
    from mpp_studio.evaluation.models import SentenceScore
    from mpp_studio.evaluation.services.pair_scores import pair_scores_record
    from mpp_studio.evaluation.services.sentences import dataset_pairs, pair_keys_store, sentence_key
    from scoring.items import SentenceScore as EngineScore

    text = sentence.text  # type: ignore[attr-defined]
    step = max(1, len(text) // max(1, len(logprobs)))
    spans = [(i * step, min(len(text), (i + 1) * step)) for i in range(len(logprobs))]
    score = EngineScore(text, [text[a:b] for a, b in spans], spans, list(logprobs))
    row = SentenceScore.objects.create(
        config=config,
        sentence_key=sentence_key(sentence),  # type: ignore[arg-type]
        text=text,
        data=score.to_dict(),
        n_tokens=score.n_tokens,
        lp_sum=score.reduce("sum"),
        lp_mean=score.reduce("mean"),
    )
    for dataset in Dataset.objects.all():
        pairs = list(dataset_pairs(dataset))
        pair_keys_store(dataset, pairs)
        pair_scores_record(config, pairs)  # type: ignore[arg-type]
    return row


class FakeScorer:
    """A stand-in scorer whose `score` raises `error` (or scores every character -1.0, counting
    `oom_retries` up by `retries` per call) — for the failure paths real models rarely take."""

    def __init__(self, error: Exception | None = None, retries: int = 0) -> None:
        from scoring.settings import ScorerSettings

        self.settings = ScorerSettings(method="causal")
        self.error = error
        self.retries = retries
        self.oom_retries = 0
        self.calls = 0

    def score(self, sentences: list[object], progress: object = None) -> list[object]:
        from scoring.items import SentenceScore as EngineScore

        self.calls += 1
        if self.error is not None:
            raise self.error
        self.oom_retries += self.retries
        out = []
        for s in sentences:
            text = s.text  # type: ignore[attr-defined]
            spans = [(i, i + 1) for i in range(len(text))]
            out.append(EngineScore(text, list(text), spans, [-1.0] * len(text)))
        return out

    def describe(self) -> dict[str, object]:
        return {"scorer": "fake"}
