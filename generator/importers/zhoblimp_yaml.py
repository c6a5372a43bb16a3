"""Write converted templates and phrases as YAML in our layout: one position per line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml


class _FlowDict(dict[str, Any]):
    """A mapping written on one line (`{id: p0, phrase: Person}`)."""


class _Dumper(yaml.SafeDumper):
    pass


def _flow(dumper: yaml.SafeDumper, data: _FlowDict) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)


_Dumper.add_representer(_FlowDict, _flow)


def _positions(alternative: list[Any]) -> list[Any]:
    return [_FlowDict(p) if isinstance(p, dict) else p for p in alternative]


def _phrases(phrases: Mapping[str, list[list[Any]]]) -> dict[str, Any]:
    return {name: [_positions(alt) for alt in alts] for name, alts in phrases.items()}


def _dump(data: Any) -> str:
    text: str = yaml.dump(
        data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=10_000, default_flow_style=False
    )
    return text


def template_yaml(data: Mapping[str, Any]) -> str:
    """Return the YAML text of a converted template (plain data in our template layout)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("good", "bad"):
            out[key] = _positions(value)
        elif key == "phrases":
            out[key] = _phrases(value)
        else:
            out[key] = value
    return _dump(out)


def phrases_yaml(phrases: Mapping[str, list[list[Any]]], header: str = "") -> str:
    """Return the YAML text of a phrase file (name -> alternatives), after an optional comment."""
    comment = "".join(f"# {line}\n" for line in header.splitlines())
    return comment + (_dump(_phrases(phrases)) if phrases else "{}\n")


def alternatives_yaml(alternatives: list[list[Any]]) -> str:
    """Return the YAML text of one phrase's alternatives (how the platform stores a phrase)."""
    return _dump([_positions(alt) for alt in alternatives])
