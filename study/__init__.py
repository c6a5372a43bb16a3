"""Native-speaker validation studies, designed and analysed in plain Python (no Django).

Design: the items a study shows, sampled per paradigm and spread over balanced lists (`design`),
the catch trials with a known answer (`catch`), each participant's trial order and sides
(`order`), and which list the next participant gets (`assignment`). Every random choice comes
from a `random.Random` seeded from the study's recorded seed, so a design and each participant's
order can be rebuilt.

Analysis of the human judgements: whose answers count (`exclusion`), agreement with gold
(`agreement`), inter-rater agreement (`rater_agreement`), paradigm, item and word flags
(`human_flags`), and the whole analysis in one call (`validation_study.analyse_study`). Its
statistics (Wilson intervals, Holm, bootstrap) are the scoring engine's (`scoring.stats`).

Acceptability rating (a Likert scale or magnitude estimation, one sentence per trial): the scale,
a valid answer and whether it agrees with the expected end (`rating_scale`), Latin-square lists
that keep a pair's two sentences apart (`rating_lists`), and the analysis of z-scored ratings
(`ratings`); the design, order and exclusion modules take both tasks."""
