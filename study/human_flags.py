"""Flags from a native-speaker validation study: paradigms below the researcher's threshold,
items the raters split on or the majority got "wrong", and words that recur in such items.

Each flag names what to fix: a paradigm, an item, or a template position and the word it
produced, with the item ids, so the author can change the vocabulary or the template,
regenerate, and validate only what changed.

An item *disagrees* when the majority did not side with gold: the majority chose the other
sentence, or the raters split evenly (a tie counts as disagreeing here whatever the tie rule for
accuracy, so a word is reviewed rather than waved through).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from study.agreement import GroupAgreement, ItemAgreement, ItemInfo, WordUse, as_dict
from study.items import item_sort_key

ParadigmMetric = Literal["micro", "macro", "majority_share"]
PARADIGM_METRICS: tuple[ParadigmMetric, ...] = ("micro", "macro", "majority_share")
# Shares such as 4/5 are compared with thresholds such as 0.8; allow for float rounding.
_EPSILON = 1e-9

ITEM_MAJORITY_DISAGREES = "majority_disagrees"
ITEM_TIE = "tie"
ITEM_SPLIT = "split"


@dataclass(frozen=True, slots=True)
class ParadigmRule:
    """Flag a paradigm whose `metric` is below `threshold`: "micro" (pooled responses),
    "macro" (mean item accuracy) or "majority_share" (share of items whose majority sided with
    gold, ties counted by the study's tie rule). `name` says where the rule comes from."""

    metric: ParadigmMetric
    threshold: float
    name: str = ""

    def __post_init__(self) -> None:
        if self.metric not in PARADIGM_METRICS:
            raise ValueError(
                f"unknown paradigm metric '{self.metric}' (choose from {', '.join(PARADIGM_METRICS)})"
            )
        if not 0.0 <= self.threshold <= 1.0:
            raise ValueError(f"a paradigm threshold is a share between 0 and 1, got {self.threshold}")

    def value(self, paradigm: GroupAgreement) -> float:
        """Return the paradigm's value of this rule's metric."""
        if self.metric == "micro":
            return paradigm.micro
        if self.metric == "macro":
            return paradigm.macro
        return paradigm.majority_accuracy

    def failure(self, paradigm: GroupAgreement) -> str | None:
        """Return why the paradigm fails this rule, in words, or None when it passes."""
        value = self.value(paradigm)
        if value >= self.threshold - _EPSILON:
            return None
        source = f" ({self.name})" if self.name else ""
        if self.metric == "micro":
            what = (
                f"micro accuracy is {value:.1%} ({paradigm.correct} of {paradigm.n_responses} "
                "responses chose the gold sentence)"
            )
        elif self.metric == "macro":
            what = f"mean item accuracy is {value:.1%}"
        else:
            what = (
                f"the majority sided with gold on {paradigm.majority_correct:g} of "
                f"{paradigm.n_items} items ({value:.0%})"
            )
        return f"{what[0].upper()}{what[1:]}, below {self.threshold:.0%}{source}."

    def to_dict(self) -> dict[str, object]:
        """Return the rule as a JSON-ready dict."""
        return as_dict(self)


# ZhoBLiMP dropped paradigms under ~70 % pooled agreement (every kept paradigm >= 0.714);
# BLiMP kept a paradigm when the majority agreed on >= 4 of its 5 pairs, i.e. a share of 0.8.
ZHOBLIMP_RULE = ParadigmRule("micro", 0.70, "ZhoBLiMP")
BLIMP_RULE = ParadigmRule("majority_share", 0.8, "BLiMP")
PARADIGM_PRESETS: dict[str, ParadigmRule] = {"zhoblimp": ZHOBLIMP_RULE, "blimp": BLIMP_RULE}


def paradigm_preset(name: str, threshold: float | None = None) -> ParadigmRule:
    """Return the preset rule `name` ("zhoblimp" or "blimp"), with the researcher's threshold
    when given.

    Raises:
        ValueError: for an unknown preset or a threshold outside 0..1.
    """
    if name not in PARADIGM_PRESETS:
        raise ValueError(f"unknown paradigm preset '{name}' (choose from {', '.join(PARADIGM_PRESETS)})")
    rule = PARADIGM_PRESETS[name]
    return rule if threshold is None else ParadigmRule(rule.metric, threshold, rule.name)


@dataclass(frozen=True, slots=True)
class FlagSettings:
    """What gets flagged.

    - `paradigm_rules`: a paradigm failing any of them is flagged (default: ZhoBLiMP's 0.70).
    - `chance_alpha`: also flag a paradigm whose one-sided test against 0.5 is not below this
      after Holm's correction across paradigms (None: off; few responses per paradigm cannot
      reach significance, so it is off by default).
    - `min_item_agreement`: flag an item whose raters' observed agreement P_i is below this
      (0.5 flags a 3-2 split of five, not 4-1; None: off).
    - `word_threshold`, `prior_strength`, `min_disagreeing_items`: a (position, word) is flagged
      when it occurs in at least `min_disagreeing_items` disagreeing items and its pooled
      accuracy, shrunk towards the study's overall accuracy by a Beta prior worth
      `prior_strength` responses, is below `word_threshold`.
    """

    paradigm_rules: tuple[ParadigmRule, ...] = (ZHOBLIMP_RULE,)
    chance_alpha: float | None = None
    min_item_agreement: float | None = 0.5
    word_threshold: float = 0.70
    prior_strength: float = 10.0
    min_disagreeing_items: int = 2

    def __post_init__(self) -> None:
        if self.chance_alpha is not None and not 0.0 < self.chance_alpha < 1.0:
            raise ValueError(f"chance_alpha is between 0 and 1, got {self.chance_alpha}")
        if not 0.0 <= self.word_threshold <= 1.0:
            raise ValueError(f"word_threshold is a share between 0 and 1, got {self.word_threshold}")
        if self.prior_strength < 0:
            raise ValueError(f"prior_strength cannot be negative, got {self.prior_strength}")
        if self.min_disagreeing_items < 1:
            raise ValueError(f"min_disagreeing_items must be at least 1, got {self.min_disagreeing_items}")

    def to_dict(self) -> dict[str, object]:
        """Return the settings as a JSON-ready dict."""
        return as_dict(self)


@dataclass(frozen=True, slots=True)
class ParadigmFlag:
    """A paradigm that failed a rule: `rules` names them (rule name or metric, "chance"),
    `messages` say why in words, `disagreeing_item_ids` are its items to look at first."""

    paradigm: str
    phenomenon: str
    rules: tuple[str, ...]
    messages: tuple[str, ...]
    disagreeing_item_ids: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        """Return the flag as a JSON-ready dict."""
        return as_dict(self)


def flag_paradigms(
    paradigms: Sequence[GroupAgreement], items: Sequence[ItemAgreement], settings: FlagSettings
) -> tuple[ParadigmFlag, ...]:
    """Return a ParadigmFlag for every paradigm failing a rule in `settings`, in input order."""
    flags = []
    for paradigm in paradigms:
        failed: dict[str, str] = {}
        for rule in settings.paradigm_rules:
            message = rule.failure(paradigm)
            if message is not None:
                failed[rule.name or rule.metric] = message
        if settings.chance_alpha is not None and paradigm.p_holm >= settings.chance_alpha:
            failed["chance"] = (
                f"Not above chance: one-sided binomial p = {paradigm.p_value:.3g}, "
                f"{paradigm.p_holm:.3g} after Holm's correction (needs < {settings.chance_alpha:g})."
            )
        if failed:
            flags.append(
                ParadigmFlag(
                    paradigm=paradigm.name,
                    phenomenon=paradigm.phenomenon,
                    rules=tuple(failed),
                    messages=tuple(failed.values()),
                    disagreeing_item_ids=tuple(
                        i.item_id for i in items if i.paradigm == paradigm.name and i.disagrees
                    ),
                )
            )
    return tuple(flags)


@dataclass(frozen=True, slots=True)
class ItemFlag:
    """An item to review: `reasons` are `majority_disagrees`, `tie` or `split` (raters' P_i
    below the setting); `words` are the template positions and words it was built from."""

    item_id: str
    paradigm: str
    phenomenon: str
    correct: int
    n: int
    observed_agreement: float | None
    reasons: tuple[str, ...]
    messages: tuple[str, ...]
    words: tuple[WordUse, ...]

    def to_dict(self) -> dict[str, object]:
        """Return the flag as a JSON-ready dict."""
        return as_dict(self)


def flag_items(
    items: Sequence[ItemAgreement], info: Iterable[ItemInfo], settings: FlagSettings
) -> tuple[ItemFlag, ...]:
    """Return an ItemFlag for every item whose majority chose the other sentence, whose raters
    tied, or whose observed agreement is below `settings.min_item_agreement`, in input order."""
    words = {i.item_id: i.words for i in info}
    flags = []
    for item in items:
        failed: dict[str, str] = {}
        chose = f"{item.correct} of {item.n} chose the gold sentence"
        if 2 * item.correct < item.n:
            failed[ITEM_MAJORITY_DISAGREES] = f"The majority chose the other sentence ({chose})."
        elif item.tie:
            failed[ITEM_TIE] = f"The raters split evenly ({chose})."
        floor = settings.min_item_agreement
        if floor is not None and item.observed_agreement is not None and item.observed_agreement < floor:
            failed[ITEM_SPLIT] = (
                f"Raters disagree with each other: {item.observed_agreement:.0%} of rater pairs agree "
                f"(flagged below {floor:.0%})."
            )
        if failed:
            flags.append(
                ItemFlag(
                    item_id=item.item_id,
                    paradigm=item.paradigm,
                    phenomenon=item.phenomenon,
                    correct=item.correct,
                    n=item.n,
                    observed_agreement=item.observed_agreement,
                    reasons=tuple(failed),
                    messages=tuple(failed.values()),
                    words=words.get(item.item_id, ()),
                )
            )
    return tuple(flags)


@dataclass(frozen=True, slots=True)
class WordAgreement:
    """Pooled agreement of the items a template position filled with a word.

    `correct` of `n` responses over `item_ids` chose the gold sentence (`accuracy`);
    `shrunk_accuracy` = (correct + s*mu) / (n + s), the posterior mean under a Beta(s*mu,
    s*(1-mu)) prior with mu the study's overall accuracy and s the prior strength;
    `p_below_threshold` = posterior P(accuracy < threshold). `flagged` with a `message` when it
    is in at least the set number of disagreeing items and `shrunk_accuracy` is below the
    threshold.
    """

    position: str
    word: str
    paradigms: tuple[str, ...]
    item_ids: tuple[str, ...]
    disagreeing_item_ids: tuple[str, ...]
    correct: int
    n: int
    accuracy: float
    shrunk_accuracy: float
    p_below_threshold: float
    flagged: bool
    message: str

    def to_dict(self) -> dict[str, object]:
        """Return the word's numbers as a JSON-ready dict (also the words CSV row, with ids
        joined by ';')."""
        return as_dict(self)


def _p_below(threshold: float, a: float, b: float) -> float:
    """Return P(X < threshold) for X ~ Beta(a, b), reading a zero parameter as a point mass."""
    if b <= 0:
        return 1.0 if threshold > 1.0 else 0.0
    if a <= 0:
        return 1.0 if threshold > 0.0 else 0.0
    from scipy.stats import beta  # imported when used: scipy.stats takes ~0.5 s to import

    return float(beta.cdf(threshold, a, b))


def word_agreement(
    items: Sequence[ItemAgreement], info: Iterable[ItemInfo], prior_mean: float, settings: FlagSettings
) -> tuple[WordAgreement, ...]:
    """Return the WordAgreement of every (position, word) used by an item with responses,
    flagged ones first, then by shrunk accuracy, position and word. `prior_mean` is the
    study's overall accuracy (the prior the pooled accuracies shrink towards)."""
    by_id = {i.item_id: i for i in items}
    members: dict[tuple[str, str], list[ItemAgreement]] = defaultdict(list)
    for entry in info:
        item = by_id.get(entry.item_id)
        if item is None:
            continue
        for use in dict.fromkeys(entry.words):  # a word used twice by one item counts once
            members[(use.position, use.word)].append(item)
    strength = settings.prior_strength
    a0, b0 = strength * prior_mean, strength * (1 - prior_mean)
    out = []
    for (position, word), pooled in members.items():
        correct = sum(i.correct for i in pooled)
        n = sum(i.n for i in pooled)
        shrunk = (correct + a0) / (n + strength)  # n >= 1: only items with responses
        disagreeing = tuple(sorted((i.item_id for i in pooled if i.disagrees), key=item_sort_key))
        paradigms = tuple(sorted({i.paradigm for i in pooled}))
        flagged = (
            len(disagreeing) >= settings.min_disagreeing_items and shrunk < settings.word_threshold - _EPSILON
        )
        message = ""
        if flagged:
            message = (
                f"'{word}' at position {position} is in {len(disagreeing)} items where the majority "
                f"did not side with gold ({', '.join(disagreeing)}; "
                f"{'paradigms' if len(paradigms) > 1 else 'paradigm'} {', '.join(paradigms)}): "
                f"{correct} of {n} responses chose the gold sentence, "
                f"{shrunk:.0%} after shrinking towards the study's {prior_mean:.0%}, "
                f"below {settings.word_threshold:.0%}."
            )
        out.append(
            WordAgreement(
                position=position,
                word=word,
                paradigms=paradigms,
                item_ids=tuple(sorted((i.item_id for i in pooled), key=item_sort_key)),
                disagreeing_item_ids=disagreeing,
                correct=correct,
                n=n,
                accuracy=correct / n,
                shrunk_accuracy=shrunk,
                p_below_threshold=_p_below(settings.word_threshold, correct + a0, n - correct + b0),
                flagged=flagged,
                message=message,
            )
        )
    out.sort(key=lambda w: (not w.flagged, w.shrunk_accuracy, w.position, w.word))
    return tuple(out)
