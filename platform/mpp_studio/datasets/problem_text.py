"""Engine problems (stored as `Problem.to_dict()` dicts) summed up in one line of plain words."""

from collections.abc import Mapping, Sequence


def problem_summary(problems: Sequence[Mapping[str, object]], *, empty: str = "") -> str:
    """Return the first problem with its line, and how many more there are.

    E.g. "line 9: number: 'dual' is not one of the declared values (sg, pl) (and 2 more)".
    """
    if not problems:
        return empty
    first = problems[0]
    line = f"line {first['line']}: " if first.get("line") else ""
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{line}{str(first.get('message', '')).strip()}{more}"
