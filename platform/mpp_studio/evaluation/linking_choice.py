"""The linking functions (`scoring.linking`) a run's results can be compared by on the platform.

Results are computed from the recorded pair scores (each sentence's summed and mean
log-probability, its number of tokens and, once the project has the token frequencies of the
configuration's tokenizer, its unigram log-probability), so every function is offered: LP,
MeanLP, bits per token, SLLN-LP, LogNorm, PenLP, SLOR and MORCELA, with any parameters. Under
SLOR and MORCELA a pair without unigram log-probabilities counts as not scored
(`pair_outcomes.with_outcome`).
"""

from scoring.linking import LinkingError, LinkingFunction, default_linkings, parse_linking


class LinkingChoiceError(ValueError):
    """A linking function results cannot be compared by, in words."""


def read_linking(text: str) -> LinkingFunction:
    """Return the linking function written as `text` (`sum`, `slln:alpha=0.7`, ...).

    Raises:
        LinkingChoiceError: for text that is not a linking function, or a parameter out of range.
    """
    try:
        return parse_linking(text)
    except LinkingError as exc:
        raise LinkingChoiceError(f"Cannot compare sentences by “{text}”: {exc}.") from None


def linking_choices(current: str = "") -> list[tuple[str, str]]:
    """Return (key, label) of each function offered, with its source's parameters, and the
    function `current` (when it is another usable one, e.g. `slln:alpha=0.7`) after them."""
    offered = [(f.key, f.label) for f in default_linkings()]
    if current:
        try:
            chosen = read_linking(current)
        except LinkingChoiceError:
            return offered
        if chosen.key not in dict(offered):
            offered.append((chosen.key, chosen.label))
    return offered
