"""The hand-written ZhoBLiMP-like files the importer tests read (no third-party data)."""

from __future__ import annotations

from pathlib import Path

import orjson

from generator.generate import Generator
from generator.importers.zhoblimp import SourceFile, ZhoblimpImport
from generator.template import template_from_text

DATA = Path(__file__).parent / "data" / "zhoblimp"
TEMPLATES = DATA / "templates"
MALFORMED = DATA / "malformed"
VOCAB = DATA / "vocab.tsv"
PHRASES = DATA / "phrases.json"


def source(path: Path) -> SourceFile:
    """Return a file as the importer takes it."""
    return SourceFile(path.name, path.read_bytes())


def template_sources(folder: Path = TEMPLATES) -> list[SourceFile]:
    """Return the template JSON files of a fixture folder, sorted by name."""
    return [source(p) for p in sorted(folder.glob("*.json"))]


def released_jsonl(imported: ZhoblimpImport, uid: str, seed: int, n: int, bad_suffix: str = "") -> bytes:
    """Return a 'released' ZhoBLiMP JSONL file of a UID, made by the imported template itself
    under `seed` (`bad_suffix` appended to each bad sentence: a release the template does not make)."""
    text = next(t.text for t in imported.templates if t.uid == uid)
    template = template_from_text(text, phrase_texts=imported.phrase_texts())
    assert imported.vocabulary is not None
    pairs = Generator(template, imported.vocabulary).pairs(n, seed, as_many_as_possible=True)
    lines = [
        orjson.dumps(
            {
                "UID": uid,
                "phenomenon": "p",
                "sentence_good": p.good,
                "sentence_bad": p.bad + bad_suffix,
                "pairID": i,
            }
        )
        for i, p in enumerate(pairs)
    ]
    return b"\n".join(lines) + b"\n"
