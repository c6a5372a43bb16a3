"""Which of a project's phrases a template uses: those its grammars name, directly or through phrases.

A project's templates share the project's phrases, but the engine checks every phrase it is given
against the template's vocabulary. Each template is therefore given only the phrases it uses, so
a phrase of another language, or a broken phrase no template names, cannot spoil it. The names
come from the engine's reading of the texts; a text the engine cannot read is searched leniently
for `phrase:` entries, so a broken template or phrase still counts as using what it names.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from generator.errors import TemplateError
from generator.source import SourceError, load_yaml
from generator.template import Phrase as ParsedPhrase
from generator.template import PhraseRef, Position, parse_template, phrases_from_texts

PhraseGraph = Mapping[str, frozenset[str]]


def phrase_graph(phrase_texts: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Return, for each phrase (name -> YAML text), the names of the phrases its alternatives use."""
    graph: dict[str, frozenset[str]] = {}
    for name, text in phrase_texts.items():
        try:
            phrases, _ = phrases_from_texts({name: text})
        except TemplateError:
            graph[name] = frozenset(_lenient_refs(_yaml_or_none(text)))
            continue
        graph[name] = frozenset(_phrase_refs(phrases.values()))
    return graph


def template_phrase_names(source_text: str, graph: PhraseGraph) -> set[str]:
    """Return the names of the graph's phrases that a template text uses, directly or not.

    Phrases the template defines itself (its own `phrases:`) are its own: a project phrase of
    the same name is not used.
    """
    return template_data_phrase_names(_yaml_or_none(source_text), graph)


def template_data_phrase_names(data: Any, graph: PhraseGraph) -> set[str]:
    """Return `template_phrase_names` of a template's YAML already read (None: not YAML)."""
    refs, own = _template_refs(data)
    used: set[str] = set()
    pending = list(refs)
    while pending:
        name = pending.pop()
        if name in used or name in own or name not in graph:
            continue
        used.add(name)
        pending += graph[name]
    return used


def phrase_users(names: Iterable[str], graph: PhraseGraph) -> set[str]:
    """Return the phrases of the graph that use any of `names`, directly or through others."""
    targets = set(names)
    users: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, refs in graph.items():
            if name not in users and refs & (targets | users):
                users.add(name)
                changed = True
    return users


def _template_refs(data: Any) -> tuple[set[str], set[str]]:
    """Return the phrase names a template's grammars reach outside its own phrases, and its own."""
    try:
        parsed = parse_template(data, file="template", extra_phrases={})
    except TemplateError:
        if not isinstance(data, dict):
            return set(), set()
        own_raw = data.get("phrases")
        own = set(own_raw) if isinstance(own_raw, dict) else set()
        return _lenient_refs([data.get("good"), data.get("bad"), own_raw]), own
    own_phrases = parsed.phrases
    refs: set[str] = set()
    seen: set[str] = set()
    pending = _position_refs([*parsed.good, *parsed.bad])
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in own_phrases:
            pending += _phrase_refs([own_phrases[name]])
        else:
            refs.add(name)
    return refs, set(own_phrases)


def _phrase_refs(phrases: Iterable[ParsedPhrase]) -> list[str]:
    return [name for phrase in phrases for alt in phrase.alternatives for name in _position_refs(alt)]


def _position_refs(positions: Iterable[Position]) -> list[str]:
    return [p.rule.name for p in positions if isinstance(p.rule, PhraseRef)]


def _yaml_or_none(text: str) -> Any:
    try:
        return load_yaml(text)
    except SourceError:
        return None


def _lenient_refs(data: Any) -> set[str]:
    """Return every `phrase:` value found in plain YAML data (for text the engine rejects)."""
    found: set[str] = set()
    if isinstance(data, dict):
        ref = data.get("phrase")
        if isinstance(ref, str) and ref.strip():
            found.add(ref.strip())
        for value in data.values():
            found |= _lenient_refs(value)
    elif isinstance(data, list):
        for value in data:
            found |= _lenient_refs(value)
    return found
