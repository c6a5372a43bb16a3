"""Parse one ZhoBLiMP position string (a cell of `good_rule` / `bad_rule`) into its choices.

The grammar, as ZhoBLiMP's `data_gen/utils.py:parse_rule` reads it:

    position := choice ( "|" choice )*          one choice is picked per sentence
    choice   := direct | phrase | lexical        a choice is Direct unless it starts with `key:value`
    direct   := literal ( " " literal )*         literal alternatives; "" gives the empty string
    phrase   := "phrase:" NAME ( INT ":<" kv ( " " kv )* ">" )*
    lexical  := kv ( " " kv )*                   a conjunction; "a/b" in a value means a or b,
                                                 with mPos/mPro/mmPos/mmPro (or the long names)
                                                 for agreement with another position

Where ZhoBLiMP's reading is surprising the parser keeps it and says so in `warnings`
(a literal such as `x:y` inside a Direct), and where it would crash or depend on `eval` the
parser refuses with a `RuleSyntaxError` naming the choice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_LEXICAL_START = re.compile(r"(\w+):(\w+)+")
_PHRASE_EXTRA = re.compile(r"(-?\w+):<([^>]*)>")
_PLAIN_INT = re.compile(r"^-?[0-9]+$")
_ALIASES = {
    "mPos": "matchedPosition",
    "mPro": "matchedProperties",
    "mmPos": "mismatchedPosition",
    "mmPro": "mismatchedProperties",
}
_AGREEMENT_KEYS = frozenset(_ALIASES.values())


class RuleSyntaxError(ValueError):
    """A position string (or one of its choices) that cannot be read."""


@dataclass(frozen=True, slots=True)
class DirectChoice:
    """Literal alternatives; an empty tuple means the empty string."""

    literals: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PhraseChoice:
    """A named phrase; `extras` maps an inner index (negative: from the end) to added properties."""

    name: str
    extras: tuple[tuple[int, dict[str, tuple[str, ...]]], ...] = ()


@dataclass(frozen=True, slots=True)
class Agreement:
    """Agree (match) or disagree (mismatch) with the position at `index` on `properties`."""

    index: int
    properties: tuple[str, ...]
    agree: bool


@dataclass(frozen=True, slots=True)
class LexicalChoice:
    """Vocabulary properties (each a tuple of alternatives) and agreements with other positions."""

    properties: dict[str, tuple[str, ...]]
    agreements: tuple[Agreement, ...] = ()


Choice = DirectChoice | PhraseChoice | LexicalChoice


@dataclass(frozen=True, slots=True)
class ParsedPosition:
    """The choices of one cell and the surprises worth reporting."""

    choices: tuple[Choice, ...]
    warnings: tuple[str, ...] = field(default=())


def _key_values(text: str, what: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for pair in text.split():
        parts = pair.split(":")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise RuleSyntaxError(f"'{pair}' in {what} is not key:value")
        key = _ALIASES.get(parts[0], parts[0])
        values = tuple(v for v in parts[1].split("/") if v)
        if not values:
            raise RuleSyntaxError(f"'{pair}' in {what} has no value")
        if key in out:
            raise RuleSyntaxError(f"'{key}' is given twice in {what}")
        out[key] = values
    return out


def _index(raw: tuple[str, ...], key: str, what: str) -> int:
    if len(raw) != 1 or not _PLAIN_INT.match(raw[0]):
        shown = "/".join(raw)
        raise RuleSyntaxError(
            f"{key} '{shown}' in {what} is not a plain whole number (ZhoBLiMP evaluates it as Python)"
        )
    return int(raw[0])


def parse_lexical(text: str, what: str = "the rule") -> LexicalChoice:
    """Return the lexical choice written as `key:value ...` (with agreement keys).

    Raises:
        RuleSyntaxError: naming the pair that is not key:value or an index that is not an integer.
    """
    pairs = _key_values(text, what)
    agreements: list[Agreement] = []
    for agree, pos_key, pro_key in (
        (True, "matchedPosition", "matchedProperties"),
        (False, "mismatchedPosition", "mismatchedProperties"),
    ):
        if pos_key in pairs or pro_key in pairs:
            if pos_key not in pairs or pro_key not in pairs:
                raise RuleSyntaxError(f"{what} has one of {pos_key} / {pro_key} without the other")
            index = _index(pairs.pop(pos_key), pos_key, what)
            agreements.append(Agreement(index, pairs.pop(pro_key), agree))
    return LexicalChoice(pairs, tuple(agreements))


def _parse_phrase(text: str, what: str) -> PhraseChoice:
    head, _, rest = text.partition(" ")
    name = head[len("phrase:") :]
    if not name:
        raise RuleSyntaxError(f"{what} names no phrase after 'phrase:'")
    extras: list[tuple[int, dict[str, tuple[str, ...]]]] = []
    remainder = _PHRASE_EXTRA.sub(" ", rest).strip()
    if remainder:
        raise RuleSyntaxError(
            f"'{remainder}' after phrase:{name} in {what} is not an extra property like -1:<animate:1>"
        )
    for index, body in _PHRASE_EXTRA.findall(rest):
        if not _PLAIN_INT.match(index):
            raise RuleSyntaxError(f"'{index}' in {what} is not a plain whole-number index")
        properties = _key_values(body, what)
        if _AGREEMENT_KEYS & properties.keys():
            raise RuleSyntaxError(f"agreement keys cannot be added to a phrase's inner rule in {what}")
        extras.append((int(index), properties))
    return PhraseChoice(name, tuple(extras))


def parse_position(cell: str) -> ParsedPosition:
    """Return the choices of a position string, read the way ZhoBLiMP reads it.

    Raises:
        RuleSyntaxError: naming the choice (1-based) that cannot be read.
    """
    text = cell
    for short, long in _ALIASES.items():  # ZhoBLiMP rewrites the short names in the whole cell
        text = re.sub(rf"\b{short}:", f"{long}:", text)
    choices: list[Choice] = []
    warnings: list[str] = []
    raw_choices = text.strip().split("|")
    for number, raw in enumerate(raw_choices, start=1):
        choice = raw.strip()
        what = f"choice {number}" if len(raw_choices) > 1 else "the rule"
        if not _LEXICAL_START.match(choice):
            literals = tuple(choice.split())
            odd = [lit for lit in literals if ":" in lit]
            if odd:
                warnings.append(
                    f"{what}: the literal(s) {', '.join(odd)} look like key:value but ZhoBLiMP reads "
                    "the choice as literal words (it does not start with key:value); kept as words"
                )
            choices.append(DirectChoice(literals))
        elif choice.startswith("phrase:"):
            choices.append(_parse_phrase(choice, what))
        else:
            if "phrase" in choice:
                warnings.append(
                    f"{what}: contains 'phrase' but does not start with 'phrase:'; ZhoBLiMP would "
                    "try to read it as a phrase, it is read here as a lexical rule"
                )
            choices.append(parse_lexical(choice, what))
    return ParsedPosition(tuple(choices), tuple(warnings))
