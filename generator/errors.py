"""Every error the template engine reports, each with a code and the place it concerns."""

from __future__ import annotations

from dataclasses import dataclass

# Codes are stable: the web layer and tests key on them.
E_SYNTAX = "E_SYNTAX"  # the file is not valid YAML or not a template layout
E_FIELD = "E_FIELD"  # a required field is missing or has the wrong kind of value
E_RULE = "E_RULE"  # a position names no rule, or several
E_UNKNOWN_FEATURE = "E_UNKNOWN_FEATURE"
E_UNKNOWN_VALUE = "E_UNKNOWN_VALUE"
E_DANGLING_REF = "E_DANGLING_REF"  # a reference to a position that does not exist
E_DUPLICATE_ID = "E_DUPLICATE_ID"
E_UNKNOWN_PHRASE = "E_UNKNOWN_PHRASE"
E_NO_BASE_CASE = "E_NO_BASE_CASE"  # a recursive phrase that can never stop
E_SAME_GRAMMARS = "E_SAME_GRAMMARS"  # good and bad grammars can never differ
E_NO_CANDIDATE = "E_NO_CANDIDATE"  # a position no vocabulary item can fill
E_UNSATISFIABLE = "E_UNSATISFIABLE"  # constraints together leave no sentence
E_EDIT = "E_EDIT"  # copy/move/delete used inconsistently
E_VOCABULARY = "E_VOCABULARY"  # the vocabulary file itself could not be read
E_SHORTFALL = "E_SHORTFALL"  # fewer unique pairs exist than were asked for
E_INFLECTION = "E_INFLECTION"  # an unknown inflection tag
E_RESTRICTION = "E_RESTRICTION"  # `satisfies:` names a column that holds no (readable) restriction
E_UNEQUAL_LENGTH = "E_UNEQUAL_LENGTH"  # options.equal_length, but good and bad can never be as long


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a template, located as precisely as the check allows."""

    code: str
    message: str
    template: str = ""
    grammar: str = ""  # "good", "bad" or "phrase <Name>"
    position: str = ""  # the position's id or its 1-based number
    line: int | None = None
    key: str = ""  # the template's top-level key it concerns ("uid", "options", ...), if one

    def location(self) -> str:
        """Return 'file, line N, bad grammar, position 3' with the parts that are known."""
        parts = [p for p in (self.template,) if p]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.grammar:
            parts.append(self.grammar if self.grammar.startswith("phrase") else f"{self.grammar} grammar")
        if self.position:
            parts.append(f"position {self.position}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.location()
        return f"{where}: {self.message}" if where else self.message

    def to_dict(self) -> dict[str, object]:
        """Return the problem as plain data for JSON error responses."""
        return {
            "code": self.code,
            "message": self.message,
            "template": self.template,
            "grammar": self.grammar,
            "position": self.position,
            "line": self.line,
            "key": self.key,
        }


class TemplateError(Exception):
    """A template that cannot be used; carries every problem found, not only the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    @property
    def codes(self) -> list[str]:
        """Return the codes of the problems, in order."""
        return [p.code for p in self.problems]


class GenerationError(Exception):
    """Generation could not produce what was asked for; the message says why in plain words."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__(str(problem))


def did_you_mean(word: str, choices: object) -> str:
    """Return " (did you mean 'x'?)" for the closest of `choices` (case-insensitive), or ""."""
    import difflib

    by_lower: dict[str, str] = {}
    for choice in sorted(str(c) for c in choices):  # type: ignore[attr-defined]
        by_lower.setdefault(choice.lower(), choice)
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1)
    return f" (did you mean '{by_lower[close[0]]}'?)" if close else ""
