"""Native-speaker validation studies, designed in plain Python (no Django): the items a study
shows, sampled per paradigm and spread over balanced lists (`design`), the catch trials with a
known answer (`catch`), each participant's trial order and sides (`order`), and which list the
next participant gets (`assignment`). Every random choice comes from a `random.Random` seeded
from the study's recorded seed, so a design and each participant's order can be rebuilt."""
