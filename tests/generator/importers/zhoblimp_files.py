"""The hand-written ZhoBLiMP-like files the importer tests read (no third-party data)."""

from __future__ import annotations

from pathlib import Path

from generator.importers.zhoblimp import SourceFile

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
