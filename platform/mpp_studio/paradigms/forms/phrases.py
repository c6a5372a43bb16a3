"""The form of the phrase pages: a phrase's name, its alternatives as YAML, and a description."""

from django import forms

from mpp_studio.paradigms.models import Phrase
from mpp_studio.paradigms.services.phrases import MAX_TEXT_CHARS, NAME_RULE

TEXT_EXAMPLE = """\
- [{direct: the}, {id: head, lexical: {pos: NN}}]
- - {direct: the}
  - {lexical: {pos: JJ}}
  - {id: head, lexical: {pos: NN}}
"""


class PhraseForm(forms.Form):
    """Collects the fields; the phrase service checks the name and has the engine read the text."""

    name = forms.CharField(
        max_length=Phrase._meta.get_field("name").max_length,
        help_text=f"Templates use it as {{phrase: NAME}}. {NAME_RULE[:1].upper()}{NAME_RULE[1:]}.",
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        error_messages={"required": "The phrase needs a name."},
    )
    text = forms.CharField(
        label="Alternatives (YAML)",
        strip=False,
        max_length=MAX_TEXT_CHARS,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "yaml-input"}),
        help_text="A YAML list: each alternative is a list of positions, as in a template's grammar.",
        error_messages={
            "required": "Write the alternatives: a YAML list, each alternative a list of positions."
        },
    )
    description = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="What the phrase is for, in a sentence (optional).",
    )
