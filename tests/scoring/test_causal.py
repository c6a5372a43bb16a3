"""The causal scorer against a plain one-sentence-at-a-time reference (full forward in float32,
log-softmax over the full logits, one BOS-like token prepended), on tiny local models."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest
import torch

from scoring import ScorerSettings, Sentence, load_scorer
from scoring.causal import CausalScorer
from scoring.errors import ModelLoadError, OutOfMemoryError, ScoringError, SentenceTooLongError
from tests.scoring.tiny_models import CHINESE, ENGLISH

TOL = 1e-4
MIXED = [
    "The cat sleeps on the mat.",
    "我喜欢吃苹果。",
    "Who did the teacher say that the student saw?",
    "A dog chases the ball in the park.",
    "老师把作业发给了学生。",
    "The children are reading a book about whales, and the boys who like the girl are happy.",
    "Hi.",
    "小明比小红高。",
    "The traveler lost the souvenir.",
    "You ate it.",
]
_REFERENCE_MODELS: dict[str, tuple[Any, Any]] = {}


def _reference_model(folder: Path) -> tuple[Any, Any]:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    key = str(folder)
    if key not in _REFERENCE_MODELS:
        tokenizer = AutoTokenizer.from_pretrained(folder)
        model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32).eval()
        _REFERENCE_MODELS[key] = (tokenizer, model)
    return _REFERENCE_MODELS[key]


def reference_logprobs(folder: Path, ids: list[int]) -> list[float]:
    """Log p(ids[i] | ids[:i]) for i >= 1: one sentence alone, full logits, float32."""
    _tokenizer, model = _reference_model(folder)
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([ids])).logits[0].float()
    logprobs = torch.log_softmax(logits, dim=-1)
    return [float(logprobs[i, ids[i + 1]]) for i in range(len(ids) - 1)]


def reference(folder: Path, text: str, *, eos: bool = False) -> list[float]:
    tokenizer, _model = _reference_model(folder)
    start = tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id
    ids = [start, *tokenizer(text, add_special_tokens=False)["input_ids"]]
    if eos:
        ids.append(tokenizer.eos_token_id)
    return reference_logprobs(folder, ids)


def scorer(folder: Path, **options: Any) -> CausalScorer:
    result = load_scorer(ScorerSettings("causal", str(folder), **options))
    assert isinstance(result, CausalScorer)
    return result


def assert_close(got: list[float], expected: list[float], tol: float = TOL) -> None:
    assert len(got) == len(expected)
    gap = max((abs(a - b) for a, b in zip(got, expected, strict=True)), default=0.0)
    assert gap <= tol, f"largest difference {gap:.3g} nats"


@pytest.mark.parametrize("fixture", ["tiny_gpt2", "tiny_llama_bos"])
def test_every_content_token_matches_the_reference(fixture: str, request: pytest.FixtureRequest) -> None:
    folder = request.getfixturevalue(fixture)
    scores = scorer(folder).score([Sentence(text) for text in MIXED])
    tokenizer, _model = _reference_model(folder)
    for text, score in zip(MIXED, scores, strict=True):
        content = tokenizer(text, add_special_tokens=False)["input_ids"]
        assert score.text == text
        assert score.tokens == tokenizer.convert_ids_to_tokens(content)
        assert_close(score.logprobs, reference(folder, text))
        # Every character of the text is covered by the spans, in order (first token scored too).
        assert score.token_spans[0][0] == 0 and score.token_spans[-1][1] == len(text)


def test_llama_style_tokenizer_never_gets_a_double_bos(tiny_llama_bos: Path) -> None:
    tokenizer, _model = _reference_model(tiny_llama_bos)
    text = "The cat sleeps on the mat."
    own = tokenizer(text)["input_ids"]  # the tokenizer adds <s> itself
    assert own[0] == tokenizer.bos_token_id and own.count(tokenizer.bos_token_id) == 1
    active = scorer(tiny_llama_bos)
    (score,) = active.score([Sentence(text)])
    assert "<s>" not in score.tokens
    assert len(score.logprobs) == len(own) - 1
    assert_close(score.logprobs, reference_logprobs(tiny_llama_bos, own))
    described = active.describe()
    assert described["bos_policy"] == "bos" and described["bos_token"] == "<s>"


def test_gpt2_style_tokenizer_conditions_on_eos(tiny_gpt2: Path) -> None:
    described = scorer(tiny_gpt2).describe()
    assert described["bos_policy"] == "eos-as-bos"
    assert described["bos_token"] == "<|endoftext|>"
    assert described["head_path"] == (
        "base model, then the output projection at the scored positions only, once per distinct prefix"
    )
    assert described["resolved_commit"] is None and described["dtype"] == "float32"


@pytest.mark.parametrize("fixture", ["tiny_gpt2", "tiny_llama_bos"])
def test_scores_do_not_depend_on_the_batch(fixture: str, request: pytest.FixtureRequest) -> None:
    folder = request.getfixturevalue(fixture)
    sentences = [Sentence(text) for text in MIXED + ENGLISH + CHINESE]
    small, large = scorer(folder, token_budget=16), scorer(folder, token_budget=4096)
    passes: list[int] = []
    got_small = small.score(sentences, progress=passes.append)
    got_large = large.score(sentences)
    assert len(passes) > 10, "a budget of 16 tokens should need many passes"
    assert passes == sorted(passes) and passes[-1] == len(sentences)
    # On the CPU a pass holds at most 1,024 tokens (faster there); the scores stay the same.
    assert large.describe()["token_budget"] == 1024 and small.describe()["token_budget"] == 16
    for a, b in zip(got_small, got_large, strict=True):
        assert a.tokens == b.tokens
        assert_close(a.logprobs, b.logprobs)


def test_order_and_duplicates_are_kept(tiny_gpt2: Path) -> None:
    active = scorer(tiny_gpt2)
    texts = ["You ate it.", "The cat sleeps on the mat.", "You ate it.", "我喜欢吃苹果。"]
    scores = active.score([Sentence(t) for t in texts])
    assert [s.text for s in scores] == texts
    assert scores[0].logprobs == scores[2].logprobs and scores[0] is not scores[2]
    # The model stays loaded: a second call gives the same numbers. The same batch: a sentence
    # scored alone is padded otherwise, and on some CPUs (AMD EPYC here) the kernels then sum
    # in another order (1.4e-6 nats apart), which the reference test's tolerance covers.
    again = active.score([Sentence(t) for t in texts])
    assert_close(again[1].logprobs, scores[1].logprobs, 1e-6)
    assert_close(active.score([Sentence(texts[1])])[0].logprobs, scores[1].logprobs)


def test_score_eos_scores_the_end_token(tiny_gpt2: Path) -> None:
    text = "The cat sleeps on the mat."
    (plain,) = scorer(tiny_gpt2).score([Sentence(text)])
    active = scorer(tiny_gpt2, score_eos=True)
    (with_eos,) = active.score([Sentence(text)])
    assert with_eos.tokens == [*plain.tokens, "<|endoftext|>"]
    assert with_eos.token_spans[-1] == (len(text), len(text))
    assert_close(with_eos.logprobs, reference(tiny_gpt2, text, eos=True))
    assert_close(with_eos.logprobs[:-1], plain.logprobs)
    assert with_eos.logprobs[-1] < 0
    # EOS lies in no word: the word sums are unchanged.
    assert_close(with_eos.word_logprobs, plain.word_logprobs)
    assert active.describe()["score_eos"] is True


def test_chinese_word_sums_follow_the_generator_spans(tiny_gpt2: Path) -> None:
    text = "我喜欢吃苹果。"
    words = ((0, 1), (1, 3), (3, 4), (4, 6))  # 我 / 喜欢 / 吃 / 苹果, the full stop in no word
    given, fallback = scorer(tiny_gpt2, language="zh").score([Sentence(text, words), Sentence(text)])
    assert given.word_spans == list(words)
    expected = [0.0] * len(words)
    for (start, _end), value in zip(given.token_spans, given.logprobs, strict=True):
        for w, (a, b) in enumerate(words):
            if a <= start < b:
                expected[w] += value
    assert_close(given.word_logprobs, expected, 1e-9)
    # Byte-level BPE splits characters into several tokens; each counts for its character's word.
    assert len(given.tokens) > len(text)
    outside = sum(v for (start, _), v in zip(given.token_spans, given.logprobs, strict=True) if start >= 6)
    assert math.isclose(sum(given.word_logprobs) + outside, sum(given.logprobs), abs_tol=1e-9)
    # Without spans the Chinese fallback (jieba) segments the sentence into several words.
    assert len(fallback.word_spans) > 1 and fallback.logprobs == given.logprobs


def test_bfloat16_agrees_with_float32_on_pair_decisions(tiny_gpt2: Path) -> None:
    pairs = [(ENGLISH[i], ENGLISH[i + 1]) for i in range(0, len(ENGLISH) - 1, 2)]
    pairs += [(CHINESE[i], CHINESE[i + 1]) for i in range(0, len(CHINESE) - 1)]
    pairs += [(a, b) for a, b in zip(MIXED, reversed(MIXED), strict=True) if a != b]
    texts = sorted({t for pair in pairs for t in pair})
    full = dict(zip(texts, scorer(tiny_gpt2).score([Sentence(t) for t in texts]), strict=True))
    half_scorer = scorer(tiny_gpt2, dtype="bfloat16")
    half = dict(zip(texts, half_scorer.score([Sentence(t) for t in texts]), strict=True))
    assert half_scorer.describe()["dtype"] == "bfloat16"
    assert half_scorer.describe()["head_precision"] == "float32"
    # bfloat16 keeps 8 significant bits: each token's log-prob moves by a few hundredths of a nat
    # in this model, so a sentence sum moves by well under 0.05 nats per token.
    for text in texts:
        error = abs(full[text].reduce("sum") - half[text].reduce("sum"))
        assert 0 < error < 0.05 * full[text].n_tokens
    decided = 0
    for good, bad in pairs:
        gap = full[good].reduce("sum") - full[bad].reduce("sum")
        bound = 0.05 * (full[good].n_tokens + full[bad].n_tokens)
        if abs(gap) > bound:
            decided += 1
            assert (half[good].reduce("sum") > half[bad].reduce("sum")) == (gap > 0), (good, bad)
    assert decided >= len(pairs) * 3 // 4


def test_too_long_sentence_is_named_not_truncated(tiny_gpt2: Path) -> None:
    long_text = " ".join(["The cat sleeps on the mat."] * 12)
    with pytest.raises(SentenceTooLongError) as caught:
        scorer(tiny_gpt2).score([Sentence("Hi."), Sentence(long_text)])
    message = str(caught.value)
    assert "sentence 2 " in message and "64 positions" in message and "The cat sleeps" in message
    assert "never truncated" in message


def test_a_sentence_filling_the_context_exactly_is_scored(tiny_gpt2: Path) -> None:
    tokenizer, _model = _reference_model(tiny_gpt2)
    words = ("The cat sleeps on the mat. " * 12).split(" ")
    text = ""
    for word in words:
        longer = (text + " " + word).strip()
        if len(tokenizer(longer, add_special_tokens=False)["input_ids"]) > 63:
            break
        text = longer
    assert len(tokenizer(text, add_special_tokens=False)["input_ids"]) <= 63
    (score,) = scorer(tiny_gpt2).score([Sentence(text)])
    assert_close(score.logprobs, reference(tiny_gpt2, text))


def test_missing_model_is_a_plain_message() -> None:
    with pytest.raises(ModelLoadError) as caught:
        load_scorer(ScorerSettings("causal", "/nonexistent/models/gpt-x"))
    assert str(caught.value) == (
        "causal language model '/nonexistent/models/gpt-x' could not be loaded: no such folder "
        "(and it is not a Hugging Face id, which reads 'name' or 'owner/name')"
    )


def test_folder_without_a_model_is_a_plain_message(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match=r"has no config\.json"):
        load_scorer(ScorerSettings("causal", str(tmp_path)))


def test_tokenizer_without_bos_or_eos_is_refused(tiny_gpt2: Path, tmp_path: Path) -> None:
    folder = tmp_path / "no_specials"
    shutil.copytree(tiny_gpt2, folder)
    config_path = folder / "tokenizer_config.json"
    config = json.loads(config_path.read_text())
    config.pop("eos_token", None)
    config.pop("bos_token", None)
    config_path.write_text(json.dumps(config))
    with pytest.raises(ModelLoadError, match="neither a BOS nor an EOS"):
        scorer(folder)


def test_wrong_method_is_refused(tiny_gpt2: Path) -> None:
    with pytest.raises(ScoringError, match="not 'pll'"):
        CausalScorer(ScorerSettings("pll", str(tiny_gpt2)))


def test_out_of_memory_halves_the_batch(tiny_gpt2: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sentences = [Sentence(text) for text in ENGLISH]
    expected = scorer(tiny_gpt2).score(sentences)
    active = scorer(tiny_gpt2)
    real_forward = active._forward

    def small_memory(rows: Any) -> list[list[float]]:
        if len(rows) > 3:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real_forward(rows)

    monkeypatch.setattr(active, "_forward", small_memory)
    got = active.score(sentences)
    assert active.oom_retries >= 2
    for a, b in zip(got, expected, strict=True):
        assert_close(a.logprobs, b.logprobs)

    def no_memory(rows: Any) -> list[list[float]]:
        raise RuntimeError("DefaultCPUAllocator: can't allocate memory: you tried to allocate 9 bytes")

    monkeypatch.setattr(active, "_forward", no_memory)
    with pytest.raises(OutOfMemoryError, match="does not fit in the memory of cpu"):
        active.score(sentences[:2])


def test_other_errors_are_not_taken_for_out_of_memory(
    tiny_gpt2: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    active = scorer(tiny_gpt2)

    def broken(rows: Any) -> list[list[float]]:
        raise RuntimeError("shape mismatch")

    monkeypatch.setattr(active, "_forward", broken)
    with pytest.raises(RuntimeError, match="shape mismatch"):
        active.score([Sentence("Hi.")])
    assert active.oom_retries == 0


def test_logit_softcapping_falls_back_to_the_full_forward(tiny_llama_bos: Path, tmp_path: Path) -> None:
    from transformers import Gemma2Config, Gemma2ForCausalLM

    tokenizer, _model = _reference_model(tiny_llama_bos)
    folder = tmp_path / "softcapped"
    torch.manual_seed(0)
    config = Gemma2Config(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        head_dim=16,
        max_position_embeddings=64,
        initializer_range=0.3,
        final_logit_softcapping=3.0,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.eos_token_id,
    )
    Gemma2ForCausalLM(config).eval().save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    active = scorer(folder)
    assert str(active.describe()["head_path"]).startswith("full forward, then gather")
    assert "transforms its logits" in str(active.describe()["head_path"])
    texts = MIXED[:5]
    for text, score in zip(texts, active.score([Sentence(t) for t in texts]), strict=True):
        assert_close(score.logprobs, reference(folder, text))


def test_bfloat16_head_in_the_model_dtype_stays_close(tiny_gpt2: Path) -> None:
    from scoring.torch_support import float32_output_matmul_works

    texts = ENGLISH[:8]
    full = scorer(tiny_gpt2).score([Sentence(t) for t in texts])
    active = CausalScorer(ScorerSettings("causal", str(tiny_gpt2), dtype="bfloat16"), head_precision="model")
    assert active.describe()["head_precision"] == "bfloat16, logits widened"
    for a, b in zip(full, active.score([Sentence(t) for t in texts]), strict=True):
        assert abs(a.reduce("sum") - b.reduce("sum")) < 0.05 * a.n_tokens
    # The CPU has no matmul that returns float32 from bfloat16 inputs: the head widens instead.
    assert not float32_output_matmul_works(torch.device("cpu"), torch.bfloat16)


@pytest.mark.parametrize("budget", [16, 4096])
def test_shared_prefixes_go_through_the_head_once(
    tiny_gpt2: Path, budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [
        "The cat sleeps on the mat.",
        "The cat sleep on the mat.",
        "The cat",
        "The cat sleeps on the mat. The dog",
        "我喜欢吃苹果。",
        "我喜欢吃香蕉。",
    ]
    tokenizer, _model = _reference_model(tiny_gpt2)
    start = tokenizer.eos_token_id
    ids = [(start, *tokenizer(t, add_special_tokens=False)["input_ids"]) for t in texts]
    distinct = {i[: k + 1] for i in ids for k in range(1, len(i))}
    active = scorer(tiny_gpt2, token_budget=budget)
    real_forward = active._forward
    requested: list[int] = []

    def counting(rows: Any) -> list[list[float]]:
        requested.extend(len(positions) for _ids, positions in rows)
        return real_forward(rows)

    monkeypatch.setattr(active, "_forward", counting)
    scores = active.score([Sentence(t) for t in texts])
    assert sum(requested) == len(distinct) < sum(len(i) - 1 for i in ids)
    for text, score in zip(texts, scores, strict=True):
        assert_close(score.logprobs, reference(tiny_gpt2, text))
    # The shared prefix ("The cat") has the very same numbers in every sentence it opens.
    shared = len(tokenizer("The cat", add_special_tokens=False)["input_ids"])
    assert scores[0].logprobs[:shared] == scores[1].logprobs[:shared] == scores[2].logprobs
    assert scores[3].logprobs[: len(scores[0].logprobs)] == scores[0].logprobs


def test_load_failures_are_told_in_words() -> None:
    from scoring.torch_support import load_failure_reason

    # Stand-ins with the hub's class names (the real ones need an HTTP response to be built).
    class RevisionNotFoundError(OSError):
        pass

    class RepositoryNotFoundError(OSError):
        pass

    hub = ScorerSettings("causal", "someone/some-model", revision="v9")
    offline = OSError(
        "We couldn't connect to 'https://huggingface.co' to load the files, and couldn't find them"
    )
    assert load_failure_reason(offline, hub) == (
        "no such folder here, it is not in the local model cache, and no model hub is reachable"
    )
    assert "no revision 'v9'" in load_failure_reason(RevisionNotFoundError("Invalid rev id: v9"), hub)
    missing = RepositoryNotFoundError("404 Client Error. Repository Not Found for url")
    assert "no such model on the Hugging Face hub" in load_failure_reason(missing, hub)
    assert load_failure_reason(ValueError("bad config"), hub) == "bad config (ValueError)"
