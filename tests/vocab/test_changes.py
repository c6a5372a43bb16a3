"""vocab.changes: what an edited vocabulary file adds, changes and removes, by item id."""

from vocab.changes import CellChange, FeatureChange, vocabulary_changes
from vocab.io import read_vocabulary_text
from vocab.lexicon import Vocabulary

STORED = """id,form,lemma,pos,number,animacy
n1,cat,cat,NN,sg,animate
n2,cats,cat,NN,pl,animate
n3,table,table,NN,sg,inanimate
"""


def _read(text: str) -> Vocabulary:
    return read_vocabulary_text(text, file_name="nouns.csv")


def test_the_same_file_changes_nothing() -> None:
    changes = vocabulary_changes(_read(STORED), _read(STORED))
    assert changes.empty
    assert (changes.added, changes.changed, changes.removed, changes.unchanged) == ((), (), (), 3)


def test_added_changed_and_removed_items_are_matched_by_id() -> None:
    edited = """id,form,lemma,pos,number,animacy
n2,cats,cat,NNS,pl,animate
n1,cat,cat,NN,sg,animate
n4,dog,dog,NN,sg,animate
n5,dogs,dog,NN,pl,animate
"""
    changes = vocabulary_changes(_read(STORED), _read(edited))
    assert [item.id for item in changes.added] == ["n4", "n5"]
    assert [item.id for item in changes.removed] == ["n3"]
    [change] = changes.changed
    assert change.before.id == change.after.id == "n2"
    assert change.cells == (CellChange("pos", "NN", "NNS"),)
    assert changes.unchanged == 1
    assert not changes.empty


def test_a_feature_cell_emptied_or_filled_is_a_change() -> None:
    edited = """id,form,lemma,pos,number,animacy
n1,cat,cat,NN,,animate
n2,cats,cat,NN,pl,animate
n3,table,table,NN,sg,inanimate
"""
    changes = vocabulary_changes(_read(STORED), _read(edited))
    [change] = changes.changed
    assert change.cells == (CellChange("number", "sg", ""),)
    reverse = vocabulary_changes(_read(edited), _read(STORED))
    assert reverse.changed[0].cells == (CellChange("number", "", "sg"),)


def test_multi_values_are_shown_joined_by_the_separator() -> None:
    before = "id,form,lemma,pos,case\nw1,you,you,PRP,nom\n"
    after = "id,form,lemma,pos,case\nw1,you,you,PRP,nom|acc\n"
    [change] = vocabulary_changes(_read(before), _read(after)).changed
    assert change.cells == (CellChange("case", "nom", "nom|acc"),)


def test_schema_changes_name_the_feature() -> None:
    edited = """id,form,lemma,pos,number,gender
n1,cat,cat,NN,sg,f
n2,cats,cat,NN,pl,f
n3,table,table,NN,sg,n
n4,tables,table,NN,du,n
"""
    changes = vocabulary_changes(_read(STORED), _read(edited))
    # The inferred schemas: gender is new, animacy gone, number has a new value (du).
    assert changes.features == (
        FeatureChange("gender", "added"),
        FeatureChange("animacy", "removed"),
        FeatureChange("number", "changed"),
    )
    assert changes.changed[0].cells == (
        CellChange("animacy", "animate", ""),
        CellChange("gender", "", "f"),
    )
