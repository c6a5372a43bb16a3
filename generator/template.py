"""The grammar-template model and its parser: one YAML file becomes one checked Template.

A template holds a good and a bad grammar. Each grammar is a list of positions, and each
position holds exactly one rule (docs/template-format.md describes the file layout):

- Lexical: feature constraints sampled from the vocabulary (`lexical: {pos: NN}`), optionally
  inflected (`form: VBZ`); with `matched:` / `mismatched:` it must agree / disagree with another
  position on named features; with `satisfies:` it must meet the selectional restriction that
  the word at another position holds in a column (`satisfies: {verb: arg_2}`);
- Direct: literal strings, one of which is chosen;
- Phrase: a named, reusable phrase with alternatives, which may nest and recurse;
- in the bad grammar only: `same`, `copy`, `move` (the word made at a good position) and
  `delete` (an explicit note that a good position is dropped).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson

from generator import errors as E
from generator.errors import Problem, TemplateError, did_you_mean
from generator.source import LocatedDict, LocatedList, SourceError, load_yaml

UniquePolicy = Literal["good", "bad", "pair"]
SamplingMode = Literal["uniform", "zhoblimp"]
EqualLength = Literal["characters", "words"]
EQUAL_LENGTH_MODES: tuple[EqualLength, ...] = ("characters", "words")
ReferenceKind = Literal["same", "copy", "move"]

ID_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$|^[0-9]+$")
BAD_PREFIX = "bad."


@dataclass(frozen=True, slots=True)
class Constraint:
    """Agreement (agree=True) or disagreement with another position on named features."""

    target: str
    features: tuple[str, ...]
    agree: bool


@dataclass(frozen=True, slots=True)
class Satisfies:
    """A selectional restriction: the word must satisfy the restriction held in `column` by the
    word at position `target` (vocab/restrictions.py)."""

    target: str
    column: str


@dataclass(frozen=True, slots=True)
class Lexical:
    """Sample an item whose features match; inflect it to `form` if given."""

    features: Mapping[str, tuple[str, ...]]
    exclude: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    form: str | None = None
    constraints: tuple[Constraint, ...] = ()
    capped: bool = True  # counts towards options.max_item_reuse (`uncapped: true` exempts it)
    satisfies: tuple[Satisfies, ...] = ()

    @property
    def kind(self) -> str:
        if any(not c.agree for c in self.constraints):
            return "mismatched"
        return "matched" if self.constraints else "lexical"


@dataclass(frozen=True, slots=True)
class Direct:
    """Use one of these literal strings."""

    options: tuple[str, ...]
    kind: str = "direct"


@dataclass(frozen=True, slots=True)
class PhraseRef:
    """Expand the named phrase; `where` adds feature constraints to its inner positions."""

    name: str
    where: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    kind: str = "phrase"


@dataclass(frozen=True, slots=True)
class Reference:
    """Bad grammar only: reuse the word made at a good position (re-inflected if `form`)."""

    mode: ReferenceKind
    target: str
    form: str | None = None

    @property
    def kind(self) -> str:
        return self.mode


@dataclass(frozen=True, slots=True)
class Deletion:
    """Bad grammar only: states that a good position is dropped from the bad sentence."""

    target: str
    kind: str = "delete"


Rule = Lexical | Direct | PhraseRef | Reference | Deletion


@dataclass(frozen=True, slots=True)
class Position:
    """One position of a grammar or phrase alternative: its id, rule and source line."""

    id: str
    rule: Rule
    number: int  # 1-based place in its grammar or alternative
    line: int | None = None

    @property
    def label(self) -> str:
        """Return how messages name the position: '2 (subj)', or '2' when it has no id."""
        return str(self.number) if self.id == str(self.number) else f"{self.number} ({self.id})"


@dataclass(frozen=True, slots=True)
class Phrase:
    """A named phrase: a list of alternatives, each a list of positions."""

    name: str
    alternatives: tuple[tuple[Position, ...], ...]
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Options:
    """Generation options a template may set."""

    unique: UniquePolicy = "good"
    max_item_reuse: int | None = None
    distinct_words: bool = True
    capitalize: bool | None = None  # None: the language's default (English yes, Chinese no)
    max_depth: int = 3
    attempts_per_pair: int = 50
    sampling: SamplingMode = "uniform"
    # Good and bad must have the same number of characters or word tokens (None: no constraint).
    equal_length: EqualLength | None = None


@dataclass(frozen=True, slots=True)
class Template:
    """One paradigm: metadata, phrases and the good and bad grammars."""

    uid: str
    phenomenon: str
    language: str
    good: tuple[Position, ...]
    bad: tuple[Position, ...]
    phrases: Mapping[str, Phrase] = field(default_factory=dict)
    options: Options = field(default_factory=Options)
    description: str = ""
    source: str = ""
    version: str = ""
    vocabulary: str = ""  # path as written in the file (relative to the file)
    example: Mapping[str, str] = field(default_factory=dict)
    file: str = ""
    content_hash: str = ""
    key_lines: Mapping[str, int] = field(default_factory=dict)  # top-level key -> its line
    # BLiMP's own fields for this paradigm's BLiMP export (`field`, `linguistics_term`, the prefix
    # method flags).
    blimp: Mapping[str, str | bool] = field(default_factory=dict)

    def vocabulary_path(self) -> Path | None:
        """Return the vocabulary file path resolved against the template's folder."""
        if not self.vocabulary:
            return None
        base = Path(self.file).parent if self.file else Path.cwd()
        return (base / self.vocabulary).resolve()


# The template format's keys, in the order a template is written (docs/template-format.md):
# the top-level fields, the generation options, and the keys of a position.
TOP_KEYS = (
    "uid",
    "version",
    "phenomenon",
    "language",
    "description",
    "source",
    "blimp",
    "example",
    "vocabulary",
    "phrase_files",
    "options",
    "phrases",
    "good",
    "bad",
    "notes",
)
OPTION_KEYS = (
    "unique",
    "max_item_reuse",
    "distinct_words",
    "capitalize",
    "max_depth",
    "attempts_per_pair",
    "sampling",
    "equal_length",
)
SAMPLING_MODES = ("uniform", "zhoblimp")
# The rules a position names by a key of its own (a Lexical position is its feature map).
RULE_KEYS = ("direct", "phrase", "same", "copy", "move", "delete", "matched", "mismatched")
POSITION_KEYS = ("id", *RULE_KEYS, "on", "lexical", "form", "not", "satisfies", "where", "uncapped", "note")
_TOP_KEYS = frozenset(TOP_KEYS)
_RULE_KEYS = frozenset((*RULE_KEYS, "lexical"))
_EXTRA_KEYS = frozenset(POSITION_KEYS) - _RULE_KEYS
_OPTION_KEYS = frozenset(OPTION_KEYS)


class _Collector:
    """Collects problems with the template's file name filled in."""

    def __init__(self, template: str) -> None:
        self.template = template
        self.problems: list[Problem] = []

    def add(
        self,
        code: str,
        message: str,
        *,
        grammar: str = "",
        position: str = "",
        line: int | None = None,
        key: str = "",
    ) -> None:
        self.problems.append(Problem(code, message, self.template, grammar, position, line, key))


def _values(raw: Any) -> tuple[str, ...] | None:
    """Return a feature value or list of values as a tuple of strings, None if not scalar."""
    if isinstance(raw, list):
        if not all(isinstance(v, str) for v in raw):
            return None
        return tuple(raw)
    if isinstance(raw, str):
        return (raw,)
    return None


def _feature_map(raw: Any, col: _Collector, what: str, **loc: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, dict):
        col.add(E.E_FIELD, f"'{what}' must list features and values, like `{what}: {{pos: NN}}`", **loc)
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for key, value in raw.items():
        values = _values(value)
        if values is None or not values:
            col.add(E.E_FIELD, f"feature '{key}' in '{what}' needs a value or a list of values", **loc)
            continue
        out[key] = values
    return out


def _constraints(raw: Any, on: Any, agree: bool, col: _Collector, **loc: Any) -> list[Constraint]:
    word = "matched" if agree else "mismatched"
    if isinstance(raw, str):
        features = _values(on)
        if not features:
            col.add(
                E.E_FIELD,
                f"'{word}: {raw}' needs 'on:' naming the feature(s) to "
                f"{'agree' if agree else 'disagree'} on, like `on: number`",
                **loc,
            )
            return []
        return [Constraint(raw, features, agree)]
    if isinstance(raw, dict):
        out = []
        for target, feats in raw.items():
            features = _values(feats)
            if not features:
                col.add(E.E_FIELD, f"'{word}' for '{target}' needs the feature(s) to compare", **loc)
                continue
            out.append(Constraint(target, features, agree))
        return out
    col.add(
        E.E_FIELD,
        f"'{word}' must name a position (`{word}: subj` with `on: number`) "
        f"or map positions to features (`{word}: {{subj: number}}`)",
        **loc,
    )
    return []


def _satisfies(raw: Any, col: _Collector, **loc: Any) -> tuple[Satisfies, ...]:
    if not isinstance(raw, dict) or not raw or not all(isinstance(v, str) and v for v in raw.values()):
        col.add(
            E.E_FIELD,
            "'satisfies' must map a position to the column holding its restriction, "
            "like `satisfies: {verb: arg_2}`",
            **loc,
        )
        return ()
    return tuple(Satisfies(str(target), column) for target, column in raw.items())


def _parse_position(
    raw: Any, number: int, line: int | None, col: _Collector, *, grammar: str, allow_edits: bool
) -> Position | None:
    loc: dict[str, Any] = {"grammar": grammar, "position": str(number), "line": line}
    if isinstance(raw, str) or raw is None:
        col.add(
            E.E_RULE,
            f"a position must be a rule such as `{{direct: {raw or 'word'}}}` or "
            "`{lexical: {pos: NN}}`, not a bare word",
            **loc,
        )
        return None
    if not isinstance(raw, dict):
        col.add(E.E_RULE, "a position must be a mapping with one rule", **loc)
        return None
    assert isinstance(raw, LocatedDict)
    loc["line"] = raw.line
    pid = raw.get("id")
    if pid is not None:
        if not isinstance(pid, str) or not ID_PATTERN.match(pid):
            col.add(
                E.E_FIELD, f"id '{pid}' must be a name of letters, digits and _ (no spaces or dots)", **loc
            )
            pid = None
        else:
            loc["position"] = f"{number} ({pid})"
    position_id = pid if pid is not None else str(number)
    for key in raw:
        if key not in _RULE_KEYS and key not in _EXTRA_KEYS:
            col.add(
                E.E_FIELD,
                f"unknown key '{key}'{did_you_mean(key, _RULE_KEYS | _EXTRA_KEYS)}",
                **{**loc, "line": raw.line_of(key)},
            )
    rule_keys = [k for k in raw if k in _RULE_KEYS]
    if not rule_keys:
        col.add(
            E.E_RULE,
            "this position has no rule: give one of lexical, direct, matched, "
            "mismatched, phrase" + (", same, copy, move, delete" if allow_edits else ""),
            **loc,
        )
        return None
    edit_keys = [k for k in rule_keys if k in {"same", "copy", "move", "delete"}]
    if "satisfies" in raw and not set(rule_keys) <= {"lexical", "matched", "mismatched"}:
        col.add(
            E.E_FIELD, "'satisfies' only goes with a vocabulary word (lexical, matched, mismatched)", **loc
        )
    form = raw.get("form")
    if form is not None and not isinstance(form, str):
        col.add(E.E_FIELD, "'form' must be one inflection tag such as VBZ or NNS", **loc)
        form = None
    if edit_keys:
        if not allow_edits:
            col.add(E.E_RULE, f"'{edit_keys[0]}' can only be used in the bad grammar", **loc)
            return None
        if len(rule_keys) > 1:
            col.add(E.E_RULE, f"a position has one rule, but this one has {', '.join(rule_keys)}", **loc)
            return None
        key = edit_keys[0]
        target = raw[key]
        if not isinstance(target, str):
            col.add(E.E_FIELD, f"'{key}' must name a position of the good grammar, like `{key}: subj`", **loc)
            return None
        if key == "delete":
            return Position(position_id if pid else target, Deletion(target), number, raw.line)
        mode: ReferenceKind = "same" if key == "same" else "copy" if key == "copy" else "move"
        return Position(position_id if pid else target, Reference(mode, target, form), number, raw.line)
    if "direct" in rule_keys:
        if len(rule_keys) > 1:
            col.add(E.E_RULE, f"a position has one rule, but this one has {', '.join(rule_keys)}", **loc)
            return None
        options = _values(raw["direct"])
        if options is None:
            col.add(E.E_FIELD, "'direct' must be a word or a list of words", **loc)
            return None
        return Position(position_id, Direct(options), number, raw.line)
    if "phrase" in rule_keys:
        if len(rule_keys) > 1:
            col.add(E.E_RULE, f"a position has one rule, but this one has {', '.join(rule_keys)}", **loc)
            return None
        name = raw["phrase"]
        if not isinstance(name, str):
            col.add(E.E_FIELD, "'phrase' must be the name of a phrase", **loc)
            return None
        where: dict[str, dict[str, tuple[str, ...]]] = {}
        raw_where = raw.get("where")
        if raw_where is not None:
            if not isinstance(raw_where, dict):
                col.add(
                    E.E_FIELD,
                    "'where' must map inner positions to features, like `where: {head: {number: pl}}`",
                    **loc,
                )
            else:
                for inner, feats in raw_where.items():
                    where[inner] = _feature_map(feats, col, f"where: {inner}", **loc)
        return Position(position_id, PhraseRef(name, where), number, raw.line)
    # Lexical, possibly with agreement constraints.
    features: dict[str, tuple[str, ...]] = {}
    if "lexical" in raw:
        features = _feature_map(raw["lexical"], col, "lexical", **loc)
    exclude = _feature_map(raw["not"], col, "not", **loc) if "not" in raw else {}
    constraints: list[Constraint] = []
    on = raw.get("on")
    if (
        "matched" in raw
        and "mismatched" in raw
        and isinstance(raw["matched"], str)
        and isinstance(raw["mismatched"], str)
    ):
        col.add(
            E.E_FIELD,
            "with both 'matched' and 'mismatched', write each as a mapping "
            "(`matched: {subj: number}`) so it is clear which features 'on' means",
            **loc,
        )
    else:
        if "matched" in raw:
            constraints += _constraints(raw["matched"], on, True, col, **loc)
        if "mismatched" in raw:
            constraints += _constraints(raw["mismatched"], on, False, col, **loc)
    if on is not None and not any(isinstance(raw.get(k), str) for k in ("matched", "mismatched")):
        col.add(E.E_FIELD, "'on' only goes with `matched: <position>` or `mismatched: <position>`", **loc)
    if not features and not constraints:
        col.add(E.E_RULE, "a lexical position needs at least one feature, like `lexical: {pos: NN}`", **loc)
        return None
    uncapped = str(raw.get("uncapped", "false")).lower()
    if uncapped not in ("true", "false", "yes", "no"):
        col.add(E.E_FIELD, "'uncapped' must be true or false", **loc)
    satisfies = _satisfies(raw["satisfies"], col, **loc) if "satisfies" in raw else ()
    rule = Lexical(features, exclude, form, tuple(constraints), uncapped not in ("true", "yes"), satisfies)
    return Position(position_id, rule, number, raw.line)


def _parse_positions(
    raw: Any, col: _Collector, *, grammar: str, allow_edits: bool, line: int | None
) -> tuple[Position, ...]:
    if not isinstance(raw, list) or not raw:
        col.add(
            E.E_FIELD,
            f"the {grammar} grammar must be a non-empty list of positions"
            if grammar in ("good", "bad")
            else "each alternative must be a non-empty list of positions",
            grammar=grammar,
            line=line,
        )
        return ()
    assert isinstance(raw, LocatedList)
    out: list[Position] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(raw):
        pos = _parse_position(item, i + 1, raw.item_lines[i], col, grammar=grammar, allow_edits=allow_edits)
        if pos is None:
            continue
        explicit = isinstance(item, dict) and item.get("id") is not None
        if pos.id in seen and (explicit or not isinstance(pos.rule, Reference | Deletion)):
            col.add(
                E.E_DUPLICATE_ID,
                f"id '{pos.id}' is already used by position {seen[pos.id]}",
                grammar=grammar,
                position=str(i + 1),
                line=pos.line,
            )
        seen.setdefault(pos.id, i + 1)
        out.append(pos)
    return tuple(out)


def _parse_phrases(raw: Any, col: _Collector, *, origin: str) -> dict[str, Phrase]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        col.add(E.E_FIELD, f"{origin} must map phrase names to lists of alternatives")
        return {}
    assert isinstance(raw, LocatedDict)
    out: dict[str, Phrase] = {}
    for name, alts in raw.items():
        line = raw.line_of(name)
        if not isinstance(alts, list) or not alts:
            col.add(
                E.E_FIELD,
                "a phrase must be a list of alternatives, each a list of positions",
                grammar=f"phrase {name}",
                line=line,
            )
            continue
        assert isinstance(alts, LocatedList)
        parsed = []
        for j, alt in enumerate(alts):
            positions = _parse_positions(
                alt,
                col,
                grammar=f"phrase {name}, alternative {j + 1}",
                allow_edits=False,
                line=alts.item_lines[j],
            )
            if positions:
                parsed.append(positions)
        out[name] = Phrase(name, tuple(parsed), line)
    return out


def _parse_options(raw: Any, col: _Collector) -> Options:
    if raw is None:
        return Options()
    if not isinstance(raw, dict):
        col.add(E.E_FIELD, "'options' must be a mapping", key="options")
        return Options()
    assert isinstance(raw, LocatedDict)
    values: dict[str, Any] = {}
    for key, value in raw.items():
        line = raw.line_of(key)
        if key not in _OPTION_KEYS:
            col.add(
                E.E_FIELD,
                f"unknown option '{key}'{did_you_mean(key, _OPTION_KEYS)}",
                line=line,
                key="options",
            )
        elif key == "unique":
            if value not in ("good", "bad", "pair"):
                col.add(E.E_FIELD, "'unique' must be good, bad or pair", line=line, key="options")
            else:
                values[key] = value
        elif key == "sampling":
            if value not in SAMPLING_MODES:
                col.add(E.E_FIELD, "'sampling' must be uniform or zhoblimp", line=line, key="options")
            else:
                values[key] = value
        elif key == "equal_length":
            low = str(value).lower()  # the YAML reader keeps scalars as text
            if low in EQUAL_LENGTH_MODES:
                values[key] = low
            elif low not in ("false", "no"):
                col.add(
                    E.E_FIELD,
                    "'equal_length' must be characters, words or false",
                    line=line,
                    key="options",
                )
        elif key in ("distinct_words", "capitalize"):
            low = str(value).lower()
            if low not in ("true", "false", "yes", "no"):
                col.add(E.E_FIELD, f"'{key}' must be true or false", line=line, key="options")
            else:
                values[key] = low in ("true", "yes")
        else:
            if value is None and key == "max_item_reuse":
                values[key] = None
                continue
            try:
                number = int(str(value))
            except ValueError:
                number = 0
            if number < 1:
                col.add(E.E_FIELD, f"'{key}' must be a whole number of at least 1", line=line, key="options")
            else:
                values[key] = number
    return Options(**values)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def parse_template(
    data: Any,
    *,
    file: str = "",
    extra_phrases: Mapping[str, Phrase] | None = None,
    phrase_sources: Mapping[str, Any] | None = None,
) -> Template:
    """Return the Template described by parsed YAML `data` (from `source.load_yaml`).

    Raises:
        TemplateError: with every structural problem found, each naming its line and position.
    """
    name = Path(file).name if file else "template"
    col = _Collector(name)
    if not isinstance(data, dict):
        col.add(E.E_SYNTAX, "a template file must be a mapping with uid, good and bad")
        raise TemplateError(col.problems)
    assert isinstance(data, LocatedDict)
    for key in data:
        if key not in _TOP_KEYS:
            col.add(
                E.E_FIELD,
                f"unknown field '{key}'{did_you_mean(key, _TOP_KEYS)}",
                line=data.line_of(key),
                key=key,
            )
    text: dict[str, str] = {}
    for key in ("uid", "phenomenon", "language", "description", "source", "vocabulary", "version"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            col.add(E.E_FIELD, f"'{key}' must be text", line=data.line_of(key), key=key)
            value = None
        text[key] = (value or "").strip()
    for key in ("uid", "phenomenon", "language"):
        if not text[key]:
            col.add(E.E_FIELD, f"the template needs '{key}'", line=data.line, key=key)
    if text["uid"] and not ID_PATTERN.match(text["uid"]):
        col.add(E.E_FIELD, "'uid' must be letters, digits and _ only", line=data.line_of("uid"), key="uid")
    example = data.get("example") or {}
    if not isinstance(example, dict) or not all(isinstance(v, str) for v in example.values()):
        col.add(
            E.E_FIELD,
            "'example' must be `{good: ..., bad: ...}`",
            line=data.line_of("example"),
            key="example",
        )
        example = {}
    phrases = dict(extra_phrases or {})
    for pname, phrase in _parse_phrases(data.get("phrases"), col, origin="'phrases'").items():
        if pname in phrases:
            col.add(
                E.E_DUPLICATE_ID,
                f"phrase '{pname}' is defined twice (here and outside the template)",
                line=phrase.line,
            )
        phrases[pname] = phrase
    good = _parse_positions(
        data.get("good"), col, grammar="good", allow_edits=False, line=data.line_of("good")
    )
    bad = _parse_positions(data.get("bad"), col, grammar="bad", allow_edits=True, line=data.line_of("bad"))
    options = _parse_options(data.get("options"), col)
    blimp = _parse_blimp(data.get("blimp"), col, line=data.line_of("blimp"))
    if col.problems:
        raise TemplateError(problems_keyed(col.problems, data.key_lines))
    canonical = {k: _plain(v) for k, v in data.items() if k not in ("notes",)}
    # The version covers the outside phrases the template really uses, and no others.
    sources = phrase_sources or {}
    canonical["phrase_sources"] = {
        n: sources[n] for n in sorted(used_phrases(good + bad, phrases)) if n in sources
    }
    content_hash = hashlib.sha256(orjson.dumps(canonical, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]
    return Template(
        uid=text["uid"],
        phenomenon=text["phenomenon"],
        language=text["language"],
        good=good,
        bad=bad,
        phrases=phrases,
        options=options,
        description=text["description"],
        source=text["source"],
        version=text["version"],
        vocabulary=text["vocabulary"],
        example=dict(example),
        file=file,
        content_hash=content_hash,
        key_lines=dict(data.key_lines),
        blimp=blimp,
    )


# The fields of a BLiMP line a template may set (`blimp:`); BLiMP's export writes them: text
# fields, and the methods BLiMP's line flags (the export derives each prefix method's fields from
# the pair's words, and keeps a flag only for a pair it fits).
BLIMP_TEXT_KEYS = ("field", "linguistics_term")
BLIMP_FLAG_KEYS = ("one_prefix_method", "two_prefix_method")
BLIMP_KEYS = (*BLIMP_TEXT_KEYS, *BLIMP_FLAG_KEYS)


def _parse_blimp(raw: Any, col: _Collector, *, line: int | None) -> dict[str, str | bool]:
    """Return the `blimp:` mapping (field, linguistics_term: text; one_prefix_method,
    two_prefix_method: true or false), each problem collected."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        col.add(
            E.E_FIELD,
            "'blimp' must map BLiMP's fields to text, like `blimp: {field: syntax, linguistics_term: "
            "anaphor_agreement}`",
            line=line,
            key="blimp",
        )
        return {}
    out: dict[str, str | bool] = {}
    for key, value in raw.items():
        if key not in BLIMP_KEYS:
            col.add(
                E.E_FIELD,
                f"'blimp' has no field '{key}'{did_you_mean(str(key), frozenset(BLIMP_KEYS))} "
                f"(it takes {', '.join(BLIMP_KEYS)})",
                line=line,
                key="blimp",
            )
        elif key in BLIMP_FLAG_KEYS:
            low = str(value).lower()  # the YAML reader keeps scalars as text
            if low not in ("true", "false", "yes", "no"):
                col.add(E.E_FIELD, f"'blimp: {key}' must be true or false", line=line, key="blimp")
            else:
                out[key] = low in ("true", "yes")
        elif not isinstance(value, str) or not value.strip():
            col.add(E.E_FIELD, f"'blimp: {key}' must be text", line=line, key="blimp")
        else:
            out[key] = value.strip()
    return out


def key_at(line: int | None, key_lines: Mapping[str, int]) -> str:
    """Return the top-level key whose value holds `line` (the last key starting at or above
    it), or "" for no line or a line above every key."""
    if line is None:
        return ""
    found = ""
    for key, start in sorted(key_lines.items(), key=lambda item: item[1]):
        if start > line:
            break
        found = key
    return found


def problems_keyed(problems: Sequence[Problem], key_lines: Mapping[str, int]) -> list[Problem]:
    """Return the problems with `key` filled in, where missing, from the top-level key whose
    value holds their line (a problem of a grammar or a phrase keeps none)."""
    return [
        p if p.key or p.grammar else dataclasses.replace(p, key=key_at(p.line, key_lines)) for p in problems
    ]


def used_phrases(positions: Sequence[Position], phrases: Mapping[str, Phrase]) -> set[str]:
    """Return the names of the phrases the positions use, directly or through other phrases."""
    found: set[str] = set()
    pending = [p.rule.name for p in positions if isinstance(p.rule, PhraseRef)]
    while pending:
        name = pending.pop()
        if name in found or name not in phrases:
            continue
        found.add(name)
        for alternative in phrases[name].alternatives:
            pending += [p.rule.name for p in alternative if isinstance(p.rule, PhraseRef)]
    return found


def phrases_from_texts(texts: Mapping[str, str]) -> tuple[dict[str, Phrase], dict[str, Any]]:
    """Return phrases parsed from name -> YAML text (a list of alternatives), and their plain data.

    Raises:
        TemplateError: naming the phrase and line of every problem.
    """
    phrases: dict[str, Phrase] = {}
    sources: dict[str, Any] = {}
    problems: list[Problem] = []
    for pname, text in texts.items():
        label = f"phrase {pname}"
        try:
            data = load_yaml(text)
        except SourceError as exc:
            problems.append(Problem(E.E_SYNTAX, str(exc), label, line=exc.line))
            continue
        wrapper = LocatedDict({pname: data})
        wrapper.line = 1
        wrapper.key_lines = {pname: 1}
        col = _Collector(label)
        phrases.update(_parse_phrases(wrapper, col, origin=label))
        problems += col.problems
        sources[pname] = _plain(data)
    if problems:
        raise TemplateError(problems)
    return phrases, sources


def template_from_text(
    text: str,
    *,
    file: str = "",
    base_dir: Path | None = None,
    phrase_texts: Mapping[str, str] | None = None,
) -> Template:
    """Return the Template in YAML `text`.

    Outside phrases come from `phrase_texts` (name -> YAML list of alternatives) when given, as
    the platform stores them; otherwise from the `phrase_files` named in the text, resolved
    against `base_dir` (default: the file's folder).

    Raises:
        TemplateError: if the text is not YAML, or the template or a phrase is malformed.
    """
    name = Path(file).name if file else "template"
    try:
        data = load_yaml(text)
    except SourceError as exc:
        raise TemplateError([Problem(E.E_SYNTAX, str(exc), name, line=exc.line)]) from None
    return template_from_data(data, file=file, base_dir=base_dir, phrase_texts=phrase_texts)


def template_from_data(
    data: Any,
    *,
    file: str = "",
    base_dir: Path | None = None,
    phrase_texts: Mapping[str, str] | None = None,
) -> Template:
    """Return the Template of YAML already read by `source.load_yaml` (as `template_from_text`
    does with text: a caller that also reads the text's fields reads it once).

    Raises:
        TemplateError: if the template or a phrase is malformed.
    """
    name = Path(file).name if file else "template"
    extra: dict[str, Phrase] = {}
    sources: dict[str, Any] = {}
    if phrase_texts is not None:
        extra, sources = phrases_from_texts(phrase_texts)
    elif isinstance(data, dict) and data.get("phrase_files") is not None:
        files = data["phrase_files"]
        files = [files] if isinstance(files, str) else files
        base = base_dir or (Path(file).parent if file else Path.cwd())
        problems: list[Problem] = []
        for rel in files if isinstance(files, list) else []:
            path = base / str(rel)
            try:
                phrase_data = load_yaml(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as exc:
                reason = (
                    "does not exist"
                    if isinstance(exc, FileNotFoundError)
                    else "is not UTF-8 text"
                    if isinstance(exc, UnicodeDecodeError)
                    else f"cannot be read ({exc.strerror})"
                )
                problems.append(
                    Problem(
                        E.E_FIELD,
                        f"phrase file '{rel}' {reason}",
                        name,
                        line=data.line_of("phrase_files") if isinstance(data, LocatedDict) else None,
                    )
                )
                continue
            except SourceError as exc:
                problems.append(Problem(E.E_SYNTAX, str(exc), path.name, line=exc.line))
                continue
            col = _Collector(path.name)
            for pname, phrase in _parse_phrases(phrase_data, col, origin=f"phrase file '{rel}'").items():
                if pname in extra:
                    col.add(
                        E.E_DUPLICATE_ID, f"phrase '{pname}' is defined in two phrase files", line=phrase.line
                    )
                extra[pname] = phrase
            problems += col.problems
            if isinstance(phrase_data, dict):
                sources.update({k: _plain(v) for k, v in phrase_data.items()})
        if problems:
            raise TemplateError(problems)
    return parse_template(data, file=file, extra_phrases=extra, phrase_sources=sources)


def load_template(path: str | Path) -> Template:
    """Return the Template stored in the YAML file at `path`.

    Raises:
        TemplateError: if the file cannot be read or is malformed.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = "it is not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else exc.strerror
        raise TemplateError([Problem(E.E_SYNTAX, f"cannot read the file: {reason}", path.name)]) from None
    return template_from_text(text, file=str(path))
