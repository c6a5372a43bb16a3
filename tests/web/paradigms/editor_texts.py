"""Texts of the template editor tests: a small English vocabulary, a phrase and a template."""

# Determiners agree with their noun in number; intransitive verbs; 2 x 8 nouns, 4 verbs.
ANIMALS_CSV = """\
id,form,lemma,pos,number
d1,this,this,DT,sg
d2,these,these,DT,pl
d3,that,that,DT,sg
d4,those,those,DT,pl
n1,cat,cat,NN,sg
n2,cats,cat,NN,pl
n3,dog,dog,NN,sg
n4,dogs,dog,NN,pl
n5,bird,bird,NN,sg
n6,birds,bird,NN,pl
n7,horse,horse,NN,sg
n8,horses,horse,NN,pl
v1,sleep,sleep,VB,
v2,run,run,VB,
v3,jump,jump,VB,
v4,swim,swim,VB,
"""
ANIMALS_SCHEMA = "language: en\nfeatures:\n  number:\n    type: category\n    values: [sg, pl]\n"
PLACE_PHRASE = "- [{direct: the}, {id: head, lexical: {pos: NN, number: sg}}]\n"

# Valid: these/those + plural noun + verb (VBP), the bad one with the determiner of the other number.
DET_TEMPLATE = """\
uid: det_noun_agreement
phenomenon: determiner_noun_agreement
language: en
description: A demonstrative agrees in number with its noun.
example: {good: These dogs run., bad: This dogs run.}
vocabulary: animals
good:
  - {id: det, matched: noun, on: number, lexical: {pos: DT}}
  - {id: noun, lexical: {pos: NN, number: pl}}
  - {id: verb, lexical: {pos: VB}, form: VBP}
  - {id: stop, direct: "."}
bad:
  - {id: det_bad, mismatched: noun, on: number, lexical: {pos: DT}}
  - {same: noun}
  - {same: verb}
  - {same: stop}
"""

# Positions named by id, by number and through a phrase (`place.head`), referred to from both
# grammars and from a row only YAML can show: renaming any of them must take its references along.
RENAME_TEMPLATE = """\
uid: rename_refs
phenomenon: determiner_noun_agreement
language: en
vocabulary: animals
good:
  - {id: det, matched: noun, on: number, lexical: {pos: DT}}
  - {id: noun, lexical: {pos: NN, number: pl}}
  - {id: verb, lexical: {pos: VB}, form: VBP}
  - {direct: near}
  - {id: place, phrase: Place}
  - {id: det2, matched: place.head, on: number, lexical: {pos: DT}}
bad:
  - {id: det_bad, mismatched: {noun: number}, lexical: {pos: DT}}
  - {id: noun_bad, lexical: {pos: NN, number: sg}}
  - {same: verb, form: VBZ}
  - {delete: '4'}
  - {same: place}
  - {id: det2_bad, matched: bad.noun_bad, on: number, lexical: {pos: DT}}
"""
