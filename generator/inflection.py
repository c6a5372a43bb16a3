"""English inflection of a lemma to a Penn tag with LemmInflect, dictionary forms only.

LemmInflect's dictionary lists several forms for some lemmas, and its first is sometimes a
rule-made form that is no real word ("informations"). Of the dictionary forms we take the one
most frequent in real text (wordfreq). A plural that equals its singular, or that is far rarer
than it ("informations", "advices"), is refused, so agreement paradigms never get a mass noun.
"""

from __future__ import annotations

from functools import lru_cache

TAGS: frozenset[str] = frozenset(
    {"NN", "NNS", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "JJ", "JJR", "JJS", "RB", "RBR", "RBS"}
)
# Tags whose form depends on person or number the tag cannot say ("was"/"were").
_AMBIGUOUS = {("be", "VBD")}
OVERRIDE_PREFIX = "form_"  # a vocabulary feature form_VBD = "went" beats LemmInflect
# Plurals LemmInflect gets wrong for child-directed and everyday English (None: no distinct plural).
_PLURALS: dict[str, str | None] = {"person": "people", "fish": None, "deer": None, "sheep": None}
MASS_NOUN_GAP = 2.0  # zipf units: "advices" is 2.1 below "advice", "dogs" 0.8 below "dog"


@lru_cache(maxsize=200_000)
def inflect(lemma: str, tag: str) -> str | None:
    """Return the dictionary form of `lemma` for `tag`, or None if there is no trustworthy one."""
    import lemminflect
    from wordfreq import zipf_frequency

    if (lemma, tag) in _AMBIGUOUS:
        return None
    words = lemma.split(" ")
    # Multi-word items inflect their head: the last word for nouns, the first for verbs.
    head_index = len(words) - 1 if tag.startswith("NN") else 0
    head = words[head_index]
    if tag == "VBP" and head == "be":
        form = "are"
    elif tag == "NNS" and head in _PLURALS:
        plural = _PLURALS[head]
        if plural is None:
            return None
        form = plural
    else:
        forms = lemminflect.getInflection(head, tag, inflect_oov=False)
        if tag == "NNS":
            # The dictionary lists the singular among the plurals of nouns also used uncountably;
            # a plural far rarer than its singular ("informations") is not real usage.
            plurals = [f for f in forms if f != head]
            forms = tuple(
                f for f in plurals if zipf_frequency(f, "en") >= zipf_frequency(head, "en") - MASS_NOUN_GAP
            )
        if not forms:
            return None
        form = max(forms, key=lambda f: (zipf_frequency(f, "en"), -forms.index(f)))
    words[head_index] = form
    return " ".join(words)
