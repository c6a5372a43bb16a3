"""Session fixtures: tiny causal and masked LMs saved to temporary folders (built once)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scoring.tiny_models import build_bert, build_gpt2, build_llama_bos


@pytest.fixture(scope="session")
def tiny_gpt2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A GPT-2-style model folder (EOS only, no separate BOS)."""
    return build_gpt2(tmp_path_factory.mktemp("tiny_gpt2"))


@pytest.fixture(scope="session")
def tiny_llama_bos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Llama-style model folder whose tokenizer adds <s> itself."""
    return build_llama_bos(tmp_path_factory.mktemp("tiny_llama_bos"))


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A BERT-style masked LM folder (WordPiece, CJK characters split)."""
    return build_bert(tmp_path_factory.mktemp("tiny_bert"))
