"""Analysis of an acceptability rating study (Likert scale or magnitude estimation), as
experimental syntax does it (Sprouse & Almeida 2017): does each paradigm's good sentence get
reliably higher ratings than its bad one, and do its good sentences sound natural at all?

Steps, each stated once here:

1. Magnitude estimates are log-transformed (ratios become differences); Likert points are taken
   as they are.
2. Each participant's values are z-scored (their mean subtracted, divided by their standard
   deviation, n - 1) over all the sentences they rated that are *experimental or fillers*:
   practice trials are left out (they come first, while the participant is learning the scale)
   and so are catch trials (scrambles pile up at the floor and would stretch the scale). This
   removes each participant's bias and scale use. A participant with fewer than two such
   ratings, or all of them equal, has no z-scores: they are reported (`ParticipantScaling`,
   `scaled` False) and left out of the rest.
3. Per item: the mean z of its good sentence minus the mean z of its bad sentence. Nobody rates
   both sentences of a pair (they are in different lists), so this is a between-participants
   difference.
4. Per paradigm: the mean of its items' differences, a t interval over items, a one-sided one-
   sample t test of difference > 0 over items (with the Wilcoxon signed-rank and sign tests
   beside it), Holm's correction across paradigms. A paradigm is *flagged* when its difference
   is not reliable: fewer than two items with both sentences rated, Holm-adjusted p >= alpha,
   or the interval's lower end at or below the minimum difference.
5. Naturalness: the mean z of a paradigm's good sentences (per item, then over items, with a t
   interval) and their mean raw rating. Below the threshold (default 0: rated below the
   participants' own average) the paradigm is *unnatural*: what readers call "semantically odd"
   good sentences.
6. Item flags: an item whose good sentence is not rated above its bad one (difference at or below
   the minimum difference), or whose good sentence is rated below the naturalness threshold.

Differences and means are in z units (participants' standard deviations). The raw means of
magnitude estimates are geometric means (exp of the mean log).
"""

from __future__ import annotations

import math
import statistics
import warnings
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from scoring.stats import holm
from study.agreement import ParticipantInfo, one_sided_binomial
from study.errors import StudyError
from study.exclusion import ExclusionRules, exclude_raters
from study.items import item_sort_key
from study.rating_results import (
    ITEM_GOOD_LOW,
    ITEM_NO_DIFFERENCE,
    PARADIGM_GOOD_UNNATURAL,
    PARADIGM_NOT_RELIABLE,
    PARADIGM_SMALL_DIFFERENCE,
    PARADIGM_TOO_FEW_ITEMS,
    ItemRating,
    ItemRatingFlag,
    ParadigmRating,
    ParticipantScaling,
    RatingAnalysis,
    RatingAnalysisSettings,
)
from study.rating_scale import RatingJudgement, RatingScale

__all__ = [
    "ITEM_GOOD_LOW",
    "ITEM_NO_DIFFERENCE",
    "PARADIGM_GOOD_UNNATURAL",
    "PARADIGM_NOT_RELIABLE",
    "PARADIGM_SMALL_DIFFERENCE",
    "PARADIGM_TOO_FEW_ITEMS",
    "ItemRating",
    "ItemRatingFlag",
    "ParadigmRating",
    "ParticipantScaling",
    "RatingAnalysis",
    "RatingAnalysisSettings",
    "RatingJudgement",
    "RatingScale",
    "analyse_rating_study",
    "analyse_ratings",
]

# Kinds of trial whose ratings are z-scored together (practice and catch left out: see step 2).
SCALED_KINDS = ("experimental", "filler")


def _analysed_value(scale: RatingScale, rating: RatingJudgement) -> float:
    """Return the value analysed: the log of a magnitude estimate, a Likert point as it is."""
    try:
        value = scale.check(rating.value)
    except StudyError as error:
        raise StudyError(f"Participant {rating.participant_id!r}, item {rating.item_id!r}: {error}") from None
    return math.log(value) if scale.task == "magnitude" else value


def _raw_mean(scale: RatingScale, values: Sequence[float]) -> float | None:
    """Return the mean raw rating of analysed values (the geometric mean for magnitudes)."""
    if not values:
        return None
    mean = statistics.fmean(values)
    return math.exp(mean) if scale.task == "magnitude" else mean


def _scale_participants(
    ratings: Iterable[RatingJudgement], scale: RatingScale
) -> tuple[dict[int, float], tuple[ParticipantScaling, ...], list[RatingJudgement], list[float]]:
    """Return (z-score by position in the returned ratings, each participant's scaling, the
    experimental and filler ratings, their analysed values): step 2 of the module docstring.

    Raises:
        StudyError: for an invalid rating, or a participant who rated the same sentence twice.
    """
    kept = [r for r in ratings if r.kind in SCALED_KINDS]
    seen: set[tuple[str, str, str, str]] = set()
    for rating in kept:
        key = (rating.participant_id, rating.item_id, rating.role, rating.kind)
        if key in seen:
            raise StudyError(
                f"Participant {rating.participant_id!r} rated the {rating.role} sentence of item "
                f"{rating.item_id!r} twice."
            )
        seen.add(key)
    values = [_analysed_value(scale, r) for r in kept]
    positions: dict[str, list[int]] = defaultdict(list)
    for index, rating in enumerate(kept):
        positions[rating.participant_id].append(index)
    z: dict[int, float] = {}
    scalings = []
    for participant in sorted(positions):
        own = positions[participant]
        numbers = [values[i] for i in own]
        list_id = kept[own[0]].list_id
        if len(numbers) < 2:
            scalings.append(
                ParticipantScaling(
                    participant, list_id, 1, numbers[0], None, False, "Rated only one sentence."
                )
            )
            continue
        mean, sd = statistics.fmean(numbers), statistics.stdev(numbers)
        if sd <= 1e-12 * max(1.0, abs(mean)):
            shown = [kept[i].value for i in own[:1]]
            scalings.append(
                ParticipantScaling(
                    participant,
                    list_id,
                    len(numbers),
                    mean,
                    0.0,
                    False,
                    f"Gave every one of {len(numbers)} sentences the same rating ({shown[0]:g}): "
                    "no z-scores, left out.",
                )
            )
            continue
        for i in own:
            z[i] = (values[i] - mean) / sd
        scalings.append(ParticipantScaling(participant, list_id, len(numbers), mean, sd, True, ""))
    return z, tuple(scalings), kept, values


def _t_interval(values: Sequence[float], confidence: float) -> tuple[float | None, float | None]:
    """Return the t interval of the mean of `values` ((None, None) with fewer than two)."""
    n = len(values)
    if n < 2:
        return None, None
    from scipy.stats import t  # imported when used: scipy.stats takes ~0.5 s to import

    mean, sem = statistics.fmean(values), statistics.stdev(values) / math.sqrt(n)
    half = float(t.ppf(0.5 + confidence / 2, n - 1)) * sem
    return mean - half, mean + half


def _t_test(values: Sequence[float]) -> tuple[float | None, float | None]:
    """Return (t, one-sided p) of the one-sample t test of mean > 0 ((None, None) with fewer
    than two values; with no spread, p is 0 for a positive mean and 1 otherwise)."""
    n = len(values)
    if n < 2:
        return None, None
    from scipy.stats import t  # imported when used

    mean, sd = statistics.fmean(values), statistics.stdev(values)
    if sd == 0:
        return (math.inf, 0.0) if mean > 0 else (math.nan if mean == 0 else -math.inf, 1.0)
    statistic = mean / (sd / math.sqrt(n))
    return statistic, float(t.sf(statistic, n - 1))


def _wilcoxon(values: Sequence[float]) -> float | None:
    """Return the one-sided Wilcoxon signed-rank p of values > 0 (None without a non-zero value)."""
    if not any(values):
        return None
    from scipy.stats import wilcoxon  # imported when used

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns about ties and small samples; p stands
        return float(wilcoxon(values, alternative="greater").pvalue)


def _items(
    kept: Sequence[RatingJudgement], values: Sequence[float], z: dict[int, float], scale: RatingScale
) -> tuple[ItemRating, ...]:
    """Return one ItemRating per experimental item rated by a scaled participant (step 3)."""
    zs: dict[tuple[str, str], list[float]] = defaultdict(list)
    raws: dict[tuple[str, str], list[float]] = defaultdict(list)
    labels: dict[str, tuple[str, str]] = {}
    for index, rating in enumerate(kept):
        if rating.kind != "experimental" or index not in z:
            continue
        label = (rating.paradigm, rating.phenomenon)
        if labels.setdefault(rating.item_id, label) != label:
            raise StudyError(
                f"Item {rating.item_id!r} is labelled paradigm {labels[rating.item_id][0]!r} in one "
                f"rating and {label[0]!r} in another."
            )
        zs[(rating.item_id, rating.role)].append(z[index])
        raws[(rating.item_id, rating.role)].append(values[index])
    out = []
    for item_id in sorted(labels, key=item_sort_key):
        good, bad = zs.get((item_id, "good"), []), zs.get((item_id, "bad"), [])
        good_z = statistics.fmean(good) if good else None
        bad_z = statistics.fmean(bad) if bad else None
        out.append(
            ItemRating(
                item_id=item_id,
                paradigm=labels[item_id][0],
                phenomenon=labels[item_id][1],
                n_good=len(good),
                n_bad=len(bad),
                good_mean_z=good_z,
                bad_mean_z=bad_z,
                difference=None if good_z is None or bad_z is None else good_z - bad_z,
                good_mean_raw=_raw_mean(scale, raws.get((item_id, "good"), [])),
                bad_mean_raw=_raw_mean(scale, raws.get((item_id, "bad"), [])),
            )
        )
    return tuple(out)


def _paradigm(
    name: str,
    items: Sequence[ItemRating],
    kept: Sequence[RatingJudgement],
    values: Sequence[float],
    z: dict[int, float],
    scale: RatingScale,
    settings: RatingAnalysisSettings,
) -> ParadigmRating:
    """Return the numbers of one paradigm (steps 4 and 5), not yet Holm-adjusted or flagged."""
    differences = [i.difference for i in items if i.difference is not None]
    goods = [i.good_mean_z for i in items if i.good_mean_z is not None]
    bads = [i.bad_mean_z for i in items if i.bad_mean_z is not None]
    mine = [
        index
        for index, r in enumerate(kept)
        if r.kind == "experimental" and r.paradigm == name and index in z
    ]
    low, high = _t_interval(differences, settings.confidence)
    good_low, good_high = _t_interval(goods, settings.confidence)
    statistic, p_value = _t_test(differences)
    positive = sum(d > 0 for d in differences)
    negative = sum(d < 0 for d in differences)
    return ParadigmRating(
        paradigm=name,
        phenomenon=", ".join(sorted({i.phenomenon for i in items if i.phenomenon})),
        n_items=len(items),
        n_compared=len(differences),
        n_participants=len({kept[i].participant_id for i in mine}),
        n_ratings=len(mine),
        difference=statistics.fmean(differences) if differences else None,
        sd=statistics.stdev(differences) if len(differences) > 1 else None,
        ci_low=low,
        ci_high=high,
        t_statistic=statistic,
        p_value=p_value,
        p_holm=None,
        wilcoxon_p=_wilcoxon(differences) if differences else None,
        sign_positive=positive,
        sign_negative=negative,
        sign_p=one_sided_binomial(positive, positive + negative),
        good_mean_z=statistics.fmean(goods) if goods else None,
        good_ci_low=good_low,
        good_ci_high=good_high,
        good_mean_raw=_raw_mean(scale, [values[i] for i in mine if kept[i].role == "good"]),
        bad_mean_z=statistics.fmean(bads) if bads else None,
        bad_mean_raw=_raw_mean(scale, [values[i] for i in mine if kept[i].role == "bad"]),
    )


def _flag_paradigm(paradigm: ParadigmRating, settings: RatingAnalysisSettings) -> ParadigmRating:
    """Return the paradigm with its flags (steps 4 and 5)."""
    failed: dict[str, str] = {}
    if paradigm.p_holm is None or paradigm.ci_low is None:
        failed[PARADIGM_TOO_FEW_ITEMS] = (
            f"Only {paradigm.n_compared} of its {paradigm.n_items} items had both sentences rated; "
            "a reliable difference needs at least 2."
        )
    else:
        if paradigm.p_holm >= settings.alpha:
            failed[PARADIGM_NOT_RELIABLE] = (
                f"Good sentences are not reliably rated above bad ones: mean difference "
                f"{paradigm.difference:.2f} z over {paradigm.n_compared} items, one-sided t test "
                f"p = {paradigm.p_value:.3g}, {paradigm.p_holm:.3g} after Holm's correction "
                f"(needs < {settings.alpha:g})."
            )
        if paradigm.ci_low <= settings.min_difference:
            failed[PARADIGM_SMALL_DIFFERENCE] = (
                f"The {settings.confidence:.0%} interval of the difference, [{paradigm.ci_low:.2f}, "
                f"{paradigm.ci_high:.2f}] z, does not stay above {settings.min_difference:g}."
            )
    unnatural = paradigm.good_mean_z is not None and paradigm.good_mean_z < settings.naturalness_threshold
    if unnatural:
        raw = "" if paradigm.good_mean_raw is None else f", mean rating {paradigm.good_mean_raw:.3g}"
        failed[PARADIGM_GOOD_UNNATURAL] = (
            f"Its good sentences are rated low: mean z {paradigm.good_mean_z:.2f}{raw}, below "
            f"{settings.naturalness_threshold:g} (0 is each participant's own average)."
        )
    return replace(
        paradigm,
        flagged=any(reason != PARADIGM_GOOD_UNNATURAL for reason in failed),
        unnatural=unnatural,
        reasons=tuple(failed),
        messages=tuple(failed.values()),
    )


def _flag_items(items: Sequence[ItemRating], settings: RatingAnalysisSettings) -> tuple[ItemRatingFlag, ...]:
    """Return a flag for each item not rated good above bad, or whose good sentence is rated low."""
    flags = []
    for item in items:
        failed: dict[str, str] = {}
        if item.difference is not None and item.difference <= settings.min_difference:
            failed[ITEM_NO_DIFFERENCE] = (
                f"Its good sentence is not rated above its bad one: {item.good_mean_z:.2f} z "
                f"({item.n_good} ratings) against {item.bad_mean_z:.2f} z ({item.n_bad} ratings)."
            )
        if item.good_mean_z is not None and item.good_mean_z < settings.naturalness_threshold:
            failed[ITEM_GOOD_LOW] = (
                f"Its good sentence is rated low: mean z {item.good_mean_z:.2f} over {item.n_good} "
                f"ratings, below {settings.naturalness_threshold:g}."
            )
        if failed:
            flags.append(
                ItemRatingFlag(
                    item_id=item.item_id,
                    paradigm=item.paradigm,
                    phenomenon=item.phenomenon,
                    difference=item.difference,
                    good_mean_z=item.good_mean_z,
                    reasons=tuple(failed),
                    messages=tuple(failed.values()),
                )
            )
    return tuple(flags)


def analyse_ratings(
    ratings: Iterable[RatingJudgement],
    scale: RatingScale,
    *,
    analysed_ids: Collection[str] | None = None,
    settings: RatingAnalysisSettings | None = None,
) -> RatingAnalysis:
    """Return the RatingAnalysis of `ratings` (the steps of the module docstring), keeping only
    the participants in `analysed_ids` (None: everyone). No ratings give an empty analysis.

    Raises:
        StudyError: for a rating that is not a valid answer on `scale`, a sentence rated twice
            by one participant, or an item given two paradigms.
    """
    settings = settings or RatingAnalysisSettings()
    chosen = [r for r in ratings if analysed_ids is None or r.participant_id in analysed_ids]
    z, scalings, kept, values = _scale_participants(chosen, scale)
    items = _items(kept, values, z, scale)
    members: dict[str, list[ItemRating]] = defaultdict(list)
    for item in items:
        members[item.paradigm].append(item)
    paradigms = [_paradigm(p, members[p], kept, values, z, scale, settings) for p in sorted(members)]
    tested = [p for p in paradigms if p.p_value is not None]
    adjusted = dict(zip((p.paradigm for p in tested), holm([p.p_value or 0.0 for p in tested]), strict=True))
    paradigms = [_flag_paradigm(replace(p, p_holm=adjusted.get(p.paradigm)), settings) for p in paradigms]
    return RatingAnalysis(
        settings=settings,
        scale=scale,
        participants=scalings,
        items=items,
        paradigms=tuple(paradigms),
        item_flags=_flag_items(items, settings),
    )


def analyse_rating_study(
    ratings: Iterable[RatingJudgement],
    scale: RatingScale,
    *,
    participants: Iterable[ParticipantInfo] = (),
    rules: ExclusionRules | None = None,
    settings: RatingAnalysisSettings | None = None,
) -> RatingAnalysis:
    """Return the RatingAnalysis of a whole rating study: participants checked under the
    exclusion `rules` (`study.exclusion.exclude_raters`: catch scrambles must be rated below the
    midpoint), then `analyse_ratings` of the analysed participants, with the exclusions kept.

    Raises:
        StudyError: as `analyse_ratings`.
    """
    ratings = list(ratings)
    exclusion = exclude_raters(ratings, scale, rules, participants)
    analysis = analyse_ratings(ratings, scale, analysed_ids=exclusion.analysed_ids, settings=settings)
    return replace(analysis, exclusion=exclusion)
