"""Template and phrase texts of the library, upload, phrase and API tests (an English project)."""

NP_TEXT = "- [{direct: the}, {id: head, lexical: {pos: NN}}]\n"
# A singular subject phrase and a verb: 4 nouns x 4 verbs = 16 different good sentences.
NP_TEMPLATE = """\
uid: np_agreement
phenomenon: subject_verb_agreement
language: en
description: The verb agrees with a singular noun phrase.
vocabulary: en_nouns
good:
  - {id: subj, phrase: NP, where: {head: {number: sg}}}
  - {id: verb, lexical: {pos: VB}, form: VBZ}
  - {direct: "."}
bad:
  - {same: subj}
  - {same: verb, form: VBP}
  - {same: "3"}
"""
# The same without a phrase (a second, independent template).
PLAIN_TEMPLATE = """\
uid: plain_agreement
phenomenon: subject_verb_agreement
language: en
vocabulary: ../vocabularies/en_nouns.csv
good:
  - {direct: the}
  - {id: subj, lexical: {pos: NN, number: pl}}
  - {id: verb, lexical: {pos: VB}, form: VBP}
bad:
  - {same: "1"}
  - {same: subj}
  - {same: verb, form: VBZ}
"""
# `number: dual` is not a value of the schema: E_UNKNOWN_VALUE on line 7, good grammar, position 2.
INVALID_TEMPLATE = PLAIN_TEMPLATE.replace("uid: plain_agreement", "uid: dual_agreement").replace(
    "number: pl", "number: dual"
)
