"""Tiny language models for tests and benchmarks, built locally with random weights.

Nothing is downloaded: each tokenizer is trained here with the `tokenizers` library on a small
English and Chinese corpus and saved with its model by `save_pretrained`, so `from_pretrained`
on the folder exercises the real loading code. Weights are drawn with a fixed seed and a wide
initialisation, so the next-token distributions are peaked (scores differ clearly between
sentences) rather than almost uniform.
"""

from __future__ import annotations

from pathlib import Path

ENGLISH = [
    "The cat sleeps on the mat.",
    "The cats sleep on the mat.",
    "A dog chases the ball in the park.",
    "The dogs chase a ball in the park.",
    "She has eaten the apple.",
    "She has ate the apple.",
    "The children are reading a book about whales.",
    "The child is reading books about whales.",
    "Which car did the mechanic fix yesterday?",
    "Who did the teacher say that the student saw?",
    "There is a bird on the roof.",
    "There are many birds on the roofs.",
    "The boy who likes the girls is happy.",
    "The boys who like the girl are happy.",
    "Every student wrote an essay about the souvenir.",
    "The traveler lost the souvenir.",
    "He himself fixed the bicycle.",
    "They themselves fixed the bicycles.",
    "The senators do not believe anything.",
    "Only the senator ever believes that.",
    "An old elephant walked to the river.",
    "A young horse ran across the field.",
    "The musicians were playing loudly in the hall.",
    "My sister gave me a present for my birthday.",
    "Unbelievably, the committee approved the proposal.",
]
CHINESE = [
    "我喜欢吃苹果。",
    "他昨天买了三本书。",
    "老师把作业发给了学生。",
    "这只猫在桌子上睡觉。",
    "我们明天去北京看朋友。",
    "她已经看完那部电影了。",
    "小明比小红高。",
    "你吃饭了吗？",
    "那个学生被老师表扬了。",
    "每个人都喜欢这首歌。",
]
CORPUS = ENGLISH + CHINESE


def _save_fast_tokenizer(tokenizer: object, folder: Path, **special: str | None) -> None:
    from transformers import PreTrainedTokenizerFast

    wrapped = PreTrainedTokenizerFast(tokenizer_object=tokenizer, **special)
    wrapped.save_pretrained(folder)


def _byte_level_bpe(vocab_size: int, special_tokens: list[str]) -> object:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=special_tokens,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(CORPUS * 3, trainer=trainer)
    return tokenizer


def build_gpt2(
    folder: Path,
    *,
    n_layer: int = 2,
    n_embd: int = 32,
    n_head: int = 2,
    n_positions: int = 64,
    vocab_size: int = 400,
    seed: int = 0,
    corpus: list[str] | None = None,
) -> Path:
    """Build and save a GPT-2-style causal LM whose tokenizer, like GPT-2's, has no separate BOS
    (only <|endoftext|>, used as EOS); return the folder."""
    import torch
    from tokenizers import pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel

    folder = Path(folder)
    tokenizer = _byte_level_bpe(vocab_size, ["<|endoftext|>"])
    if corpus is not None:  # a benchmark's bigger vocabulary, trained on its own sentences
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size,
            special_tokens=["<|endoftext|>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False,
        )
        tokenizer.train_from_iterator(corpus, trainer=trainer)  # type: ignore[attr-defined]
    _save_fast_tokenizer(tokenizer, folder, eos_token="<|endoftext|>")
    torch.manual_seed(seed)
    config = GPT2Config(
        vocab_size=tokenizer.get_vocab_size(),  # type: ignore[attr-defined]
        n_positions=n_positions,
        n_embd=n_embd,
        n_layer=n_layer,
        n_head=n_head,
        initializer_range=0.3,
        eos_token_id=0,
        bos_token_id=0,
    )
    model = GPT2LMHeadModel(config).eval()
    model.save_pretrained(folder)
    return folder


def build_llama_bos(folder: Path, *, seed: int = 0) -> Path:
    """Build and save a Llama-style causal LM whose tokenizer adds <s> itself (as Llama's does),
    to check that scoring never conditions on a double BOS; return the folder."""
    import torch
    from tokenizers import processors
    from transformers import LlamaConfig, LlamaForCausalLM

    folder = Path(folder)
    tokenizer = _byte_level_bpe(400, ["<s>", "</s>", "<unk>"])
    bos_id = tokenizer.token_to_id("<s>")  # type: ignore[attr-defined]
    tokenizer.post_processor = processors.TemplateProcessing(  # type: ignore[attr-defined]
        single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", bos_id)]
    )
    _save_fast_tokenizer(tokenizer, folder, bos_token="<s>", eos_token="</s>", unk_token="<unk>")
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=tokenizer.get_vocab_size(),  # type: ignore[attr-defined]
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=64,
        initializer_range=0.3,
        bos_token_id=bos_id,
        eos_token_id=tokenizer.token_to_id("</s>"),  # type: ignore[attr-defined]
        tie_word_embeddings=False,
    )
    model = LlamaForCausalLM(config).eval()
    model.save_pretrained(folder)
    return folder


def build_bert(folder: Path, *, seed: int = 0, max_positions: int = 64) -> Path:
    """Build and save a BERT-style masked LM with a WordPiece tokenizer that, like
    bert-base-chinese, splits every CJK character into its own word; return the folder."""
    import torch
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import BertConfig, BertForMaskedLM

    folder = Path(folder)
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(handle_chinese_chars=True, lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(vocab_size=300, special_tokens=specials, show_progress=False)
    tokenizer.train_from_iterator(CORPUS * 3, trainer=trainer)
    cls_id, sep_id = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)],
    )
    _save_fast_tokenizer(
        tokenizer,
        folder,
        pad_token="[PAD]",
        unk_token="[UNK]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
    )
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=tokenizer.get_vocab_size(),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=max_positions,
        initializer_range=0.3,
        pad_token_id=tokenizer.token_to_id("[PAD]"),
    )
    model = BertForMaskedLM(config).eval()
    model.save_pretrained(folder)
    return folder
