"""The linking functions (`scoring.linking`) a run's results can be compared by on the platform.

Results are computed from the recorded pair scores (each sentence's summed and mean
log-probability and its number of tokens), so every function of those is offered: LP, MeanLP,
bits per token, SLLN-LP, LogNorm and PenLP, with any parameters. SLOR and MORCELA also need each
sentence's unigram log-probability under the model's tokenizer, which pair scores do not hold;
`mpp score --unigram-frequencies` computes them.
"""

from scoring.linking import LinkingError, LinkingFunction, default_linkings, parse_linking


class LinkingChoiceError(ValueError):
    """A linking function results cannot be compared by, in words."""


def read_linking(text: str) -> LinkingFunction:
    """Return the linking function written as `text` (`sum`, `slln:alpha=0.7`, ...).

    Raises:
        LinkingChoiceError: for text that is not a linking function, a parameter out of range,
            or SLOR and MORCELA.
    """
    try:
        linking = parse_linking(text)
    except LinkingError as exc:
        raise LinkingChoiceError(f"Cannot compare sentences by “{text}”: {exc}.") from None
    if linking.needs_unigram:
        raise LinkingChoiceError(
            f"Cannot compare sentences by {linking.label} here: it needs each sentence's unigram "
            "log-probability under the model's tokenizer, which the platform does not store with "
            "its scores. `mpp score --unigram-frequencies` computes SLOR and MORCELA."
        )
    return linking


def linking_choices(current: str = "") -> list[tuple[str, str]]:
    """Return (key, label) of each function offered, with its source's parameters, and the
    function `current` (when it is another usable one, e.g. `slln:alpha=0.7`) after them."""
    offered = [(f.key, f.label) for f in default_linkings() if not f.needs_unigram]
    if current:
        try:
            chosen = read_linking(current)
        except LinkingChoiceError:
            return offered
        if chosen.key not in dict(offered):
            offered.append((chosen.key, chosen.label))
    return offered
