"""Read and write the `.schema.yaml` files that declare a vocabulary's features."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import yaml

from vocab.errors import E_SCHEMA, RowError, VocabularyError
from vocab.lexicon import FEATURE_TYPES, RESERVED_COLUMNS, FeatureSchema, FeatureSpec

_TOP_KEYS = ("language", "multi_separator", "features", "description", "name")
_SPEC_KEYS = ("type", "values", "multi", "description")


class _Yaml12Loader(yaml.SafeLoader):
    """A safe loader that reads only true/false as booleans (YAML 1.2).

    PyYAML follows YAML 1.1, where `values: [yes, no]` or `[on, off]` would silently become
    booleans; in a schema those are category values and must stay text.
    """


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, regex) for tag, regex in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    list("tTfF"),
)


# A schema is three or four levels deep; deeper nesting would exhaust Python's recursion while
# composing (a RecursionError instead of a message), so it is refused with its line first.
MAX_DEPTH = 64


def _too_deep_line(text: str) -> int | None:
    """Return the line where the YAML in `text` nests deeper than MAX_DEPTH, or None."""
    depth = 0
    # Parsing yields a flat stream of events, so measuring the depth cannot recurse itself.
    for event in yaml.parse(text, Loader=_Yaml12Loader):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                return event.start_mark.line + 1 if event.start_mark is not None else 1
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
    return None


def read_schema(path: str | Path) -> FeatureSchema:
    """Return the feature schema declared in a `.schema.yaml` file.

    Raises:
        VocabularyError: listing every problem (bad YAML, unknown type, ...) by feature and line.
        OSError: if the file cannot be read.
    """
    return load_schema(path)[0]


def load_schema(path: str | Path) -> tuple[FeatureSchema, str]:
    """Return the schema in a `.schema.yaml` file and its `language` ("" if not given).

    Raises:
        VocabularyError: listing every problem by feature and line.
        OSError: if the file cannot be read.
    """
    path = Path(path)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise VocabularyError(
            [RowError(path.name, line, None, "this line is not UTF-8 text; save the file as UTF-8", E_SCHEMA)]
        ) from None
    return schema_text_to_schema(text, file=path.name)


def schema_text_to_schema(text: str, *, file: str = "schema") -> tuple[FeatureSchema, str]:
    """Return the schema and language declared by the YAML `text` of a schema file.

    Raises:
        VocabularyError: listing every problem by feature and line.
    """
    try:
        deep = _too_deep_line(text)
        if deep is not None:
            message = f"the values are nested more than {MAX_DEPTH} levels deep"
            raise VocabularyError([RowError(file, deep, None, message, E_SCHEMA)])
        node = yaml.compose(text, Loader=_Yaml12Loader)
        data = yaml.load(text, Loader=_Yaml12Loader)  # a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise VocabularyError(
            [RowError(file, line, None, f"this is not valid YAML ({problem})", E_SCHEMA)]
        ) from None
    if data is None:
        data = {}
    return _parse(data, file=file, lines=_feature_lines(node))


def schema_from_dict(data: object, *, file: str = "schema") -> FeatureSchema:
    """Return the schema described by plain data in the `.schema.yaml` layout.

    Raises:
        VocabularyError: listing every problem, each naming the feature it concerns.
    """
    return _parse(data, file=file, lines={})[0]


def schema_to_dict(schema: FeatureSchema, language: str = "") -> dict[str, object]:
    """Return plain data in the `.schema.yaml` layout (with `language` first when given)."""
    out: dict[str, object] = {"language": language} if language else {}
    out.update(schema.to_dict())
    return out


def schema_to_yaml_text(schema: FeatureSchema, language: str = "") -> str:
    """Return the text of a `.schema.yaml` file declaring `schema` (and `language`)."""
    data = schema_to_dict(schema, language)
    text: str = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, default_flow_style=None)
    return text


def _feature_lines(node: yaml.Node | None) -> dict[str, int]:
    """Return feature name -> 1-based line of its key, for error messages."""
    if not isinstance(node, yaml.MappingNode):
        return {}
    for key, value in node.value:
        if (
            isinstance(key, yaml.ScalarNode)
            and key.value == "features"
            and isinstance(value, yaml.MappingNode)
        ):
            return {
                str(k.value): k.start_mark.line + 1 for k, _ in value.value if isinstance(k, yaml.ScalarNode)
            }
    return {}


def _parse(data: object, *, file: str, lines: Mapping[str, int]) -> tuple[FeatureSchema, str]:
    errors: list[RowError] = []

    def fail(message: str, feature: str | None = None) -> None:
        line = lines.get(feature) if feature is not None else None
        prefix = f"feature '{feature}': " if feature is not None else ""
        errors.append(RowError(file, line, None, prefix + message, E_SCHEMA))

    if not isinstance(data, Mapping):
        fail("a schema must be a mapping with a 'features' entry")
        raise VocabularyError(errors)
    for key in data:
        if key not in _TOP_KEYS:
            fail(f"unknown entry '{key}' (expected one of: {', '.join(_TOP_KEYS)})")

    language = data.get("language", "")
    if language is None:
        language = ""
    if not isinstance(language, str):
        fail(f"'language' must be a language code such as en or zh, not {language!r}")
        language = ""

    separator = data.get("multi_separator", "|")
    if not isinstance(separator, str) or not separator.strip():
        fail(f"'multi_separator' must be a non-blank text such as \"|\", not {separator!r}")
        separator = "|"

    raw_features = data.get("features", {})
    if raw_features is None:
        raw_features = {}
    features: dict[str, FeatureSpec] = {}
    if not isinstance(raw_features, Mapping):
        fail("'features' must map each feature name to its declaration")
        raw_features = {}
    for raw_name, raw_spec in raw_features.items():
        name = str(raw_name).strip()
        spec, problems = _parse_spec(name, raw_spec, separator)
        for problem in problems:
            fail(problem, name)
        if spec is not None:
            features[name] = spec

    if errors:
        raise VocabularyError(errors)
    return FeatureSchema(features=features, multi_separator=separator), language.strip()


def _parse_spec(name: str, raw: object, separator: str) -> tuple[FeatureSpec | None, list[str]]:
    """Return the spec declared for one feature, or None and the problems found."""
    problems: list[str] = []
    if not name:
        return None, ["a feature needs a name"]
    if name in RESERVED_COLUMNS:
        return None, [
            f"'{name}' is a built-in column ({', '.join(RESERVED_COLUMNS)}); do not declare it as a feature"
        ]
    if raw is None:
        raw = {}
    if isinstance(raw, str):  # shorthand: `animate: bool`
        raw = {"type": raw}
    if not isinstance(raw, Mapping):
        return None, ["the declaration must be a mapping such as {type: category, values: [sg, pl]}"]
    for key in raw:
        if key not in _SPEC_KEYS:
            problems.append(f"unknown entry '{key}' (expected one of: {', '.join(_SPEC_KEYS)})")

    ftype = raw.get("type", "category")
    if ftype not in FEATURE_TYPES:
        problems.append(f"type '{ftype}' is not one of: {', '.join(FEATURE_TYPES)}")

    multi = raw.get("multi", False)
    if not isinstance(multi, bool):
        problems.append(f"'multi' must be true or false, not {multi!r}")

    description = raw.get("description", "") or ""
    if not isinstance(description, str):
        problems.append("'description' must be text")

    values: tuple[str, ...] | None = None
    raw_values = raw.get("values")
    if raw_values is not None:
        if ftype not in ("category", "text"):
            problems.append(f"'values' can only be declared for category or text features, not {ftype}")
        elif not isinstance(raw_values, list) or any(
            isinstance(v, list | dict) or v is None for v in raw_values
        ):
            problems.append("'values' must be a list of values, e.g. [sg, pl]")
        else:
            seen: set[str] = set()
            for text in (_value_text(v) for v in raw_values):
                if not text:
                    problems.append("'values' contains a blank value")
                elif text in seen:
                    problems.append(f"value '{text}' is listed twice")
                elif multi is True and separator in text:
                    problems.append(f"value '{text}' contains the multi-value separator '{separator}'")
                seen.add(text)
            values = tuple(dict.fromkeys(_value_text(v) for v in raw_values if _value_text(v)))
    if problems:
        return None, problems
    spec = FeatureSpec(name=name, type=ftype, values=values, multi=bool(multi), description=description)
    return spec, []


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()
