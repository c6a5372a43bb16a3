"""Convert ZhoBLiMP's phrase JSON (`assets/zh_phrase.json` layout) into our phrases.

The file maps a phrase name to its alternatives, each a list of `{"type", "rule"}` entries of
type Lexical (a dict of properties), Direct (a list of literals), Matched (properties plus
`matchedPosition` / `mismatchedPosition`, an index within the alternative, and the properties
to compare) or Phrase (`{"name": ...}`). Each inner position gets the id `i<k>` (its 0-based
index), so agreement inside an alternative names `i<k>`. `expression` (the word itself)
becomes our `form`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.importers.zhoblimp_json import JsonFileError, read_json
from vocab.import_report import ImportNote

PlainPosition = dict[str, Any]
PlainAlternative = list[PlainPosition]


class _Unconvertible(ValueError):
    """An entry our format cannot express; the message says why."""


@dataclass(frozen=True, slots=True)
class PhraseImport:
    """The converted phrases (name -> alternatives, as plain YAML data) and the report."""

    phrases: dict[str, list[PlainAlternative]]
    notes: tuple[ImportNote, ...]


def feature_name(key: str) -> str:
    """Return our name for a ZhoBLiMP property: `expression` is our `form`."""
    return "form" if key == "expression" else key


def plain_values(values: tuple[str, ...] | list[str]) -> str | list[str]:
    """Return one value as text and several as a list (how our templates write them)."""
    return values[0] if len(values) == 1 else list(values)


def _values(raw: Any, key: str) -> tuple[str, ...]:
    if isinstance(raw, str):
        parts = tuple(v for v in raw.split("/") if v)
    elif isinstance(raw, list) and all(isinstance(v, str | int) for v in raw):
        parts = tuple(str(v) for v in raw)
    elif isinstance(raw, int | float) and not isinstance(raw, bool):
        parts = (str(raw),)
    else:
        raise _Unconvertible(f"property '{key}' has the value {raw!r}, not text or a list of texts")
    if not parts:
        raise _Unconvertible(f"property '{key}' has no value")
    return parts


def _index(raw: Any, length: int, key: str) -> int:
    text = str(raw).strip() if isinstance(raw, str | int) and not isinstance(raw, bool) else ""
    if not text.lstrip("-").isdigit():
        raise _Unconvertible(f"{key} {raw!r} is not a plain whole number (ZhoBLiMP evaluates it as Python)")
    index = int(text)
    if index < 0:
        index += length
    if not 0 <= index < length:
        raise _Unconvertible(f"{key} {raw!r} is outside this alternative (it has {length} rules)")
    return index


def _entry(entry: Any, alternative: list[Any], k: int) -> PlainPosition:
    if not isinstance(entry, dict) or "type" not in entry or "rule" not in entry:
        raise _Unconvertible('an entry must be {"type": ..., "rule": ...}')
    kind, rule = entry["type"], entry["rule"]
    position: PlainPosition = {"id": f"i{k}"}
    if kind == "Direct":
        literals = [rule] if isinstance(rule, str) else rule
        if not isinstance(literals, list) or not all(isinstance(v, str) for v in literals):
            raise _Unconvertible("a Direct rule must be a list of literal strings")
        position["direct"] = plain_values(literals) if literals else ""
        return position
    if kind == "Phrase":
        if not isinstance(rule, dict) or not isinstance(rule.get("name"), str):
            raise _Unconvertible('a Phrase rule must be {"name": "..."}')
        if rule.get("additional_properties"):
            raise _Unconvertible("extra properties on a phrase inside a phrase are not supported")
        position["phrase"] = rule["name"]
        return position
    if kind not in ("Lexical", "Matched"):
        raise _Unconvertible(f"unknown rule type '{kind}' (expected Lexical, Direct, Matched or Phrase)")
    if not isinstance(rule, dict):
        raise _Unconvertible(f"a {kind} rule must be a dict of properties")
    rule = dict(rule)
    agreements: dict[str, dict[str, list[str]]] = {}
    for word, pos_key, pro_key in (
        ("matched", "matchedPosition", "matchedProperties"),
        ("mismatched", "mismatchedPosition", "mismatchedProperties"),
    ):
        if pos_key in rule or pro_key in rule:
            if pos_key not in rule or pro_key not in rule:
                raise _Unconvertible(f"{pos_key} and {pro_key} must come together")
            target = _index(rule.pop(pos_key), len(alternative), pos_key)
            if target == k:
                raise _Unconvertible(f"{pos_key} points to the rule itself")
            target_entry = alternative[target]
            if not isinstance(target_entry, dict) or target_entry.get("type") not in ("Lexical", "Matched"):
                raise _Unconvertible(
                    f"{pos_key} points to rule {target}, which is not a word rule; our templates "
                    "agree only with words"
                )
            props = [feature_name(p) for p in _values(rule.pop(pro_key), pro_key)]
            agreements[word] = {f"i{target}": props}
    if kind == "Matched" and not agreements:
        raise _Unconvertible("a Matched rule needs matchedPosition or mismatchedPosition")
    features = {feature_name(key): plain_values(_values(value, key)) for key, value in rule.items()}
    if features:
        position["lexical"] = features
    position.update(agreements)
    if not features and not agreements:
        raise _Unconvertible("a Lexical rule needs at least one property")
    return position


def convert_phrases(data: Any, *, file_name: str) -> PhraseImport:
    """Return our phrases for parsed phrase JSON `data`; what cannot be converted is reported.

    An alternative that cannot be converted is left out; a phrase with none left is left out.
    """
    notes: list[ImportNote] = []
    phrases: dict[str, list[PlainAlternative]] = {}
    if not isinstance(data, dict):
        notes.append(ImportNote(file_name, "", "the file must map phrase names to alternatives", "skipped"))
        return PhraseImport({}, tuple(notes))
    for name, alternatives in data.items():
        where = f"phrase '{name}'"
        if not isinstance(alternatives, list) or not alternatives:
            notes.append(
                ImportNote(
                    file_name, where, "skipped: it must be a non-empty list of alternatives", "skipped"
                )
            )
            continue
        converted: list[PlainAlternative] = []
        for a, alternative in enumerate(alternatives):
            if not isinstance(alternative, list) or not alternative:
                notes.append(
                    ImportNote(
                        file_name,
                        f"{where}, alternative {a}",
                        "alternative skipped: it must be a non-empty list of rules",
                        "skipped",
                    )
                )
                continue
            try:
                converted.append([_entry(e, alternative, k) for k, e in enumerate(alternative)])
            except _Unconvertible as exc:
                k = next((i for i, e in enumerate(alternative) if _fails(e, alternative, i)), 0)
                notes.append(
                    ImportNote(
                        file_name,
                        f"{where}, alternative {a}, rule {k}",
                        f"alternative skipped: {exc}",
                        "skipped",
                    )
                )
        if converted:
            phrases[str(name)] = converted
        else:
            notes.append(
                ImportNote(file_name, where, "phrase skipped: no alternative could be converted", "skipped")
            )
    return PhraseImport(phrases, tuple(notes))


def _fails(entry: Any, alternative: list[Any], k: int) -> bool:
    try:
        _entry(entry, alternative, k)
    except _Unconvertible:
        return True
    return False


def import_zhoblimp_phrases(data: bytes, *, file_name: str = "phrases.json") -> PhraseImport:
    """Return our phrases converted from the bytes of a ZhoBLiMP phrase JSON file, and the report."""
    try:
        parsed = read_json(data)
    except JsonFileError as exc:
        return PhraseImport({}, (ImportNote(file_name, exc.where, f"file skipped: {exc}", "skipped"),))
    return convert_phrases(parsed, file_name=file_name)


def alternative_is_lexical(position: Mapping[str, Any]) -> bool:
    """Return whether a converted position is a word rule (lexical, possibly with agreement)."""
    return "lexical" in position or "matched" in position or "mismatched" in position
