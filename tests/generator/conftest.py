"""Engine fixtures: tiny vocabularies built by hand."""

from __future__ import annotations

import pytest

from tests.generator.builders import chinese_vocabulary, english_vocabulary
from vocab.lexicon import Vocabulary


@pytest.fixture()
def en_vocab() -> Vocabulary:
    return english_vocabulary()


@pytest.fixture()
def zh_vocab() -> Vocabulary:
    return chinese_vocabulary()
