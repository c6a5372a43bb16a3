"""Masked LM scorers (holistic, PLL, PLL-word-l2r) against a plain one-sentence-at-a-time
reference on tiny local BERT-, RoBERTa- and DistilBERT-style models."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
import torch

from scoring.errors import ModelLoadError, OutOfMemoryError, SentenceTooLongError
from scoring.items import Sentence, SentenceScore, Span
from scoring.masked import MaskedScorer, _head_path
from scoring.registry import load_scorer
from scoring.settings import ScorerSettings
from scoring.words import fallback_word_spans
from tests.scoring.tiny_models import CORPUS, _save_fast_tokenizer

METHODS = ("holistic", "pll", "pll_word_l2r")
TOLERANCE = 1e-4

ZH_TEACHER = "老师把作业发给了学生。"
ZH_TEACHER_WORDS: tuple[Span, ...] = ((0, 2), (2, 3), (3, 5), (5, 7), (7, 8), (8, 10), (10, 11))
MIXED = [
    Sentence("The traveler lost the souvenir."),
    Sentence("The cat sleeps on the mat."),
    Sentence("Unbelievably, the committee approved the proposal."),
    Sentence(ZH_TEACHER, ZH_TEACHER_WORDS),
    Sentence("我喜欢吃苹果。"),
    Sentence("A dog chases the ball in the park."),
    Sentence("你吃饭了吗？"),
    Sentence("Who did the teacher say that the student saw?"),
]


# --------------------------------------------------------------------------------- models


def build_roberta(folder: Path, *, seed: int = 0) -> Path:
    """Build and save a RoBERTa-style masked LM with a byte-level BPE tokenizer (prefix space,
    untrimmed offsets, so a token's span starts at the space before it); return the folder."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import RobertaConfig, RobertaForMaskedLM

    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=350,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(CORPUS * 3, trainer=trainer)
    tokenizer.post_processor = processors.RobertaProcessing(
        ("</s>", tokenizer.token_to_id("</s>")),
        ("<s>", tokenizer.token_to_id("<s>")),
        trim_offsets=False,
        add_prefix_space=True,
    )
    names = dict(
        zip(("bos_token", "pad_token", "eos_token", "unk_token", "mask_token"), specials, strict=True)
    )
    _save_fast_tokenizer(tokenizer, folder, cls_token="<s>", sep_token="</s>", **names)
    torch.manual_seed(seed)
    config = RobertaConfig(
        vocab_size=tokenizer.get_vocab_size(),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=66,  # positions start after the padding index 1: 64 tokens
        type_vocab_size=1,
        initializer_range=0.3,
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
    )
    RobertaForMaskedLM(config).eval().save_pretrained(folder)
    return folder


def build_distilbert(folder: Path, bert: Path, *, seed: int = 0) -> Path:
    """Build and save a DistilBERT masked LM (its head is loose layers, not one module) with the
    tiny BERT's tokenizer; return the folder."""
    from transformers import AutoTokenizer, DistilBertConfig, DistilBertForMaskedLM

    tokenizer = AutoTokenizer.from_pretrained(bert)
    tokenizer.save_pretrained(folder)
    torch.manual_seed(seed)
    config = DistilBertConfig(
        vocab_size=len(tokenizer),
        dim=32,
        n_layers=2,
        n_heads=2,
        hidden_dim=64,
        max_position_embeddings=64,
        initializer_range=0.3,
        pad_token_id=tokenizer.pad_token_id,
    )
    DistilBertForMaskedLM(config).eval().save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def tiny_roberta(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_roberta(tmp_path_factory.mktemp("tiny_roberta"))


@pytest.fixture(scope="module")
def tiny_distilbert(tmp_path_factory: pytest.TempPathFactory, tiny_bert: Path) -> Path:
    return build_distilbert(tmp_path_factory.mktemp("tiny_distilbert"), tiny_bert)


ScorerFactory = Callable[..., MaskedScorer]


@pytest.fixture(scope="module")
def scorer() -> ScorerFactory:
    """Return a cached scorer factory: (model folder, method, dtype, token budget) -> scorer."""
    cache: dict[tuple[str, str, str, int, str], MaskedScorer] = {}

    def make(
        folder: Path, method: str, *, dtype: str = "float32", token_budget: int = 8192, language: str = "en"
    ) -> MaskedScorer:
        key = (str(folder), method, dtype, token_budget, language)
        if key not in cache:
            settings = ScorerSettings(
                method=method,  # type: ignore[arg-type]
                model=str(folder),
                dtype=dtype,  # type: ignore[arg-type]
                token_budget=token_budget,
                language=language,
                device="cpu",
            )
            cache[key] = MaskedScorer(settings)
        return cache[key]

    return make


# --------------------------------------------------------------------------------- reference


def reference(
    folder: Path, method: str, sentences: Sequence[Sentence], language: str = "en"
) -> list[list[float]]:
    """Score each sentence alone, position by position: build the masked copy, run the whole
    model in float32, take torch.log_softmax over the full logits (the definitions, unoptimised)."""
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForMaskedLM.from_pretrained(folder, dtype=torch.float32).eval()
    out: list[list[float]] = []
    for sentence in sentences:
        enc = tokenizer(sentence.text, return_offsets_mapping=True, return_special_tokens_mask=True)
        ids = torch.tensor([enc["input_ids"]])
        if method == "holistic":
            with torch.no_grad():
                logprobs = torch.log_softmax(model(input_ids=ids).logits[0], dim=-1)
            out.append([float(logprobs[j, ids[0, j]]) for j in range(ids.shape[1])])
            continue
        words = sentence.word_spans or fallback_word_spans(sentence.text, language)
        content = [i for i, flag in enumerate(enc["special_tokens_mask"]) if not flag]
        word_of = {i: word_index(enc["offset_mapping"][i], words) for i in content}
        values = []
        for i in content:
            masked = ids.clone()
            masked[0, i] = tokenizer.mask_token_id
            if method == "pll_word_l2r" and word_of[i] is not None:
                for j in content:
                    if j > i and word_of[j] == word_of[i]:
                        masked[0, j] = tokenizer.mask_token_id
            with torch.no_grad():
                logprobs = torch.log_softmax(model(input_ids=masked).logits[0, i], dim=-1)
            values.append(float(logprobs[ids[0, i]]))
        out.append(values)
    return out


def word_index(span: Sequence[int], words: Sequence[Span]) -> int | None:
    """The word holding the first character of `span` that lies in any word."""
    for char in range(span[0], span[1]):
        for index, (start, end) in enumerate(words):
            if start <= char < end:
                return index
    return None


def assert_close(
    got: Sequence[SentenceScore], want: Sequence[Sequence[float]], tol: float = TOLERANCE
) -> None:
    assert len(got) == len(want)
    for score, values in zip(got, want, strict=True):
        assert len(score.logprobs) == len(values), score.text
        assert score.logprobs == pytest.approx(values, abs=tol), score.text


# --------------------------------------------------------------------------------- tests


@pytest.mark.parametrize("method", METHODS)
def test_masked_scorer_matches_reference_bert(tiny_bert: Path, scorer: ScorerFactory, method: str) -> None:
    """Each method equals the one-sentence, full-forward reference within 1e-4 nats (BERT)."""
    got = scorer(tiny_bert, method).score(MIXED)
    assert_close(got, reference(tiny_bert, method, MIXED))


@pytest.mark.parametrize("method", METHODS)
def test_masked_scorer_matches_reference_roberta(
    tiny_roberta: Path, scorer: ScorerFactory, method: str
) -> None:
    """Each method equals the reference on a RoBERTa-style model with byte-level BPE, whose
    token spans start at the space before a word and split CJK characters into bytes."""
    got = scorer(tiny_roberta, method).score(MIXED)
    assert_close(got, reference(tiny_roberta, method, MIXED))
    assert "lm_head" in str(scorer(tiny_roberta, method).describe()["head_path"])


def test_masked_scorer_falls_back_to_full_forward(tiny_distilbert: Path, scorer: ScorerFactory) -> None:
    """A model whose MLM head is not one module runs whole, and still matches the reference."""
    pll = scorer(tiny_distilbert, "pll")
    assert str(pll.describe()["head_path"]).startswith("full forward")
    assert_close(pll.score(MIXED[:4]), reference(tiny_distilbert, "pll", MIXED[:4]))


def test_head_path_rejected_when_probe_disagrees(tiny_bert: Path) -> None:
    """A model whose forward does more than encoder + head fails the load-time probe."""
    from transformers import BertForMaskedLM

    class ScaledLogits(BertForMaskedLM):  # type: ignore[misc]
        def forward(self, *args: object, **kwargs: object) -> object:
            output = super().forward(*args, **kwargs)
            output.logits = output.logits * 2
            return output

    model = ScaledLogits.from_pretrained(tiny_bert).eval()
    name, features, _weight, _bias = _head_path(model)
    assert features is None and "did not reproduce" in name
    plain = BertForMaskedLM.from_pretrained(tiny_bert).eval()
    assert _head_path(plain)[1] is not None


@pytest.mark.parametrize("method", METHODS)
def test_masked_scores_do_not_depend_on_batching(tiny_bert: Path, scorer: ScorerFactory, method: str) -> None:
    """A tiny token budget (one row per pass) and a large one give the same scores, for mixed
    lengths and English with Chinese."""
    sentences = MIXED + [Sentence(text) for text in CORPUS[::3]]
    small = scorer(tiny_bert, method, token_budget=1).score(sentences)
    large = scorer(tiny_bert, method, token_budget=100_000).score(sentences)
    for a, b in zip(small, large, strict=True):
        assert a.tokens == b.tokens
        assert a.logprobs == pytest.approx(b.logprobs, abs=1e-5)


def test_word_l2r_differs_from_pll_exactly_within_multitoken_words(
    tiny_bert: Path, scorer: ScorerFactory
) -> None:
    """A token's l2r score differs from its PLL score iff a later token of its word is masked
    with it; sentences of single-token words score the same under both."""
    sentences = [
        Sentence("The traveler lost the souvenir."),
        Sentence("Unbelievably, the committee approved."),
    ]
    pll = scorer(tiny_bert, "pll").score(sentences)
    l2r = scorer(tiny_bert, "pll_word_l2r").score(sentences)
    n_differ = 0
    for p, w in zip(pll, l2r, strict=True):
        words = [word_index(span, p.word_spans) for span in p.token_spans]
        for i, (a, b) in enumerate(zip(p.logprobs, w.logprobs, strict=True)):
            has_later = any(words[j] == words[i] for j in range(i + 1, len(words)))
            assert (abs(a - b) > 1e-5) == has_later, (p.text, p.tokens[i])
            n_differ += has_later
    assert n_differ >= 5
    single = [
        Sentence("the cat is on the mat ."),
        Sentence("我喜欢吃苹果。", tuple((i, i + 1) for i in range(7))),
    ]
    for p, w in zip(
        scorer(tiny_bert, "pll").score(single), scorer(tiny_bert, "pll_word_l2r").score(single), strict=True
    ):
        assert len(p.tokens) == len(p.word_spans)
        assert w.logprobs == pytest.approx(p.logprobs, abs=1e-6)


def test_chinese_word_l2r_uses_generator_words_then_jieba(tiny_bert: Path, scorer: ScorerFactory) -> None:
    """Chinese: the generator's multi-character words drive l2r masking (the tokenizer's
    word_ids would make every character a word); without them jieba's words do."""
    pll = scorer(tiny_bert, "pll").score([Sentence(ZH_TEACHER)])[0]
    given = scorer(tiny_bert, "pll_word_l2r").score([Sentence(ZH_TEACHER, ZH_TEACHER_WORDS)])[0]
    assert given.tokens == list(ZH_TEACHER)
    assert given.word_spans == list(ZH_TEACHER_WORDS)
    first_chars = {0, 3, 5, 8}  # 老(师) 作(业) 发(给) 学(生)
    for i, (a, b) in enumerate(zip(pll.logprobs, given.logprobs, strict=True)):
        assert (abs(a - b) > 1e-5) == (i in first_chars), ZH_TEACHER[i]
    assert len(given.word_logprobs) == 7
    assert sum(given.word_logprobs) == pytest.approx(given.reduce("sum"), abs=1e-9)
    assert given.word_logprobs[0] == pytest.approx(given.logprobs[0] + given.logprobs[1], abs=1e-9)

    zh = scorer(tiny_bert, "pll_word_l2r", language="zh")
    fallback = zh.score([Sentence(ZH_TEACHER)])[0]
    jieba_spans = fallback_word_spans(ZH_TEACHER, "zh")
    explicit = zh.score([Sentence(ZH_TEACHER, jieba_spans)])[0]
    assert fallback.word_spans == list(jieba_spans)
    assert any(end - start > 1 for start, end in jieba_spans)
    assert fallback.logprobs == pytest.approx(explicit.logprobs, abs=1e-6)
    assert fallback.logprobs != pytest.approx(pll.logprobs, abs=1e-5)


def test_holistic_includes_specials_and_mean_reproduces_babyberta(
    tiny_bert: Path, scorer: ScorerFactory
) -> None:
    """Holistic scores every position with [CLS]/[SEP] (span (0, 0), in no word), and -mean is
    BabyBERTa's cross-entropy: CE per position of a padded batch, averaged over non-pad ones."""
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    scores = scorer(tiny_bert, "holistic").score(MIXED)
    for score in scores:
        assert score.tokens[0] == "[CLS]" and score.tokens[-1] == "[SEP]"
        assert score.token_spans[0] == (0, 0) and score.token_spans[-1] == (0, 0)
        content = sum(score.logprobs[1:-1])
        assert sum(score.word_logprobs) == pytest.approx(content, abs=1e-6)

    # BabyBERTa probing / UnMasked holistic scoring, as written there.
    tokenizer = AutoTokenizer.from_pretrained(tiny_bert)
    model = AutoModelForMaskedLM.from_pretrained(tiny_bert).eval()
    batch = tokenizer([s.text for s in MIXED], padding="longest", return_tensors="pt")
    with torch.no_grad():
        logits = model(**batch).logits
    loss = torch.nn.CrossEntropyLoss(reduction="none")(logits.permute(0, 2, 1), batch["input_ids"])
    babyberta = [
        float(loss_i[mask_i.bool()].mean())
        for loss_i, mask_i in zip(loss, batch["attention_mask"], strict=True)
    ]
    assert [-s.reduce("mean") for s in scores] == pytest.approx(babyberta, abs=TOLERANCE)


@pytest.mark.parametrize("method", METHODS)
def test_bfloat16_agrees_with_float32_decisions(tiny_bert: Path, scorer: ScorerFactory, method: str) -> None:
    """bf16 weights (float32 head projection and normaliser) prefer the same member of each pair
    as float32 wherever float32's margin is not tiny, and stay within a few tenths of a nat."""
    pairs = [(CORPUS[i], CORPUS[i + 1]) for i in range(0, 20, 2)] + [
        (CORPUS[25], CORPUS[26]),
        (CORPUS[27], CORPUS[28]),
    ]
    sentences = [Sentence(text) for pair in pairs for text in pair]
    full = scorer(tiny_bert, method).score(sentences)
    half = scorer(tiny_bert, method, dtype="bfloat16").score(sentences)
    assert scorer(tiny_bert, method, dtype="bfloat16").describe()["dtype"] == "bfloat16"
    compared = 0
    for k in range(len(pairs)):
        margin32 = full[2 * k].reduce("sum") - full[2 * k + 1].reduce("sum")
        margin16 = half[2 * k].reduce("sum") - half[2 * k + 1].reduce("sum")
        if abs(margin32) > 1.0:
            compared += 1
            assert (margin32 > 0) == (margin16 > 0), pairs[k]
    assert compared >= 8
    for a, b in zip(full, half, strict=True):
        assert abs(a.reduce("mean") - b.reduce("mean")) < 0.3, a.text


def test_sentence_too_long_names_it(tiny_bert: Path, scorer: ScorerFactory) -> None:
    """A sentence over the model's 64 positions is refused with its number and text, never cut."""
    long_text = " ".join(["cat"] * 70)
    with pytest.raises(SentenceTooLongError) as error:
        scorer(tiny_bert, "pll").score([Sentence("The cat sleeps."), Sentence(long_text)])
    message = str(error.value)
    assert "sentence 2" in message and "72 tokens" in message and "64" in message and "cat cat" in message
    fits = " ".join(["cat"] * 62)
    assert len(scorer(tiny_bert, "holistic").score([Sentence(fits)])[0].tokens) == 64


def test_roberta_position_limit_excludes_padding_offset(tiny_roberta: Path, scorer: ScorerFactory) -> None:
    """RoBERTa's 66 position embeddings hold 64 tokens (positions start after the padding index)."""
    assert scorer(tiny_roberta, "pll").describe()["max_tokens"] == 64


def test_missing_or_wrong_model_is_a_load_error(tmp_path: Path, tiny_gpt2: Path) -> None:
    """A missing folder, or a model without an MLM head, is a ModelLoadError naming it."""
    missing = tmp_path / "no_such_model"
    with pytest.raises(ModelLoadError, match="no_such_model"):
        MaskedScorer(ScorerSettings(method="pll", model=str(missing), device="cpu"))
    with pytest.raises(ModelLoadError, match=str(tiny_gpt2.name)):
        MaskedScorer(ScorerSettings(method="holistic", model=str(tiny_gpt2), device="cpu"))
    with pytest.raises(ModelLoadError, match="no model"):
        MaskedScorer(ScorerSettings(method="pll", model="", device="cpu"))


def test_out_of_memory_halves_then_gives_up(tiny_bert: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An OOM halves the batch and retries (same scores); one row that does not fit is an
    OutOfMemoryError naming the sentence."""
    settings = ScorerSettings(method="pll", model=str(tiny_bert), device="cpu", token_budget=100_000)
    expected = MaskedScorer(settings).score(MIXED)
    squeezed = MaskedScorer(settings)
    real_forward = squeezed._forward
    sizes: list[int] = []

    def forward(batch: Sequence[object], encoded: Sequence[object]) -> list[list[float]]:
        sizes.append(len(batch))
        if len(batch) > 3:
            raise torch.OutOfMemoryError("CUDA out of memory")
        return real_forward(batch, encoded)  # type: ignore[arg-type]

    monkeypatch.setattr(squeezed, "_forward", forward)
    got = squeezed.score(MIXED)
    assert max(sizes) > 3 and squeezed.oom_retries > 0 and squeezed._oom.budget(100_000) < 100_000
    for a, b in zip(got, expected, strict=True):
        assert a.logprobs == pytest.approx(b.logprobs, abs=1e-5)

    def always(batch: Sequence[object], encoded: Sequence[object]) -> list[list[float]]:
        raise torch.OutOfMemoryError("CUDA out of memory")

    monkeypatch.setattr(squeezed, "_forward", always)
    with pytest.raises(OutOfMemoryError, match="does not fit"):
        squeezed.score(MIXED[:1])


def test_duplicates_progress_and_empty(tiny_bert: Path, scorer: ScorerFactory) -> None:
    """Repeated sentences are scored once and returned in input order; progress counts input
    sentences up to all; an empty sentence has no PLL terms but holistic scores its specials."""
    sentences = [MIXED[0], MIXED[3], MIXED[0], Sentence(""), MIXED[1]]
    seen: list[int] = []
    got = scorer(tiny_bert, "pll", token_budget=64).score(sentences, progress=seen.append)
    assert [s.text for s in got] == [s.text for s in sentences]
    assert got[0].logprobs == got[2].logprobs and got[0] is not got[2]
    assert got[3].logprobs == [] and got[3].reduce("sum") == 0.0
    assert seen == sorted(seen) and seen[-1] == len(sentences) and len(seen) > 1
    assert scorer(tiny_bert, "pll").score([]) == []
    empty = scorer(tiny_bert, "holistic").score([Sentence("")])[0]
    assert empty.tokens == ["[CLS]", "[SEP]"] and empty.word_logprobs == []


def test_load_scorer_and_describe(tiny_bert: Path) -> None:
    """The registry gives a MaskedScorer per method; describe() records what reproduces a result."""
    for method in METHODS:
        loaded = load_scorer(ScorerSettings(method=method, model=str(tiny_bert), device="cpu"))  # type: ignore[arg-type]
        assert isinstance(loaded, MaskedScorer)
        info = loaded.describe()
        assert info["method"] == method and info["model"] == str(tiny_bert)
        assert info["resolved_commit"] is None and info["device"] == "cpu" and info["max_tokens"] == 64
        assert "cls" in str(info["head_path"]) and info["tokenizer_class"]
        assert {"torch", "transformers", "tokenizers", "scoring"} <= set(info["versions"])  # type: ignore[arg-type]
    holistic = load_scorer(ScorerSettings(method="holistic", model=str(tiny_bert), device="cpu")).describe()
    assert "special tokens" in str(holistic["positions_scored"]) and "mean" in str(holistic["reduction_note"])


@pytest.mark.parametrize(("method", "metric"), [("pll", "original"), ("pll_word_l2r", "within_word_l2r")])
def test_pll_agrees_with_minicons(tiny_bert: Path, scorer: ScorerFactory, method: str, metric: str) -> None:
    """On sentences whose whitespace words are the tokenizer's words, both PLL variants give
    minicons' MaskedLMScorer token scores (the anchor implementation)."""
    minicons_scorer = pytest.importorskip("minicons.scorer")
    texts = ["the traveler lost the souvenir", "unbelievably the committee approved the proposal"]
    reference_scorer = minicons_scorer.MaskedLMScorer(str(tiny_bert), "cpu")
    # minicons 0.3.x still calls batch_encode_plus, which transformers 5 tokenizers dropped.
    reference_scorer.tokenizer.batch_encode_plus = reference_scorer.tokenizer.__call__
    expected = reference_scorer.token_score(texts, PLL_metric=metric)
    got = scorer(tiny_bert, method).score([Sentence(text) for text in texts])
    for ours, theirs in zip(got, expected, strict=True):
        assert ours.tokens == [token for token, _ in theirs]
        assert ours.logprobs == pytest.approx([value for _, value in theirs], abs=TOLERANCE)
