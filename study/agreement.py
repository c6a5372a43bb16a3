"""Agreement with the gold label in native-speaker validation studies (plain Python, no Django).

The input is one `Judgement` per answer a participant gave: whether they chose the
gold-acceptable sentence, with the item's paradigm and phenomenon and the trial's kind (catch,
practice, filler or experimental). `study.exclusion` decides whose answers are analysed;
`analysed_responses` keeps their experimental trials and `agreement_with_gold` gives per-item,
per-paradigm, per-phenomenon and overall accuracies.

Weighting, stated once for every level: *micro* pools the responses (correct / responses,
ZhoBLiMP's `acc`), *macro* is the mean of the item accuracies, and *majority* is the mean of
the items' majority-vote credits (BLiMP's "aggregate agreement"). The overall micro accuracy is
BLiMP's "individual agreement". Tie rule for an even split: "half" (0.5 credit, default) or
"fail" (0, the conservative choice).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Literal, overload

from scoring.stats import bootstrap_ci, holm, json_float, wilson_interval
from study.items import item_sort_key

TieRule = Literal["half", "fail"]
TIE_RULES: tuple[TieRule, ...] = ("half", "fail")


@dataclass(frozen=True, slots=True)
class Judgement:
    """One answer: `correct` is True when the participant chose the gold-acceptable sentence.

    `chose_left` is the screen side chosen (None when not recorded), `rt_ms` the response time.
    A trial is experimental unless it is a catch, practice or filler trial.
    """

    item_id: str
    participant_id: str
    correct: bool
    paradigm: str = ""
    phenomenon: str = ""
    rt_ms: float | None = None
    chose_left: bool | None = None
    is_catch: bool = False
    is_practice: bool = False
    is_filler: bool = False

    @property
    def is_experimental(self) -> bool:
        """Return True for a trial that counts towards agreement with gold."""
        return not (self.is_catch or self.is_practice or self.is_filler)


@dataclass(frozen=True, slots=True)
class WordUse:
    """A word an item contains and the template position (slot) that produced it."""

    position: str
    word: str


@dataclass(frozen=True, slots=True)
class ItemInfo:
    """Where an item came from: its paradigm, phenomenon and the words each position filled."""

    item_id: str
    paradigm: str
    phenomenon: str
    words: tuple[WordUse, ...] = ()


@dataclass(frozen=True, slots=True)
class ParticipantInfo:
    """A participant who started the study, whether they completed it, and their list.

    Participants seen only in judgements are taken as started and completed, in list "".
    """

    participant_id: str
    completed: bool = True
    list_id: str = ""


def observed_agreement(counts: Sequence[int]) -> float | None:
    """Return an item's observed rater agreement P_i = (sum_c n_c^2 - n) / (n (n - 1)), the
    share of rater pairs that chose the same category (None with fewer than two raters)."""
    n = sum(counts)
    if n < 2:
        return None
    return (sum(c * c for c in counts) - n) / (n * (n - 1))


def majority_credit(correct: int, n: int, tie: TieRule = "half") -> float:
    """Return the majority vote's credit: 1.0 when more than half chose the gold sentence, 0.0
    when fewer did, and for an even split 0.5 under tie rule "half" or 0.0 under "fail".

    Raises:
        ValueError: for an unknown tie rule or no responses.
    """
    if tie not in TIE_RULES:
        raise ValueError(f"unknown tie rule '{tie}' (choose from {', '.join(TIE_RULES)})")
    if n <= 0:
        raise ValueError("a majority vote needs at least one response")
    if 2 * correct > n:
        return 1.0
    if 2 * correct < n:
        return 0.0
    return 0.5 if tie == "half" else 0.0


def one_sided_binomial(k: int, n: int) -> float:
    """Return P(X >= k) for X ~ Binomial(n, 0.5): the one-sided test of agreement above chance
    (1.0 with no responses)."""
    if n <= 0:
        return 1.0
    from scipy.stats import binom  # imported when used: scipy.stats takes ~0.5 s to import

    return float(min(1.0, binom.sf(k - 1, n, 0.5)))


@dataclass(frozen=True, slots=True)
class ItemAgreement:
    """Agreement with gold on one item: `correct` of `n` analysed responses chose the gold
    sentence; Wilson interval on that share; `majority` the majority vote's credit under the tie
    rule; `observed_agreement` the raters' P_i (None with one response)."""

    item_id: str
    paradigm: str
    phenomenon: str
    correct: int
    n: int
    accuracy: float
    wilson_low: float
    wilson_high: float
    majority: float
    tie: bool
    observed_agreement: float | None

    @property
    def disagrees(self) -> bool:
        """Return True when the majority did not side with gold (majority wrong, or a tie)."""
        return 2 * self.correct <= self.n

    def to_dict(self) -> dict[str, object]:
        """Return the item's numbers as a JSON-ready dict (also the items CSV row)."""
        return as_dict(self, disagrees=self.disagrees)


@dataclass(frozen=True, slots=True)
class GroupAgreement:
    """Agreement with gold over a set of items: a paradigm, a phenomenon, or the whole study.

    `micro` = correct / responses (Wilson interval; for the whole study BLiMP's individual
    agreement); `macro` = mean item accuracy; `majority_correct` = sum of item majority credits,
    `majority_accuracy` = their mean (BLiMP's aggregate agreement). `p_value` is the one-sided
    binomial test of `correct` of `n_responses` against 0.5; `p_holm` is Holm-adjusted across
    the groups of the same level. `bootstrap_low/high` resample participants (None when off).
    """

    level: str
    name: str
    phenomenon: str
    n_items: int
    n_responses: int
    n_participants: int
    correct: int
    micro: float
    wilson_low: float
    wilson_high: float
    macro: float
    majority_correct: float
    majority_accuracy: float
    p_value: float
    p_holm: float
    bootstrap_low: float | None = None
    bootstrap_high: float | None = None

    def to_dict(self) -> dict[str, object]:
        """Return the group's numbers as a JSON-ready dict (also the paradigm CSV row)."""
        return as_dict(self)


@dataclass(frozen=True, slots=True)
class GoldAgreement:
    """Agreement with gold at every level (lists sorted by id/name; `overall` None without any
    analysed response)."""

    items: tuple[ItemAgreement, ...] = ()
    paradigms: tuple[GroupAgreement, ...] = ()
    phenomena: tuple[GroupAgreement, ...] = ()
    overall: GroupAgreement | None = None
    tie: TieRule = "half"


def analysed_responses(judgements: Iterable[Judgement], analysed_ids: frozenset[str]) -> list[Judgement]:
    """Return the experimental judgements of the analysed participants (catch, practice and
    filler trials left out).

    Raises:
        ValueError: when a participant answered the same item twice, or an item is given two
            paradigms or phenomena, naming the participant or item.
    """
    seen: set[tuple[str, str]] = set()
    labels: dict[str, tuple[str, str]] = {}
    out = []
    for judgement in judgements:
        if not judgement.is_experimental or judgement.participant_id not in analysed_ids:
            continue
        key = (judgement.participant_id, judgement.item_id)
        if key in seen:
            raise ValueError(
                f"participant '{judgement.participant_id}' answered item '{judgement.item_id}' twice"
            )
        seen.add(key)
        label = (judgement.paradigm, judgement.phenomenon)
        if labels.setdefault(judgement.item_id, label) != label:
            first = labels[judgement.item_id]
            raise ValueError(
                f"item '{judgement.item_id}' is labelled paradigm '{first[0]}' / phenomenon "
                f"'{first[1]}' in one judgement and '{label[0]}' / '{label[1]}' in another"
            )
        out.append(judgement)
    return out


@dataclass(frozen=True, slots=True)
class _Intervals:
    confidence: float
    bootstrap_resamples: int
    seed: int


def _item(item_id: str, answers: Sequence[Judgement], tie: TieRule, confidence: float) -> ItemAgreement:
    correct = sum(a.correct for a in answers)
    n = len(answers)
    low, high = wilson_interval(correct, n, confidence)
    return ItemAgreement(
        item_id=item_id,
        paradigm=answers[0].paradigm,
        phenomenon=answers[0].phenomenon,
        correct=correct,
        n=n,
        accuracy=correct / n,
        wilson_low=low,
        wilson_high=high,
        majority=majority_credit(correct, n, tie),
        tie=2 * correct == n,
        observed_agreement=observed_agreement((correct, n - correct)),
    )


def _group(
    level: str,
    name: str,
    items: Sequence[ItemAgreement],
    answers: Sequence[Judgement],
    intervals: _Intervals,
) -> GroupAgreement:
    correct = sum(i.correct for i in items)
    n = sum(i.n for i in items)
    low, high = wilson_interval(correct, n, intervals.confidence)
    majority = sum(i.majority for i in items)
    boot: tuple[float | None, float | None] = (None, None)
    if intervals.bootstrap_resamples > 0:
        boot = bootstrap_ci(
            [float(a.correct) for a in answers],
            clusters=[a.participant_id for a in answers],
            n_resamples=intervals.bootstrap_resamples,
            confidence=intervals.confidence,
            seed=intervals.seed,
        )
    p_value = one_sided_binomial(correct, n)
    return GroupAgreement(
        level=level,
        name=name,
        phenomenon=", ".join(sorted({i.phenomenon for i in items})) if level == "paradigm" else "",
        n_items=len(items),
        n_responses=n,
        n_participants=len({a.participant_id for a in answers}),
        correct=correct,
        micro=correct / n,
        wilson_low=low,
        wilson_high=high,
        macro=sum(i.accuracy for i in items) / len(items),
        majority_correct=majority,
        majority_accuracy=majority / len(items),
        p_value=p_value,
        p_holm=p_value,
        bootstrap_low=boot[0],
        bootstrap_high=boot[1],
    )


def _groups_by(
    level: str,
    items: Sequence[ItemAgreement],
    answers: Mapping[str, Sequence[Judgement]],
    intervals: _Intervals,
) -> tuple[GroupAgreement, ...]:
    """Return one GroupAgreement per paradigm or phenomenon (`level`), Holm-adjusted across them."""
    members: dict[str, list[ItemAgreement]] = defaultdict(list)
    for item in items:
        members[item.paradigm if level == "paradigm" else item.phenomenon].append(item)
    groups = [
        _group(
            level,
            name,
            members[name],
            [a for i in members[name] for a in answers[i.item_id]],
            intervals,
        )
        for name in sorted(members)
    ]
    adjusted = holm([g.p_value for g in groups])
    return tuple(replace(g, p_holm=p) for g, p in zip(groups, adjusted, strict=True))


def agreement_with_gold(
    responses: Sequence[Judgement],
    *,
    tie: TieRule = "half",
    confidence: float = 0.95,
    bootstrap_resamples: int = 1000,
    seed: int = 0,
) -> GoldAgreement:
    """Return agreement with gold per item, paradigm, phenomenon and overall, from analysed
    experimental responses (see `analysed_responses`). Paradigm and phenomenon p-values are
    Holm-adjusted within their level; bootstrap intervals resample participants (0 resamples:
    none). No responses give an empty GoldAgreement.

    Raises:
        ValueError: for an unknown tie rule.
    """
    if tie not in TIE_RULES:
        raise ValueError(f"unknown tie rule '{tie}' (choose from {', '.join(TIE_RULES)})")
    by_item: dict[str, list[Judgement]] = defaultdict(list)
    for response in responses:
        by_item[response.item_id].append(response)
    items = tuple(
        _item(item_id, by_item[item_id], tie, confidence) for item_id in sorted(by_item, key=item_sort_key)
    )
    if not items:
        return GoldAgreement(tie=tie)
    intervals = _Intervals(confidence, bootstrap_resamples, seed)
    return GoldAgreement(
        items=items,
        paradigms=_groups_by("paradigm", items, by_item, intervals),
        phenomena=_groups_by("phenomenon", items, by_item, intervals),
        overall=_group("overall", "all", items, responses, intervals),
        tie=tie,
    )


def as_dict(record: object, **extra: object) -> dict[str, object]:
    """Return a dataclass instance's fields, then `extra`, as a dict: nested dataclasses as
    dicts, tuples as lists (floats untouched; see `json_ready` for nan)."""
    if not is_dataclass(record) or isinstance(record, type):
        raise TypeError(f"as_dict needs a dataclass instance, got {type(record).__name__}")
    out = {f.name: _plain(getattr(record, f.name)) for f in fields(record)}
    out.update(extra)
    return out


def _plain(value: object) -> object:
    if is_dataclass(value) and not isinstance(value, type):
        return as_dict(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@overload
def json_ready(value: dict[str, object]) -> dict[str, object]: ...


@overload
def json_ready(value: object) -> object: ...


def json_ready(value: object) -> object:
    """Return `value` with nan/inf floats made JSON-safe (see `scoring.stats.json_float`),
    recursing into dicts, lists and tuples."""
    if isinstance(value, float):
        return json_float(value)
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value
