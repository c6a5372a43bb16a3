"""A template as plain data (a document), read from YAML and written back as canonical YAML.

A document is what the engine's YAML reader (`generator.source.load_yaml`) makes of a template,
as plain dicts, lists, strings and None: every scalar stays the text the author wrote, so `no`,
`on` or `1` are never turned into booleans or numbers. `document_to_text` writes a document in
one standard layout that the engine reads back to the same data (the same content hash):

- the metadata and options as a block mapping, in the order docs/template-format.md uses;
- `example:` and each position on one line, in flow style (`{id: subj, lexical: {pos: NN}}`),
  each phrase alternative as one flow list;
- a string in quotes where a YAML reader would misread it (`"1"`, `"no"`, `"?"`, `""`).

Comments and the author's own layout are not part of a document: only the YAML view of the
editor keeps them.
"""

import re
from typing import Any

import yaml

from generator.source import LocatedDict, SourceError, load_yaml
from generator.template import OPTION_KEYS, POSITION_KEYS, TOP_KEYS

# The order keys are written in (the engine's lists); keys a document has beyond these follow in
# their own order.
EXAMPLE_KEYS = ("good", "bad")

# Keys of the template format are written bare even where YAML 1.1 would read them as booleans
# (`on:`): the engine reads every scalar as text. Option values and `uncapped` mean numbers and
# booleans anyway, so they are written bare too (`max_depth: 5`, `uncapped: true`).
_FORMAT_WORDS = frozenset(TOP_KEYS + OPTION_KEYS + POSITION_KEYS + EXAMPLE_KEYS)

# Wide enough that no line is ever folded: a position stays on its line whatever its length.
_NO_WRAP = 1_000_000_000


class DocumentError(Exception):
    """Text that is not a template document: not YAML, or YAML that is not a mapping."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


def document_from_text(text: str) -> dict[str, Any]:
    """Return the template document in YAML `text` as plain data (empty text: an empty document).

    Raises:
        DocumentError: if the text is not YAML (with the line where reading stopped) or its
            top level is not a mapping of fields.
    """
    try:
        data = load_yaml(text)
    except SourceError as exc:
        raise DocumentError(str(exc), exc.line) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        line = getattr(data, "line", 1)
        raise DocumentError(
            "a template must be a mapping of fields (uid:, phenomenon:, good:, bad:, ...), "
            "not a list or a single value",
            line,
        )
    document: dict[str, Any] = plain(data)
    return document


def position_from_text(text: str) -> Any:
    """Return the plain data of one position written as YAML (`{direct: the}`).

    Raises:
        DocumentError: if the text is not YAML.
    """
    try:
        return plain(load_yaml(text))
    except SourceError as exc:
        raise DocumentError(str(exc), exc.line) from None


def text_with_uid(text: str, uid: str) -> str:
    """Return a template's YAML text naming another `uid`, everything else kept as written.

    The `uid:` line is rewritten in place (a comment after it stays); a text whose uid is not on
    a line of its own, or that has none, is written anew in the canonical layout.

    Raises:
        DocumentError: if the text is not a template document.
    """
    document = document_from_text(text)
    data = load_yaml(text)
    line = data.line_of("uid") if isinstance(data, LocatedDict) and "uid" in data else None
    lines = text.splitlines(keepends=True)
    if line is not None and 1 <= line <= len(lines):
        found = _UID_LINE.match(lines[line - 1])
        if found is not None:
            value = yaml.dump(uid, Dumper=_Dumper, default_flow_style=True, width=_NO_WRAP)
            value = value.removesuffix("\n...\n").rstrip("\n")
            lines[line - 1] = f"uid: {value}{found.group('comment') or ''}{found.group('end')}"
            return "".join(lines)
    return document_to_text({"uid": uid, **{k: v for k, v in document.items() if k != "uid"}})


# A top-level `uid:` line with a plain or quoted value and perhaps a comment.
_UID_LINE = re.compile(
    r"^uid:[ \t]*(?:'[^']*'|\"[^\"]*\"|[^#'\"\s][^#]*?)?(?P<comment>[ \t]+#.*?)?(?P<end>\r?\n?)$"
)


def plain(value: Any) -> Any:
    """Return `value` with the reader's located dicts and lists turned into plain ones."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def document_to_text(document: dict[str, Any]) -> str:
    """Return the document as canonical YAML, which `document_from_text` reads back unchanged."""
    styled = _Block({_Word(k) if k in _FORMAT_WORDS else k: v for k, v in _top_items(document)})
    text: str = yaml.dump(
        styled,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=_NO_WRAP,
        default_flow_style=False,
    )
    return text


def position_to_text(position: Any) -> str:
    """Return one position as a single line of flow YAML (`{id: subj, lexical: {pos: NN}}`)."""
    text: str = yaml.dump(
        _flow(position, position_level=True),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=_NO_WRAP,
        default_flow_style=True,
    )
    # A lone scalar ends with the document-end marker; neither it nor the newline belongs here.
    return text.removesuffix("\n...\n").rstrip("\n")


# -- layout ---------------------------------------------------------------------------------------


def _ordered(mapping: dict[str, Any], order: tuple[str, ...]) -> list[tuple[str, Any]]:
    known = [(k, mapping[k]) for k in order if k in mapping]
    return known + [(k, v) for k, v in mapping.items() if k not in order]


def _top_items(document: dict[str, Any]) -> list[tuple[str, Any]]:
    out = []
    for key, value in _ordered(document, TOP_KEYS):
        if key == "example" and isinstance(value, dict):
            styled: Any = _Flow({_word(k): _flow(v) for k, v in _ordered(value, EXAMPLE_KEYS)})
        elif key == "options" and isinstance(value, dict):
            styled = _Block(
                {
                    _word(k): _Word(v) if isinstance(v, str) else _flow(v)
                    for k, v in _ordered(value, OPTION_KEYS)
                }
            )
        elif key == "phrase_files" and isinstance(value, list):
            styled = _flow(value)
        elif key == "phrases" and isinstance(value, dict):
            styled = _Block({name: _alternatives(alts) for name, alts in value.items()})
        elif key in ("good", "bad") and isinstance(value, list):
            styled = _BlockList([_flow(p, position_level=True) for p in value])
        else:
            styled = _block(value)
        out.append((key, styled))
    return out


def _alternatives(value: Any) -> Any:
    if not isinstance(value, list):
        return _block(value)
    return _BlockList(
        [
            _FlowList([_flow(p, position_level=True) for p in alt]) if isinstance(alt, list) else _flow(alt)
            for alt in value
        ]
    )


def _word(key: str) -> str:
    return _Word(key) if key in _FORMAT_WORDS else key


def _block(value: Any) -> Any:
    """Style a value of unknown meaning: mappings and lists as blocks, all the way down."""
    if isinstance(value, dict):
        return _Block({k: _block(v) for k, v in value.items()})
    if isinstance(value, list):
        return _BlockList([_block(v) for v in value])
    return value


def _flow(value: Any, *, position_level: bool = False) -> Any:
    """Style a value for one line: flow mappings and lists; a position's keys in canonical order."""
    if isinstance(value, dict):
        items = _ordered(value, POSITION_KEYS) if position_level else list(value.items())
        return _Flow(
            {
                _word(k) if position_level else k: _Word(v)
                if position_level and k == "uncapped" and isinstance(v, str)
                else _flow(v)
                for k, v in items
            }
        )
    if isinstance(value, list):
        return _FlowList([_flow(v) for v in value])
    return value


# -- YAML writing ---------------------------------------------------------------------------------


class _Block(dict[str, Any]):
    pass


class _Flow(dict[str, Any]):
    pass


class _BlockList(list[Any]):
    pass


class _FlowList(list[Any]):
    pass


class _Key(str):
    """A mapping key: never a literal block."""

    __slots__ = ()


class _Word(str):
    """A string written bare whenever plain YAML can hold it, even `on`, `yes` or `5`."""

    __slots__ = ()


class _Dumper(yaml.SafeDumper):
    """SafeDumper with indented block lists, double quotes and no anchors."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        # Block lists under a key are indented (`good:\n  - {...}`), as in the documentation.
        return super().increase_indent(flow, False)

    def choose_scalar_style(self) -> str:
        style: str = super().choose_scalar_style()
        # Double quotes can hold anything and read like the documentation's examples.
        return '"' if style == "'" else style

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_map(flow: bool) -> Any:
    def represent(dumper: yaml.SafeDumper, data: dict[str, Any]) -> yaml.Node:
        items = [(k if isinstance(k, _Word) else _Key(k), v) for k, v in data.items()]
        return dumper.represent_mapping("tag:yaml.org,2002:map", items, flow_style=flow)

    return represent


def _represent_list(flow: bool) -> Any:
    def represent(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)

    return represent


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    # Several lines in a block: a literal block (`|`), where the emitter can write one and the
    # reader gives back the same breaks (it reads NEL, CR and the Unicode separators as "\n").
    literal = "\n" in data and not any(ch in data for ch in "\r\x85\u2028\u2029")
    return yaml.ScalarNode("tag:yaml.org,2002:str", str(data), style="|" if literal else None)


def _represent_key(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", str(data))


def _represent_word(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    # Tagged as whatever a plain scalar with this text would resolve to, the node may be
    # written plain; the emitter still quotes text that plain YAML cannot hold (`""`, `a: b`).
    text = str(data)
    tag = dumper.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]  # PyYAML's stubs leave it untyped
    if tag == "tag:yaml.org,2002:null":
        tag = "tag:yaml.org,2002:str"  # "~" or "" are not None: keep them quoted
    return yaml.ScalarNode(tag, text)


_Dumper.add_representer(_Block, _represent_map(False))
_Dumper.add_representer(_Flow, _represent_map(True))
_Dumper.add_representer(dict, _represent_map(False))
_Dumper.add_representer(_BlockList, _represent_list(False))
_Dumper.add_representer(_FlowList, _represent_list(True))
_Dumper.add_representer(list, _represent_list(False))
_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(_Word, _represent_word)
_Dumper.add_representer(_Key, _represent_key)
