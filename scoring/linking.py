"""Linking functions: how a sentence's summed log-probability becomes the score a pair compares.

Each is a reduction of the stored per-token scores, so nothing is scored again. With LP the
sentence's summed natural-log probability, n the number of scored tokens and U the sentence's
unigram log-probability under the same tokenizer (the sum of log unigram frequencies of its
tokens):

| name | score | source |
|---|---|---|
| `sum` (LP) | LP | |
| `mean` (MeanLP) | LP / n | |
| `bpt` (bits per token) | -LP / (n ln 2), lower is better | BLiSS |
| `slln` (SLLN-LP) | LP / n^alpha, 0 < alpha < 1, default 0.5 | ZhoBLiMP (Liu et al. 2024) |
| `lognorm` (LogNorm) | LP / ln(n + beta), beta > 0, default 1 | ZhoBLiMP |
| `penlp` (PenLP) | LP / ((5 + n) / 6)^alpha, alpha > 0, default 0.8 | Wu et al. 2016; Lau et al. 2020 |
| `slor` (SLOR) | (LP - U) / n | Pauls & Klein 2012; Lau et al. 2017 |
| `morcela` (MORCELA) | (LP - beta U + gamma) / n, defaults beta 1, gamma 0 | Tjuatja et al. 2025 |

ZhoBLiMP's `src/metrics.py` computes the same quantities (its `pow_norm_lp` is SLLN-LP and its
`log_norm_lp` is LogNorm, with the same defaults). A function is written as a key, its name
and parameters: `slln`, `slln:alpha=0.7`, `morcela:beta=0.9,gamma=1.5`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

from scoring.items import reduce_totals

LinkingName = Literal["sum", "mean", "bpt", "slln", "lognorm", "penlp", "slor", "morcela"]
LINKING_NAMES: tuple[LinkingName, ...] = get_args(LinkingName)

# Display names, in the papers' spelling.
_LABELS: dict[LinkingName, str] = {
    "sum": "LP",
    "mean": "MeanLP",
    "bpt": "bits per token",
    "slln": "SLLN-LP",
    "lognorm": "LogNorm",
    "penlp": "PenLP",
    "slor": "SLOR",
    "morcela": "MORCELA",
}
# Each function's parameters and their defaults (ZhoBLiMP's; PenLP's alpha is Lau et al.'s).
_DEFAULTS: dict[LinkingName, dict[str, float]] = {
    "sum": {},
    "mean": {},
    "bpt": {},
    "slln": {"alpha": 0.5},
    "lognorm": {"beta": 1.0},
    "penlp": {"alpha": 0.8},
    "slor": {},
    "morcela": {"beta": 1.0, "gamma": 0.0},
}


# What each score is, for a page that says how pairs were compared.
_UNITS: dict[LinkingName, str] = {
    "sum": "summed log-probability (nats; higher is better)",
    "mean": "mean log-probability per token (nats; higher is better)",
    "bpt": "bits per token (lower is better)",
    "slln": "summed log-probability over length to the power alpha (higher is better)",
    "lognorm": "summed log-probability over ln(length + beta) (higher is better)",
    "penlp": "summed log-probability over ((5 + length) / 6) to the power alpha (higher is better)",
    "slor": "log-probability above the unigram log-probability, per token (higher is better)",
    "morcela": "log-probability above beta times the unigram log-probability, plus gamma, per token "
    "(higher is better)",
}


class LinkingError(ValueError):
    """A linking function that cannot be used as written, in words."""


@dataclass(frozen=True, slots=True)
class LinkingFunction:
    """A linking function with its parameters (each defaults to the source's value)."""

    name: LinkingName
    params: tuple[tuple[str, float], ...] = ()

    @classmethod
    def of(cls, name: str, **params: float) -> LinkingFunction:
        """Return the function `name` with `params` over its defaults.

        Raises:
            LinkingError: for an unknown name, an unknown parameter, or a value out of range.
        """
        if name not in _DEFAULTS:
            raise LinkingError(f"unknown linking function '{name}' (choose from {', '.join(LINKING_NAMES)})")
        known = _DEFAULTS[name]
        for key in params:
            if key not in known:
                allowed = ", ".join(known) or "none"
                raise LinkingError(f"{name} has no parameter '{key}' (its parameters: {allowed})")
        values = {**known, **{key: float(value) for key, value in params.items()}}
        _check_range(name, values)
        return cls(name, tuple(sorted(values.items())))

    def param(self, key: str) -> float:
        """Return the value of parameter `key`."""
        return dict(self.params)[key]

    @property
    def higher_is_better(self) -> bool:
        """Whether a larger score means a more acceptable sentence (all but bits per token)."""
        return self.name != "bpt"

    @property
    def needs_unigram(self) -> bool:
        """Whether the score needs the sentence's unigram log-probability (SLOR, MORCELA)."""
        return self.name in ("slor", "morcela")

    @property
    def key(self) -> str:
        """The function as written: `slln:alpha=0.5`, or just the name when it has no
        parameters."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{key}={_number(value)}" for key, value in self.params)

    @property
    def label(self) -> str:
        """The function for a page: `SLLN-LP (alpha 0.5)`."""
        if not self.params:
            return _LABELS[self.name]
        return f"{_LABELS[self.name]} ({', '.join(f'{k} {_number(v)}' for k, v in self.params)})"

    @property
    def unit(self) -> str:
        """What the score is, in words (with its direction)."""
        return _UNITS[self.name]

    def score(self, lp_sum: float, n_tokens: int, unigram_lp: float | None = None) -> float:
        """Return a sentence's score from its summed log-prob over `n_tokens` scored tokens
        (and, for SLOR and MORCELA, its unigram log-prob under the same tokenizer).

        A sentence with no scored token has LP 0 and no length: `sum` gives 0, and every
        function that divides by a length gives 0 too, so such a pair ties.

        Raises:
            LinkingError: when SLOR or MORCELA get no unigram log-prob, or `n_tokens` < 0.
        """
        if n_tokens < 0:
            raise LinkingError(f"a sentence cannot have {n_tokens} scored tokens")
        if self.needs_unigram and unigram_lp is None:
            raise LinkingError(
                f"{_LABELS[self.name]} needs the sentence's unigram log-probability: add the token "
                "unigram frequencies of the model's tokenizer"
            )
        if self.name in ("sum", "mean", "bpt"):
            # the three reductions every page already offers keep their one owner
            mean = lp_sum / n_tokens if n_tokens else 0.0
            return reduce_totals(lp_sum, mean, self.name)
        if n_tokens == 0:
            return 0.0
        n = float(n_tokens)
        if self.name == "slln":
            return lp_sum / math.pow(n, self.param("alpha"))
        if self.name == "lognorm":
            return lp_sum / math.log(n + self.param("beta"))
        if self.name == "penlp":
            return lp_sum / math.pow((5.0 + n) / 6.0, self.param("alpha"))
        assert unigram_lp is not None
        if self.name == "slor":
            return (lp_sum - unigram_lp) / n
        return (lp_sum - self.param("beta") * unigram_lp + self.param("gamma")) / n


def default_linkings() -> list[LinkingFunction]:
    """Return every linking function with its source's parameters, in LINKING_NAMES order."""
    return [LinkingFunction.of(name) for name in LINKING_NAMES]


def parse_linking(text: str) -> LinkingFunction:
    """Return the linking function written as `name` or `name:key=value,key=value`.

    Raises:
        LinkingError: naming the part of `text` that cannot be read.
    """
    name, _, rest = text.strip().partition(":")
    params: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise LinkingError(f"'{part}' in '{text}' is not key=value (for example slln:alpha=0.5)")
        try:
            params[key.strip()] = float(value)
        except ValueError:
            raise LinkingError(f"'{value.strip()}' in '{text}' is not a number") from None
    return LinkingFunction.of(name.strip(), **params)


def _check_range(name: str, values: dict[str, float]) -> None:
    for key, value in values.items():
        if not math.isfinite(value):
            raise LinkingError(f"{name}: {key} must be a finite number, not {value}")
    if name == "slln" and not 0.0 < values["alpha"] < 1.0:
        raise LinkingError(f"slln: alpha must lie strictly between 0 and 1, not {_number(values['alpha'])}")
    if name == "lognorm" and values["beta"] <= 0.0:
        raise LinkingError(f"lognorm: beta must be above 0 (ln(n + beta) > 0), not {_number(values['beta'])}")
    if name == "penlp" and values["alpha"] <= 0.0:
        raise LinkingError(f"penlp: alpha must be above 0, not {_number(values['alpha'])}")


def _number(value: float) -> str:
    return f"{value:g}"
