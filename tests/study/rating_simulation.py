"""Simulated participants of a rating study (Likert or magnitude estimation), for the engine's
and the platform's tests: seeded, with each participant's own bias and use of the scale, so an
analysis can be checked against differences planted in advance.

The model. Every sentence has a latent acceptability, in units of the noise-free spread:

    item i of paradigm p:  base[p] + item_effect[i] + (+effect[p] / 2 for the good sentence,
                                                       -effect[p] / 2 for the bad one)
    filler:                +1 (good) or -1 (bad);   catch scramble: -3

A participant j perceives latent + N(0, noise) and answers through their own bias b_j and
stretch s_j:

    Likert:     round(midpoint + s_j * spread * (perceived + b_j)), clipped to 1..points
    magnitude:  reference_value * exp(s_j * spread * (perceived + b_j)), rounded to 2 decimals

An inattentive participant answers uniformly at random (Likert) or log-uniformly (magnitude).

`expected_z_difference[p]` is the planted difference in the units the analysis reports: each
participant's z-scores divide by the standard deviation of their own perceived values (over the
experimental and filler sentences, which bias and stretch do not change), so it is effect[p]
divided by that standard deviation, averaged over attentive participants. Rounding and clipping
a Likert scale shrink what the analysis recovers a little.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from study.design import DesignSettings, StudyDesign, build_design
from study.items import StudyItem, item_sort_key
from study.order import ParticipantSchedule, Trial, build_schedule
from study.rating_scale import RatingJudgement
from study.seeds import derive_seed

FILLER_LATENT = 1.0
CATCH_LATENT = -3.0


@dataclass(frozen=True, slots=True)
class SimulatedParticipant:
    """One simulated participant: `bias` shifts every perceived value, `stretch` scales their use
    of the scale, `attentive` False answers at random."""

    participant_id: str
    list_index: int
    bias: float
    stretch: float
    attentive: bool = True


@dataclass(frozen=True)
class RatingModel:
    """The latent acceptability of every sentence of a design and how participants answer.

    effects[paradigm]: the planted good-minus-bad difference (latent units); base[paradigm]: a
    shift of both sentences (a negative base makes the good sentences sound odd); item_sd: the
    spread of item effects; noise: each rating's perceptual noise; spread: latent units per
    Likert point (or per log unit of a magnitude estimate).
    """

    design: StudyDesign
    effects: Mapping[str, float]
    base: Mapping[str, float] = field(default_factory=dict)
    item_sd: float = 0.3
    noise: float = 0.5
    spread: float = 1.2
    seed: int = 0
    _item_effect: dict[str, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rng = random.Random(derive_seed("rating-simulation", self.seed, "items"))
        effects = {i.item_id: rng.gauss(0.0, self.item_sd) for i in sorted(self.design.items, key=_key)}
        object.__setattr__(self, "_item_effect", effects)

    def latent(self, trial: Trial) -> float:
        """Return the latent acceptability of a rating trial's sentence."""
        if trial.kind == "catch":
            return CATCH_LATENT
        good = trial.roles == ("good",)
        if trial.kind in ("filler", "practice"):
            return FILLER_LATENT if good else -FILLER_LATENT
        half = self.effects.get(trial.paradigm, 0.0) / 2
        return (
            self.base.get(trial.paradigm, 0.0) + self._item_effect[trial.item_id] + (half if good else -half)
        )

    def answer(self, participant: SimulatedParticipant, perceived: float, rng: random.Random) -> float:
        """Return the participant's answer to a sentence they perceive at `perceived`."""
        settings = self.design.settings
        if settings.task == "magnitude":
            if not participant.attentive:
                return round(settings.reference_value * math.exp(rng.uniform(-2.0, 2.0)), 2)
            value = settings.reference_value * math.exp(
                participant.stretch * self.spread * (perceived + participant.bias)
            )
            return max(0.01, min(1e6, round(value, 2)))
        points = settings.scale_points
        if not participant.attentive:
            return float(rng.randint(1, points))
        middle = (points + 1) / 2
        value = round(middle + participant.stretch * self.spread * (perceived + participant.bias))
        return float(min(points, max(1, value)))


def _key(item: StudyItem) -> tuple[object, ...]:
    # As a reader counts ("en/227" before "en/1022"): the same order whatever ids a database
    # gave the pairs, so a seed plants the same item effects in every run.
    return item_sort_key(item.item_id)


@dataclass(frozen=True)
class SimulatedRatings:
    """A simulated study: the participants, their schedules, every answer as a RatingJudgement
    (practice and catch included), the planted effects and what they are in z units."""

    participants: tuple[SimulatedParticipant, ...]
    schedules: tuple[ParticipantSchedule, ...]
    ratings: tuple[RatingJudgement, ...]
    planted: dict[str, float]
    expected_z_difference: dict[str, float]


def rating_items(paradigms: Mapping[str, int], phenomenon: str = "acceptability") -> list[StudyItem]:
    """Return `n` distinct pairs per paradigm name -> n (ids "<paradigm>-<i>"), long enough to
    be scrambled for catch trials."""
    items = []
    for paradigm, n in paradigms.items():
        for i in range(n):
            items.append(
                StudyItem(
                    item_id=f"{paradigm}-{i}",
                    paradigm=paradigm,
                    phenomenon=phenomenon,
                    kind="pair",
                    sentences=(
                        f"The visitors from {paradigm} town number {i} admire the old bridge.",
                        f"The visitors from {paradigm} town number {i} admires the old bridge.",
                    ),
                )
            )
    return items


FILLERS = (
    StudyItem(
        "filler-1",
        "filler",
        "",
        "pair",
        ("Most children enjoy a sunny day.", "Most children enjoys a sunny day."),
    ),
    StudyItem(
        "filler-2", "filler", "", "pair", ("The old man walked to the shop.", "The old man walk to the shop.")
    ),
)
PRACTICE = (
    StudyItem(
        "practice-1", "practice", "", "pair", ("My sister plays the piano.", "My sister play the piano.")
    ),
)


def rating_design(
    paradigms: Mapping[str, int],
    task: str = "rating",
    *,
    n_lists: int = 2,
    replication: int = 1,
    seed: int = 5,
    catch_per_list: int = 2,
    scale_points: int = 7,
) -> StudyDesign:
    """Return a rating (or magnitude) design of `rating_items(paradigms)`, all items taken, with
    two fillers, one practice item and `catch_per_list` scrambles per list."""
    settings = DesignSettings(
        seed=seed,
        items_per_paradigm=max(paradigms.values()),
        n_lists=n_lists,
        target_responses=10,
        replication=replication,
        catch_per_list=catch_per_list,
        task=task,  # type: ignore[arg-type]  # checked by DesignSettings
        scale_points=scale_points,
        reference_sentence="The guests who the waiter served was happy." if task == "magnitude" else "",
    )
    return build_design(rating_items(paradigms), settings, practice=PRACTICE, fillers=FILLERS)


def simulate_ratings(
    model: RatingModel,
    participants_per_list: int,
    *,
    inattentive: Sequence[str] = (),
    seed: int = 0,
) -> SimulatedRatings:
    """Return a SimulatedRatings of `participants_per_list` participants on each list of the
    model's design ("p<list>-<n>"), the ids in `inattentive` answering at random. Each
    participant's trials come from `study.order.build_schedule`, their answers from the model."""
    rng = random.Random(derive_seed("rating-simulation", seed, "participants"))
    design = model.design
    people: list[SimulatedParticipant] = []
    schedules: list[ParticipantSchedule] = []
    ratings: list[RatingJudgement] = []
    z_sds: list[float] = []
    for list_index in range(len(design.lists)):
        for n in range(participants_per_list):
            pid = f"p{list_index + 1}-{n + 1}"
            person = SimulatedParticipant(
                pid, list_index, rng.gauss(0.0, 0.4), rng.uniform(0.6, 1.4), pid not in inattentive
            )
            schedule = build_schedule(design, list_index, pid)
            perceived_scaled = []
            for trial in schedule.trials:
                perceived = model.latent(trial) + rng.gauss(0.0, model.noise)
                if trial.kind in ("experimental", "filler"):
                    perceived_scaled.append(perceived)
                value = model.answer(person, perceived, rng)
                ratings.append(trial.rating_judgement(pid, value, list_id=str(list_index + 1), rt_ms=2500.0))
            if person.attentive:
                z_sds.append(statistics.stdev(perceived_scaled))
            people.append(person)
            schedules.append(schedule)
    paradigms = sorted({i.paradigm for i in design.items})
    planted = {p: float(model.effects.get(p, 0.0)) for p in paradigms}
    mean_inverse_sd = statistics.fmean(1 / sd for sd in z_sds)
    return SimulatedRatings(
        participants=tuple(people),
        schedules=tuple(schedules),
        ratings=tuple(ratings),
        planted=planted,
        expected_z_difference={p: e * mean_inverse_sd for p, e in planted.items()},
    )
