"""Forms of the paradigm pages."""

from django import forms

# Seeds are hashed with the uid into the generator's random stream; any whole number works, this
# bound only keeps the field to a sane size.
MAX_SEED = 2**63 - 1


class PreviewForm(forms.Form):
    """The seed of the pair preview (a query parameter; 0 when absent)."""

    seed = forms.IntegerField(min_value=0, max_value=MAX_SEED, initial=0, required=False)

    def clean_seed(self) -> int:
        seed = self.cleaned_data.get("seed")
        return 0 if seed is None else seed
