"""Which of a benchmark's paradigm names a template's `source` text cites.

A template names the paradigm it reproduces in its free-text `source` ("BLiMP passive_1 (Warstadt et
al. 2020)", "ZhoBLiMP BA_negation (Liu et al. 2024)"), one citation after another, separated by
semicolons. One rule reads them back for every benchmark: a name counts as a whole word inside a
citation that mentions the benchmark as a word of its own ("ZhoBLiMP" is not a mention of "BLiMP",
and "BLiMP passive_1" in a Chinese template's source does not name ZhoBLiMP's paradigm of that name).
"""

from __future__ import annotations

import re
from collections.abc import Set
from dataclasses import dataclass

_NAME_WORD = re.compile(r"[A-Za-z0-9_]+")


def names_in_source(source: str, benchmark: str, names: Set[str]) -> frozenset[str]:
    """Return the members of `names` that `source` cites as whole words in a citation (a
    semicolon-separated part) that mentions `benchmark` as a word of its own."""
    mention = re.compile(rf"(?<![A-Za-z]){re.escape(benchmark)}(?![A-Za-z])")
    return frozenset(
        word
        for citation in source.split(";")
        if mention.search(citation)
        for word in _NAME_WORD.findall(citation)
        if word in names
    )


@dataclass(frozen=True)
class Benchmark:
    """A released benchmark whose paradigms the library reproduces: its name as sources cite it,
    the paper to credit, the language of its templates, and its paradigms as (name, phenomenon)."""

    name: str
    citation: str
    language: str
    paradigms: tuple[tuple[str, str], ...]

    @property
    def names(self) -> frozenset[str]:
        """Return the benchmark's paradigm names."""
        return frozenset(name for name, _ in self.paradigms)

    def named_in(self, source: str) -> frozenset[str]:
        """Return the benchmark's paradigm names that a template's `source` cites."""
        return names_in_source(source, self.name, self.names)
