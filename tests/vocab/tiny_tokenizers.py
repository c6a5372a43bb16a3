"""Tiny tokenizers trained on a few sentences and saved locally (no model hub needed)."""

from __future__ import annotations

from pathlib import Path

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import PreTrainedTokenizerFast

# Every noun appears only after another word, so a byte-level BPE learns "Ġdog" but not "dog".
SENTENCES = [
    "the dog sees the cat .",
    "a dog runs to the cat .",
    "the cats run .",
    "the dogs see a cat .",
    "my dog and my cats sleep .",
] * 10


def build_byte_level_bpe(path: Path) -> Path:
    """Save a GPT-2-style byte-level BPE tokenizer trained on SENTENCES to `path`."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator(SENTENCES, trainer)
    wrapped = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, bos_token="<|endoftext|>", eos_token="<|endoftext|>"
    )
    wrapped.save_pretrained(path)
    return path


def build_wordpiece(path: Path) -> Path:
    """Save a BERT-style WordPiece tokenizer (adds [CLS]/[SEP], has [UNK]) to `path`."""
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    specials = ["[UNK]", "[CLS]", "[SEP]", "[PAD]", "[MASK]"]
    tokenizer.train_from_iterator(
        SENTENCES, trainers.WordPieceTrainer(vocab_size=60, special_tokens=specials)
    )
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)]
    )
    wrapped = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        unk_token="[UNK]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        pad_token="[PAD]",
        mask_token="[MASK]",
    )
    wrapped.save_pretrained(path)
    return path
