"""BLiMP's 67 paradigms (Warstadt et al. 2020), by UID, with the phenomenon BLiMP files each under.

The library names the BLiMP paradigm a template reproduces in its `source` ("BLiMP passive_1 (Warstadt
et al. 2020)"); `blimp_uids_named` reads those names back, so the catalogue can show which template
stands for each of BLiMP's paradigms and which have none.
"""

from __future__ import annotations

from generator.paradigm_names import Benchmark

# (UID, linguistics_term), as in the released files' metadata.
BLIMP_PARADIGMS: tuple[tuple[str, str], ...] = (
    ("anaphor_gender_agreement", "anaphor_agreement"),
    ("anaphor_number_agreement", "anaphor_agreement"),
    ("causative", "argument_structure"),
    ("drop_argument", "argument_structure"),
    ("inchoative", "argument_structure"),
    ("intransitive", "argument_structure"),
    ("passive_1", "argument_structure"),
    ("passive_2", "argument_structure"),
    ("transitive", "argument_structure"),
    ("principle_A_c_command", "binding"),
    ("principle_A_case_1", "binding"),
    ("principle_A_case_2", "binding"),
    ("principle_A_domain_1", "binding"),
    ("principle_A_domain_2", "binding"),
    ("principle_A_domain_3", "binding"),
    ("principle_A_reconstruction", "binding"),
    ("existential_there_object_raising", "control_raising"),
    ("existential_there_subject_raising", "control_raising"),
    ("expletive_it_object_raising", "control_raising"),
    ("tough_vs_raising_1", "control_raising"),
    ("tough_vs_raising_2", "control_raising"),
    ("determiner_noun_agreement_1", "determiner_noun_agreement"),
    ("determiner_noun_agreement_2", "determiner_noun_agreement"),
    ("determiner_noun_agreement_irregular_1", "determiner_noun_agreement"),
    ("determiner_noun_agreement_irregular_2", "determiner_noun_agreement"),
    ("determiner_noun_agreement_with_adj_2", "determiner_noun_agreement"),
    ("determiner_noun_agreement_with_adj_irregular_1", "determiner_noun_agreement"),
    ("determiner_noun_agreement_with_adj_irregular_2", "determiner_noun_agreement"),
    ("determiner_noun_agreement_with_adjective_1", "determiner_noun_agreement"),
    ("ellipsis_n_bar_1", "ellipsis"),
    ("ellipsis_n_bar_2", "ellipsis"),
    ("wh_questions_object_gap", "filler_gap_dependency"),
    ("wh_questions_subject_gap", "filler_gap_dependency"),
    ("wh_questions_subject_gap_long_distance", "filler_gap_dependency"),
    ("wh_vs_that_no_gap", "filler_gap_dependency"),
    ("wh_vs_that_no_gap_long_distance", "filler_gap_dependency"),
    ("wh_vs_that_with_gap", "filler_gap_dependency"),
    ("wh_vs_that_with_gap_long_distance", "filler_gap_dependency"),
    ("irregular_past_participle_adjectives", "irregular_forms"),
    ("irregular_past_participle_verbs", "irregular_forms"),
    ("adjunct_island", "island_effects"),
    ("complex_NP_island", "island_effects"),
    ("coordinate_structure_constraint_complex_left_branch", "island_effects"),
    ("coordinate_structure_constraint_object_extraction", "island_effects"),
    ("left_branch_island_echo_question", "island_effects"),
    ("left_branch_island_simple_question", "island_effects"),
    ("sentential_subject_island", "island_effects"),
    ("wh_island", "island_effects"),
    ("matrix_question_npi_licensor_present", "npi_licensing"),
    ("npi_present_1", "npi_licensing"),
    ("npi_present_2", "npi_licensing"),
    ("only_npi_licensor_present", "npi_licensing"),
    ("only_npi_scope", "npi_licensing"),
    ("sentential_negation_npi_licensor_present", "npi_licensing"),
    ("sentential_negation_npi_scope", "npi_licensing"),
    ("existential_there_quantifiers_1", "quantifiers"),
    ("existential_there_quantifiers_2", "quantifiers"),
    ("superlative_quantifiers_1", "quantifiers"),
    ("superlative_quantifiers_2", "quantifiers"),
    ("animate_subject_passive", "s-selection"),
    ("animate_subject_trans", "s-selection"),
    ("distractor_agreement_relational_noun", "subject_verb_agreement"),
    ("distractor_agreement_relative_clause", "subject_verb_agreement"),
    ("irregular_plural_subject_verb_agreement_1", "subject_verb_agreement"),
    ("irregular_plural_subject_verb_agreement_2", "subject_verb_agreement"),
    ("regular_plural_subject_verb_agreement_1", "subject_verb_agreement"),
    ("regular_plural_subject_verb_agreement_2", "subject_verb_agreement"),
)
BLIMP = Benchmark(name="BLiMP", citation="Warstadt et al. 2020", language="en", paradigms=BLIMP_PARADIGMS)


def blimp_uids_named(source: str) -> frozenset[str]:
    """Return the BLiMP UIDs a template's `source` names (none unless it mentions BLiMP)."""
    return BLIMP.named_in(source)
