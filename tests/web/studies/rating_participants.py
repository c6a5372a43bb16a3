"""Simulated participants who answer a platform rating study through its services, with a
good-minus-bad difference planted per paradigm (`tests/study/rating_simulation.RatingModel`),
for the analysis and page tests."""

import random
from typing import Any

from mpp_studio.studies.models import Study
from mpp_studio.studies.services import response_save, schedule_of, study_design
from study.seeds import derive_seed
from tests.study.rating_simulation import RatingModel, SimulatedParticipant
from tests.web.studies.conftest import start

EFFECTS = {"en_sv_agreement": 2.0, "en_det_noun": 1.6, "en_anaphor": 0.0}  # en_anaphor: none planted


def answer_as_simulated(study: Study, per_list: int, *, inattentive: int = 0, seed: int = 3) -> RatingModel:
    """Start `per_list` participants on each list (plus `inattentive` who rate at random) and
    have each answer every trial as the model says; return the model."""
    model = RatingModel(study_design(study), EFFECTS, seed=seed)
    rng = random.Random(seed)
    lists = len(model.design.lists)
    for number in range(per_list * lists + inattentive):
        participation = start(study, f"SIM{number:03d}")
        attentive = number < per_list * lists
        person = SimulatedParticipant(
            participation.token_id,
            participation.list_index,
            rng.gauss(0.0, 0.4),
            rng.uniform(0.6, 1.4),
            attentive,
        )
        for trial in schedule_of(participation).trials:
            # Noise keyed by the participant and the trial's sentences, not drawn in trial
            # order: the order follows the participant's random token, the noise must not.
            noise = random.Random(derive_seed("rating-trial", seed, number, trial.item_id, *trial.sentences))
            perceived = model.latent(trial) + noise.gauss(0.0, model.noise)
            payload: dict[str, Any] = {
                "trial_index": trial.trial_index,
                "rating": model.answer(person, perceived, noise),
            }
            response_save(participation=participation, payload=payload)
    return model
