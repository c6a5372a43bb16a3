"""The template library shipped in templates/: every paradigm validates, reaches its target
count with a fixed seed, and marks exactly the words where its good and bad sentences differ;
together the templates exercise every rule type of the template format."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path

import pytest

from generator.generate import Generator, Pair
from generator.library import VocabularyCache, find_templates, load_with_vocabulary
from generator.template import Deletion, Direct, Lexical, PhraseRef, Position, Reference, Template
from generator.validate import validate

REPO_ROOT = Path(__file__).resolve().parents[2]
LIBRARY = REPO_ROOT / "templates"
TARGET = {"en": 1000, "zh": 300}  # BLiMP-size for English, ZhoBLiMP-size for Chinese
SEED = 0

TEMPLATE_FILES = find_templates([LIBRARY])
_CACHE = VocabularyCache()


def _name(path: Path) -> str:
    return str(path.relative_to(LIBRARY))


@cache
def _generator(path: Path) -> Generator:
    template, vocabulary = load_with_vocabulary(path, _CACHE)
    return Generator(template, vocabulary)


@cache
def _pairs(path: Path) -> tuple[Pair, ...]:
    generator = _generator(path)
    return tuple(generator.pairs(TARGET[generator.template.language], SEED))


def test_library_has_english_and_chinese_templates() -> None:
    languages = [_generator(p).template.language for p in TEMPLATE_FILES]
    assert languages.count("en") >= 3
    assert languages.count("zh") >= 3


def test_uids_are_unique() -> None:
    uids = [_generator(p).template.uid for p in TEMPLATE_FILES]
    assert len(uids) == len(set(uids))


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=_name)
def test_template_validates_without_problems(path: Path) -> None:
    template, vocabulary = load_with_vocabulary(path, _CACHE)
    _, problems = validate(template, vocabulary)
    assert problems == []
    for field in ("uid", "phenomenon", "language", "description", "source", "vocabulary"):
        assert getattr(template, field), f"{path.name} has no '{field}'"
    assert set(template.example) == {"good", "bad"}
    assert template.example["good"] != template.example["bad"]
    assert template.language in TARGET


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=_name)
def test_capacity_covers_target(path: Path) -> None:
    generator = _generator(path)
    capacity = generator.capacity()
    assert capacity.count >= TARGET[generator.template.language], capacity.describe()


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=_name)
def test_generates_target_count_of_distinct_pairs(path: Path) -> None:
    generator = _generator(path)
    pairs = _pairs(path)
    assert len(pairs) == TARGET[generator.template.language]
    assert all(pair.good != pair.bad for pair in pairs)
    assert len({pair.good for pair in pairs}) == len(pairs)  # unique: good (the default)
    record = generator.record(pairs[0], SEED)
    assert record["UID"] == generator.template.uid
    assert record["sentence_good"] == pairs[0].good


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=_name)
def test_generation_is_reproducible(path: Path) -> None:
    generator = _generator(path)
    again = list(generator.pairs(20, SEED))
    assert [(p.good, p.bad) for p in again] == [(p.good, p.bad) for p in _pairs(path)[:20]]


def _fold(words: Sequence[str]) -> list[str]:
    # Only the first word of an English sentence is capitalised; a moved or copied word
    # keeps its spelling otherwise.
    return [w.casefold() for w in words]


def _difference_window(good: Sequence[str], bad: Sequence[str]) -> tuple[tuple[int, int], tuple[int, int]]:
    """Return the token spans left in each sentence once the common prefix and suffix go."""
    prefix = 0
    while prefix < min(len(good), len(bad)) and good[prefix] == bad[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(good), len(bad)) - prefix
        and good[len(good) - 1 - suffix] == bad[len(bad) - 1 - suffix]
    ):
        suffix += 1
    return (prefix, len(good) - suffix), (prefix, len(bad) - suffix)


def _check_region(pair: Pair) -> None:
    good, bad = _fold(pair.words_good), _fold(pair.words_bad)
    assert pair.critical_region, f"no critical region: {pair.good} / {pair.bad}"
    window_good, window_bad = _difference_window(good, bad)
    for edit, g, b, source in pair.critical_region:
        (g0, g1), (b0, b1) = g.tokens, b.tokens
        assert 0 <= g0 <= g1 <= len(good) and 0 <= b0 <= b1 <= len(bad)
        if edit.type == "move":
            assert source is not None and source.tokens == g.tokens
            assert good[g0:g1] == bad[b0:b1] and g1 > g0, "a move carries the same words"
            if len(pair.critical_region) == 1:  # with other edits (a swap is two moves) more changes
                assert good[:g0] + good[g1:] == bad[:b0] + bad[b1:], "nothing else changes"
        elif edit.type == "copy":
            assert source is not None and g0 == g1 and b1 > b0
            s0, s1 = source.tokens
            assert bad[b0:b1] == good[s0:s1], "a copy repeats the source words"
        elif edit.type == "deletion":
            assert b0 == b1 and g1 > g0
        elif edit.type == "insertion":
            assert g0 == g1 and b1 > b0
        else:
            assert edit.type == "substitution"
            assert good[g0:g1] != bad[b0:b1]
    if len(pair.critical_region) == 1:
        edit, g, b, _ = pair.critical_region[0]
        if edit.type == "move":
            # The words between the old and the new place shift, so the difference runs
            # from the first to the last of the two places.
            spans = sorted([g.tokens, b.tokens])
            covered = (spans[0][0], max(spans[0][1], spans[1][1]))
            assert covered == window_good == window_bad, (pair.good, pair.bad)
        else:
            # The marked spans are exactly where the word sequences differ.
            assert (g.tokens, b.tokens) == (window_good, window_bad), (pair.good, pair.bad)
            (g0, g1), (b0, b1) = g.tokens, b.tokens
            assert good[:g0] == bad[:b0] and good[g1:] == bad[b1:]
    else:
        starts = [e[1].tokens[0] for e in pair.critical_region]
        ends = [e[1].tokens[1] for e in pair.critical_region]
        assert min(starts) <= window_good[0] and max(ends) >= window_good[1]


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=_name)
def test_critical_region_is_where_the_sentences_differ(path: Path) -> None:
    for pair in _pairs(path):
        _check_region(pair)


# -- coverage of the template format -----------------------------------------------------


def _phrase_positions(template: Template, name: str, seen: set[str]) -> Iterator[Position]:
    if name in seen or name not in template.phrases:
        return
    seen.add(name)
    for alternative in template.phrases[name].alternatives:
        for position in alternative:
            yield position
            if isinstance(position.rule, PhraseRef):
                yield from _phrase_positions(template, position.rule.name, seen)


def _used_positions(template: Template) -> Iterator[Position]:
    """Every position of both grammars and of the phrases they reach."""
    seen: set[str] = set()
    for position in (*template.good, *template.bad):
        yield position
        if isinstance(position.rule, PhraseRef):
            yield from _phrase_positions(template, position.rule.name, seen)


def _reaches(template: Template, start: str, target: str, seen: set[str] | None = None) -> bool:
    seen = set() if seen is None else seen
    for alternative in template.phrases[start].alternatives:
        for position in alternative:
            if isinstance(position.rule, PhraseRef):
                name = position.rule.name
                if name == target:
                    return True
                if name not in seen and name in template.phrases:
                    seen.add(name)
                    if _reaches(template, name, target, seen):
                        return True
    return False


def _rule_kinds(template: Template) -> set[str]:
    kinds: set[str] = set()
    used_phrases: set[str] = set()
    for position in _used_positions(template):
        rule = position.rule
        if isinstance(rule, Lexical):
            kinds.add(rule.kind)  # lexical / matched / mismatched
            if rule.form:
                kinds.add("lexical with form")
            if any(c.agree for c in rule.constraints):
                kinds.add("matched")
            if any(not c.agree for c in rule.constraints):
                kinds.add("mismatched")
        elif isinstance(rule, Direct):
            kinds.add("direct")
            if len(rule.options) > 1:
                kinds.add("direct with several options")
        elif isinstance(rule, PhraseRef):
            kinds.add("phrase")
            used_phrases.add(rule.name)
            if rule.where:
                kinds.add("phrase with where")
        elif isinstance(rule, Reference):
            kinds.add(rule.mode)
            if rule.form:
                kinds.add(f"{rule.mode} with form")
        elif isinstance(rule, Deletion):
            kinds.add("delete")
    if any(_reaches(template, name, name) for name in used_phrases if name in template.phrases):
        kinds.add("recursive phrase")
    return kinds


def test_library_covers_every_rule_type() -> None:
    kinds: set[str] = set()
    for path in TEMPLATE_FILES:
        kinds |= _rule_kinds(_generator(path).template)
    expected = {
        "lexical",
        "lexical with form",
        "direct",
        "direct with several options",
        "matched",
        "mismatched",
        "phrase",
        "phrase with where",
        "recursive phrase",
        "same",
        "same with form",
        "copy",
        "move",
        "delete",
    }
    assert expected <= kinds, f"not covered: {sorted(expected - kinds)}"


def test_library_has_a_paradigm_that_moves_words() -> None:
    moving = [
        p
        for p in TEMPLATE_FILES
        if any(
            isinstance(pos.rule, Reference) and pos.rule.mode == "move" for pos in _generator(p).template.bad
        )
    ]
    assert moving
    for path in moving:
        assert any("move" in pair.edit_types() for pair in _pairs(path)[:50])


def test_library_has_paradigms_that_delete_and_insert() -> None:
    edit_types = {t for path in TEMPLATE_FILES for pair in _pairs(path)[:20] for t in pair.edit_types()}
    assert {"deletion", "copy", "move", "substitution"} <= edit_types
